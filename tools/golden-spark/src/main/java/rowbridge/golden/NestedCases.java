package rowbridge.golden;

import static rowbridge.golden.Vals.big;
import static rowbridge.golden.Vals.bytes;
import static rowbridge.golden.Vals.f32;
import static rowbridge.golden.Vals.f64;
import static rowbridge.golden.Vals.ls;
import static rowbridge.golden.Vals.mp;
import static rowbridge.golden.Vals.st;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import rowbridge.golden.Main.Case;
import rowbridge.golden.Vals.Mdn;

/** Nested (struct / list / map) golden cases. */
public final class NestedCases {
  private NestedCases() {}

  static Case nested(String name, List<Col> cols, List<Object[]> rows) {
    return new Case("nested", name, cols, rows);
  }

  static Case single(String name, Col col, Object... vals) {
    List<Object[]> rows = new ArrayList<>();
    for (Object v : vals) {
      rows.add(new Object[] {v});
    }
    return nested(name, List.of(col), rows);
  }

  /** A list of n elements produced by gen (index -> value, null allowed). */
  static List<Object> listOf(int n, IntFunction<Object> gen) {
    List<Object> l = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      l.add(gen.apply(i));
    }
    return l;
  }

  /**
   * Rows for a list-of-X column: empty list, null list, null elements, and lists of
   * 0,1,7,8,9,64,65 elements (every 5th element null in the long ones).
   */
  static Object[] listRows(IntFunction<Object> gen) {
    List<Object> rows = new ArrayList<>();
    rows.add(ls());
    rows.add(null);
    rows.add(ls((Object) null));
    rows.add(listOf(3, i -> i == 1 ? null : gen.apply(i)));
    for (int n : new int[] {0, 1, 7, 8, 9, 64, 65}) {
      rows.add(listOf(n, gen));
    }
    rows.add(listOf(9, i -> i % 5 == 4 ? null : gen.apply(i + 100)));
    rows.add(listOf(65, i -> i % 5 == 0 ? null : gen.apply(i + 200)));
    rows.add(null);
    rows.add(listOf(2, i -> null));
    return rows.toArray();
  }

  public static List<Case> all() {
    List<Case> cs = new ArrayList<>();
    cs.add(single("struct_int64_utf8", Col.struct(Col.i64().named("a"), Col.utf8().named("b")),
        st(1L, "one"), null, st(null, "no a"), st(Long.MIN_VALUE, null), st(null, null),
        st(0L, ""), st(-1L, "a string of more than 16 bytes"), null));
    cs.add(single("list_int32", Col.list(Col.i32()), listRows(i -> (long) (i * 7 - 11))));
    cs.add(single("list_utf8", Col.list(Col.utf8()),
        listRows(i -> i % 3 == 0 ? "" : "s" + "x".repeat(i % 18))));
    cs.add(single("list_bool", Col.list(Col.bool()), listRows(i -> i % 3 != 1)));
    cs.add(single("list_int8", Col.list(Col.i8()), listRows(i -> (long) (byte) (i * 37 - 128))));
    cs.add(single("list_int16", Col.list(Col.i16()),
        listRows(i -> (long) (short) (i * 4099 - 32768))));
    cs.add(single("list_int64", Col.list(Col.i64()),
        listRows(i -> i == 0 ? Long.MIN_VALUE : i * 1000000007L - 1)));
    cs.add(single("list_float32", Col.list(Col.f32()),
        listRows(i -> i == 2 ? new Vals.F32(0x7fc00001) : f32(i * 0.5f - 1))));
    cs.add(single("list_float64", Col.list(Col.f64()),
        listRows(i -> i == 2 ? f64(-0.0) : f64(i * 0.25 - 3))));
    cs.add(single("list_decimal_10_2", Col.list(Col.dec(10, 2)),
        listRows(i -> i == 0 ? FlatCases.pow10m1(10).negate() : big(i * 12345L - 99999))));
    cs.add(single("list_decimal_30_5", Col.list(Col.dec(30, 5)), listRows(i -> switch (i % 6) {
      case 0 -> FlatCases.pow10m1(30);
      case 1 -> big(0);
      case 2 -> big(-1);
      case 3 -> big(128);
      case 4 -> FlatCases.pow10m1(30).negate();
      default -> big(i).shiftLeft(i % 90);
    })));
    cs.add(single("list_date32", Col.list(Col.date32()), listRows(i -> (long) (i * 1000 - 5000))));
    cs.add(single("list_binary", Col.list(Col.binary()),
        listRows(i -> i % 4 == 0 ? new byte[0] : bytes(i, 0xff, i))));
    cs.add(single("list_interval_month_day_nano", Col.list(Col.intervalMdn()),
        listRows(i -> new Mdn(i, -i, i * 1000L + 1))));
    cs.add(single("map_utf8_int64", Col.map(Col.utf8(), Col.i64()),
        mp("a", 1L, "b", null, "", -1L), null, mp(), mp("k", Long.MAX_VALUE),
        mp("key number 1", 10L, "key number 2", 20L, "key number 3", 30L, "k4", null,
            "k5", 50L, "k6", 60L, "k7", 70L, "k8", 80L, "k9", 90L), null, mp()));
    cs.add(single("list_variant", Col.list(Col.variant()),
        listRows(i -> FlatCases.variant(FlatCases.run(i % 11, i), FlatCases.run(1 + i % 3, 7)))));
    cs.add(single("struct_int32_variant",
        Col.struct(Col.i32().named("i"), Col.variant().named("v")),
        st(1L, FlatCases.variant(FlatCases.run(5, 1), FlatCases.run(3, 1))), null, st(2L, null),
        st(null, FlatCases.variant(FlatCases.run(0, 0), FlatCases.run(9, 4)))));
    cs.add(single("map_utf8_variant", Col.map(Col.utf8(), Col.variant()),
        mp("a", FlatCases.variant(FlatCases.run(3, 0), FlatCases.run(2, 0)), "b", null), null, mp(),
        mp("k", FlatCases.variant(FlatCases.run(17, 5), FlatCases.run(4, 9)))));
    Col pt = Col.struct(Col.f64().named("x"), Col.utf8().named("y"));
    cs.add(single("list_struct_f64_utf8", Col.list(pt),
        ls(st(f64(1.5), "p"), null, st(null, "q"), st(f64(-0.0), null)), null, ls(),
        ls((Object) null), ls((Object) st(f64(Double.NaN), "a much longer string value here")),
        listOf(9, i -> i % 4 == 3 ? null : st(f64(i), "e" + i))));
    Col listOfMaps = Col.list(Col.map(Col.utf8(), Col.i32()));
    cs.add(single("struct_list_of_maps", Col.struct(listOfMaps.named("lm"),
        Col.i32().named("n")),
        st(ls(mp("a", 1L), mp(), null, mp("b", null, "c", 3L)), 7L), null,
        st(null, null), st(ls(), 0L), st(ls((Object) null), -1L),
        st(ls(mp("x", 1L, "y", 2L, "z", 3L, "w", 4L)), 42L)));
    cs.add(single("struct_large_decimal", Col.struct(Col.dec(38, 10).named("d"),
        Col.i32().named("i"), Col.dec(20, 0).named("e")),
        st(FlatCases.pow10m1(38), 1L, big(1)), null, st(null, 2L, null),
        st(big(-1), null, FlatCases.pow10m1(20).negate()), st(big(0), 3L, big(128))));
    cs.add(single("map_utf8_list_int64", Col.map(Col.utf8(), Col.list(Col.i64())),
        mp("a", ls(1L, 2L, 3L), "b", null, "c", ls(), "d", ls((Object) null)), null, mp(),
        mp("long", listOf(9, i -> i == 4 ? null : (long) i))));
    cs.add(single("map_int32_decimal_38_10", Col.map(Col.i32(), Col.dec(38, 10)),
        mp(1L, big(1), 2L, null, 3L, FlatCases.pow10m1(38).negate()), null, mp(),
        mp(-1L, big(0))));
    Col deepList = Col.list(Col.list(Col.list(Col.i32())));
    Col deepStruct = Col.struct(Col.struct(Col.struct(Col.i64().named("v"),
        Col.utf8().named("w")).named("t"), Col.i32().named("u")).named("s"));
    Col listMapList = Col.list(Col.map(Col.utf8(), Col.list(Col.i32())));
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {ls(ls(ls(1L, 2L), ls(), null), null, ls(ls((Object) null))),
      st((Object) st(st(1L, "deep"), 2L)), ls(mp("a", ls(1L, null, 3L)), null, mp())});
    rows.add(new Object[] {null, null, null});
    rows.add(new Object[] {ls(), st((Object) null), ls()});
    rows.add(new Object[] {ls(ls(ls(5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L))),
      st((Object) st(null, null)), ls(mp("k", null, "j", ls()))});
    rows.add(new Object[] {ls((Object) null), st((Object) st(st(null, null), 3L)),
      ls((Object) null)});
    cs.add(nested("depth3", List.of(deepList, deepStruct, listMapList), rows));
    cs.add(mixedNested());
    return cs;
  }

  /** A few nested columns side by side with flat ones, so variable regions interleave. */
  static Case mixedNested() {
    List<Col> cols = List.of(Col.i32(), Col.struct(Col.i64().named("a"), Col.utf8().named("b")),
        Col.utf8(), Col.list(Col.i32()), Col.map(Col.utf8(), Col.i64()), Col.dec(38, 2),
        Col.list(Col.struct(Col.f64().named("x"), Col.utf8().named("y"))));
    List<Object[]> rows = new ArrayList<>();
    for (int r = 0; r < 12; r++) {
      final int rr = r;
      Object[] row = new Object[] {
        (long) r,
        st((long) r * -3, "b" + r),
        "str".repeat(r % 4),
        listOf(r % 5, i -> (long) (i + rr)),
        r % 3 == 0 ? mp() : mp("k" + r, (long) r, "q", null),
        big(r).multiply(BigInteger.TEN.pow(r * 3)).negate(),
        listOf(r % 3, i -> st(f64(i + rr), "y".repeat(i + rr % 10)))
      };
      for (int c = 0; c < row.length; c++) {
        if ((r + c) % 5 == 0) {
          row[c] = null;
        }
      }
      rows.add(row);
    }
    return nested("mixed_nested", cols, rows);
  }
}
