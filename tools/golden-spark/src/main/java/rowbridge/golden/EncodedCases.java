package rowbridge.golden;

import static rowbridge.golden.Vals.f64;
import static rowbridge.golden.Vals.ls;
import static rowbridge.golden.Vals.mp;
import static rowbridge.golden.Vals.st;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import rowbridge.golden.Main.Case;

/**
 * Nested inputs in layouts Spark's ArrowColumnVector cannot read: list_view (out of order,
 * overlapping, null views over real elements) and dictionary-encoded or run-end encoded nodes
 * inside structs, lists and maps. rowbridge gets that layout (the JSON); Spark projects the same
 * values laid out plainly by this generator ({@code readCols}), never by rowbridge.
 */
public final class EncodedCases {
  private EncodedCases() {}

  static Case encoded(String name, List<Col> in, List<Col> read, List<Object[]> rows) {
    return new Case("derived", name, in, rows, read, rows);
  }

  static Case single(String name, Col in, Col read, Object... vals) {
    List<Object[]> rows = new ArrayList<>();
    for (Object v : vals) {
      rows.add(new Object[] {v});
    }
    return encoded(name, List.of(in), List.of(read), rows);
  }

  /** listRows plus lists equal to, or inside, earlier ones (shared and overlapping views). */
  static Object[] viewRows(Object[] base, Object a, Object b, Object c) {
    List<Object> rows = new ArrayList<>(Arrays.asList(base));
    rows.add(ls(a, b, c));
    rows.add(ls(b, c));
    rows.add(null);
    rows.add(ls(a, b, c));
    rows.add(ls(a));
    return rows.toArray();
  }

  public static List<Case> all() {
    List<Case> cs = new ArrayList<>();
    cs.add(single("list_view_int32", Col.listView(Col.i32()), Col.list(Col.i32()),
        viewRows(NestedCases.listRows(i -> (long) (i * 7 - 11)), 1L, 2L, 3L)));
    cs.add(single("list_view_utf8", Col.listView(Col.utf8()), Col.list(Col.utf8()),
        viewRows(NestedCases.listRows(i -> i % 3 == 0 ? "" : "v" + "x".repeat(i % 19)), "a",
            "a string of twenty+ b", null)));
    Col point = Col.struct(Col.f64().named("x"), Col.utf8().named("y"));
    Object p1 = st(f64(1.5), "p");
    Object p2 = st(null, "a longer string value here");
    cs.add(single("large_list_view_struct", Col.largeListView(point), Col.list(point),
        ls(p1, null, p2), null, ls(), ls(p2), ls(p1, null, p2), ls((Object) null), null,
        ls(st(f64(-0.0), null), p1)));
    cs.add(single("map_utf8_list_view_int64", Col.map(Col.utf8(), Col.listView(Col.i64())),
        Col.map(Col.utf8(), Col.list(Col.i64())),
        mp("a", ls(1L, 2L, 3L), "b", null, "c", ls(), "d", ls(2L, 3L)), null, mp(),
        mp("e", ls(1L, 2L, 3L), "f", ls((Object) null))));
    cs.add(dictionaryChildren());
    cs.add(runEndChildren());
    return cs;
  }

  /** Dictionary-encoded struct fields, list elements, map keys and values, and lists. */
  static Case dictionaryChildren() {
    List<Col> in = List.of(
        Col.struct(Col.dict(8, Col.utf8()).named("a"), Col.dict(32, Col.i64()).named("b")),
        Col.list(Col.dict(16, Col.utf8())),
        Col.map(Col.dict(32, Col.utf8()), Col.dict(32, Col.utf8())),
        Col.list(Col.struct(Col.dict(32, Col.f64()).named("x"))),
        Col.dict(32, Col.list(Col.i32())));
    List<Col> read = List.of(
        Col.struct(Col.utf8().named("a"), Col.i64().named("b")),
        Col.list(Col.utf8()),
        Col.map(Col.utf8(), Col.utf8()),
        Col.list(Col.struct(Col.f64().named("x"))),
        Col.list(Col.i32()));
    String[] words = {"red", "green", "", "a colour of more than 16 bytes", "red"};
    List<Object[]> rows = new ArrayList<>();
    for (int r = 0; r < 14; r++) {
      final int rr = r;
      Object[] row = new Object[] {
        st(r % 4 == 1 ? null : words[r % words.length], r % 3 == 0 ? null : (long) (r % 4) - 2),
        NestedCases.listOf(r % 6, i -> (i + rr) % 5 == 4 ? null : words[(i + rr) % words.length]),
        r % 4 == 0 ? mp() : mp(words[r % 4], words[(r + 1) % 5], "k", r % 2 == 0 ? null : "v"),
        NestedCases.listOf(r % 4, i -> i == 2 ? null : st(i == 1 ? null : f64(i * 0.5 - rr))),
        r % 3 == 2 ? ls() : ls((long) (r % 3), 7L, r % 2 == 0 ? null : 9L)
      };
      for (int c = 0; c < row.length; c++) {
        if ((r + 2 * c) % 7 == 0) {
          row[c] = null;
        }
      }
      rows.add(row);
    }
    return encoded("dictionary_children", in, read, rows);
  }

  /** Run-end encoded struct fields, list elements, map values, and lists. */
  static Case runEndChildren() {
    List<Col> in = List.of(
        Col.struct(Col.ree(Col.utf8()).named("r"), Col.ree(Col.i64()).named("s")),
        Col.list(Col.ree(Col.i32())),
        Col.map(Col.utf8(), Col.ree(Col.f64())),
        Col.ree(Col.list(Col.i32())));
    List<Col> read = List.of(
        Col.struct(Col.utf8().named("r"), Col.i64().named("s")),
        Col.list(Col.i32()),
        Col.map(Col.utf8(), Col.f64()),
        Col.list(Col.i32()));
    List<Object[]> rows = new ArrayList<>();
    for (int r = 0; r < 16; r++) {
      final int rr = r;
      Object[] row = new Object[] {
        st(r < 5 ? "first run" : r < 6 ? null : r < 11 ? "x" : "a long run value, 24 b",
            r / 3 == 2 ? null : (long) (r / 4)),
        NestedCases.listOf(r % 5, i -> i < 2 ? (Object) 7L : i == 2 ? null : (Object) (long) rr),
        r % 5 == 0 ? mp() : mp("a", f64(r / 6), "b", r % 2 == 0 ? null : f64(-0.0)),
        r < 4 ? ls(1L, 2L) : r < 9 ? null : ls((long) (r / 12), null)
      };
      if (r == 13) {
        row[0] = null;
        row[2] = null;
      }
      rows.add(row);
    }
    return encoded("run_end_children", in, read, rows);
  }
}
