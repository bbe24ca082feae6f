package rowbridge.golden;

import static rowbridge.golden.Vals.big;
import static rowbridge.golden.Vals.bytes;
import static rowbridge.golden.Vals.f32;
import static rowbridge.golden.Vals.f64;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import rowbridge.golden.Main.Case;
import rowbridge.golden.Vals.F32;
import rowbridge.golden.Vals.F64;
import rowbridge.golden.Vals.Mdn;
import rowbridge.golden.Vals.NullWith;

/** Flat (non-nested) golden cases. */
public final class FlatCases {
  private FlatCases() {}

  /** Seed of the "mixed_random" case. */
  public static final long MIXED_SEED = 20250611L;

  static Case flat(String name, List<Col> cols, List<Object[]> rows) {
    return new Case("flat", name, cols, rows);
  }

  /** One column, one value per row. */
  static Case single(String name, Col col, Object... vals) {
    List<Object[]> rows = new ArrayList<>();
    for (Object v : vals) {
      rows.add(new Object[] {v});
    }
    return flat(name, List.of(col), rows);
  }

  static String repeat(char c, int n) {
    return String.valueOf(c).repeat(n);
  }

  /** Strings: empty values, ASCII of 1,7,8,9,15,16,17 bytes, multi-byte UTF-8, nulls. */
  static Object[] stringValues() {
    return new Object[] {
      "", "a", null, "abcdefg", "abcdefgh", "abcdefghi", "", "abcdefghijklmno",
      "abcdefghijklmnop", "abcdefghijklmnopq", null, "h\u00e9llo", "\u65e5\u672c\u8a9e",
      "\ud83d\ude00", "\u00e9", "tab\tnewline\n\u0000nul", "", repeat('x', 64), "z"
    };
  }

  static Object[] binaryValues() {
    return new Object[] {
      new byte[0], bytes(0), null, bytes(0xff, 0, 1, 2, 3, 4, 0x80),
      bytes(1, 2, 3, 4, 5, 6, 7, 8), bytes(0, 0, 0, 0, 0, 0, 0, 0, 0), new byte[0],
      bytes(0xde, 0xad, 0xbe, 0xef, 0xca, 0xfe, 0xba, 0xbe, 0, 1, 2, 3, 4, 5, 6),
      bytes(0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd,
          0xfe, 0xff),
      bytes(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0x7f), null, bytes(0x80)
    };
  }

  static BigInteger pow10m1(int p) {
    return BigInteger.TEN.pow(p).subtract(BigInteger.ONE);
  }

  /** Values of a p <= 18 decimal column. */
  static Object[] smallDecimals(int p) {
    BigInteger m = pow10m1(p);
    return new Object[] {m, m.negate(), big(0), big(1), big(-1), null, big(12345), big(-12345),
      big(127), big(-128), null, m.subtract(BigInteger.ONE)};
  }

  /** Values of a p > 18 decimal column: minimal two's complement lengths 1..16 and extremes. */
  static Object[] largeDecimals(int p) {
    BigInteger m = pow10m1(p);
    List<Object> v = new ArrayList<>(Arrays.asList(
        m, m.negate(), big(0), big(1), big(-1), null, big(127), big(128), big(-128), big(-129),
        big(255), big(256), null, big(32767), big(32768), big(-32768), big(-32769),
        big(Long.MAX_VALUE), big(Long.MIN_VALUE), big(Long.MAX_VALUE).add(BigInteger.ONE),
        big(Long.MIN_VALUE).subtract(BigInteger.ONE), BigInteger.ONE.shiftLeft(64),
        BigInteger.ONE.shiftLeft(64).negate(), big("999999999999999999"),
        big("1000000000000000000"), big("-1000000000000000000")));
    if (p >= 38) {
      v.add(BigInteger.ONE.shiftLeft(119)); // 16 bytes: 0x00 80 00...
      v.add(BigInteger.ONE.shiftLeft(119).negate()); // 15 bytes: 0x80 00...
      v.add(BigInteger.ONE.shiftLeft(119).negate().subtract(BigInteger.ONE)); // 16 bytes
    }
    v.add(null);
    // keep only values that fit the precision (Spark's reader throws on the others)
    v.removeIf(x -> x != null && ((BigInteger) x).abs().compareTo(m) > 0);
    return v.toArray();
  }

  static Object[] floats() {
    return new Object[] {
      f32(0.0f), f32(-0.0f), f32(1.5f), null, new F32(0x7fc00000), new F32(0x7fc00001),
      new F32(0xffc00000), new F32(0x7f800001), new F32(0x7fbfffff), f32(Float.POSITIVE_INFINITY),
      f32(Float.NEGATIVE_INFINITY), new F32(0x00000001), new F32(0x807fffff),
      f32(Float.MIN_NORMAL), f32(Float.MAX_VALUE), f32(-Float.MAX_VALUE), null, f32(-1.0f)
    };
  }

  static Object[] doubles() {
    return new Object[] {
      f64(0.0), f64(-0.0), f64(1.5), null, new F64(0x7ff8000000000000L),
      new F64(0x7ff8000000000001L), new F64(0xfff8000000000000L), new F64(0x7ff0000000000001L),
      new F64(0x7ff7ffffffffffffL), f64(Double.POSITIVE_INFINITY), f64(Double.NEGATIVE_INFINITY),
      new F64(0x0000000000000001L), new F64(0x800fffffffffffffL), f64(Double.MIN_NORMAL),
      f64(Double.MAX_VALUE), f64(-Double.MAX_VALUE), null, f64(-1.0)
    };
  }

  static Object[] longsFor(long min, long max) {
    return new Object[] {min, max, -1L, 0L, 1L, null, min + 1, max - 1, null, 42L};
  }

  public static List<Case> all() {
    List<Case> cs = new ArrayList<>();
    cs.add(single("bool", Col.bool(), true, false, null, true, true, false, null, false, true,
        null, true));
    cs.add(single("int8", Col.i8(), longsFor(Byte.MIN_VALUE, Byte.MAX_VALUE)));
    cs.add(single("int16", Col.i16(), longsFor(Short.MIN_VALUE, Short.MAX_VALUE)));
    cs.add(single("int32", Col.i32(), longsFor(Integer.MIN_VALUE, Integer.MAX_VALUE)));
    cs.add(single("int64", Col.i64(), longsFor(Long.MIN_VALUE, Long.MAX_VALUE)));
    cs.add(single("float32", Col.f32(), floats()));
    cs.add(single("float64", Col.f64(), doubles()));
    cs.add(single("decimal_9_2", Col.dec(9, 2), smallDecimals(9)));
    cs.add(single("decimal_18_4", Col.dec(18, 4), smallDecimals(18)));
    cs.add(single("decimal_18_0", Col.dec(18, 0), smallDecimals(18)));
    cs.add(single("decimal_1_0", Col.dec(1, 0), big(9), big(-9), big(0), null, big(1)));
    cs.add(single("decimal_19_0", Col.dec(19, 0), largeDecimals(19)));
    cs.add(single("decimal_20_0", Col.dec(20, 0), largeDecimals(20)));
    cs.add(single("decimal_38_0", Col.dec(38, 0), largeDecimals(38)));
    cs.add(single("decimal_38_10", Col.dec(38, 10), largeDecimals(38)));
    cs.add(single("decimal_38_38", Col.dec(38, 38), largeDecimals(38)));
    cs.add(single("utf8", Col.utf8(), stringValues()));
    cs.add(single("large_utf8", Col.largeUtf8(), stringValues()));
    cs.add(single("binary", Col.binary(), binaryValues()));
    cs.add(single("large_binary", Col.largeBinary(), binaryValues()));
    cs.add(single("utf8_all_empty", Col.utf8(), "", "", null, ""));
    cs.add(single("date32", Col.date32(), 0L, 1L, -1L, null, -719162L, 2932896L,
        (long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE, 19000L, null));
    Object[] ts = {0L, 1L, -1L, null, Long.MIN_VALUE, Long.MAX_VALUE, 1700000000123456L,
      -62135596800000000L, 253402300799999999L, -1000000L, null};
    cs.add(single("timestamp_us_utc", Col.tsUs("UTC"), ts));
    cs.add(single("timestamp_us_tz_la", Col.tsUs("America/Los_Angeles"), ts));
    cs.add(single("timestamp_us_ntz", Col.tsUs(null), ts));
    cs.add(flat("null_type", List.of(Col.nul(), Col.i32(), Col.nul()), List.of(
        new Object[] {null, 1L, null}, new Object[] {null, null, null},
        new Object[] {null, -1L, null})));
    cs.add(single("interval_year_month", Col.intervalYm(), 0L, 1L, -1L, null, 13L, -13L,
        (long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE, null));
    cs.add(single("duration_us", Col.durationUs(), 0L, 1L, -1L, null, Long.MIN_VALUE,
        Long.MAX_VALUE, 86400000000L, -86400000001L, null));
    cs.add(single("interval_month_day_nano", Col.intervalMdn(),
        new Mdn(0, 0, 0), new Mdn(1, 2, 3000), null, new Mdn(-1, -2, -3000),
        new Mdn(Integer.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE), null,
        new Mdn(Integer.MIN_VALUE, Integer.MAX_VALUE, Long.MIN_VALUE),
        new Mdn(0, 0, 1500), new Mdn(0, 0, -1500), new Mdn(0, 0, 999), new Mdn(0, 0, -999),
        new Mdn(0, 0, -1), new Mdn(12, 31, 86400000000000L), null, null));
    // two CalendarInterval columns around a string: shows where the null's 16 bytes sit
    cs.add(flat("interval_mdn_null_after_value",
        List.of(Col.intervalMdn(), Col.utf8(), Col.intervalMdn()), List.of(
            new Object[] {new Mdn(7, 8, 9000), "abcdefghij", new Mdn(-1, -1, -1000)},
            new Object[] {null, "abcdefghij", null},
            new Object[] {null, null, new Mdn(1, 1, 1000)},
            new Object[] {new Mdn(0x11111111, 0x22222222, 0x3333333333333000L), "x", null})));
    // big decimal nulls after values (shows the 16 reserved, zeroed bytes)
    cs.add(flat("decimal_38_10_null_after_value",
        List.of(Col.dec(38, 10), Col.utf8(), Col.dec(30, 5)), List.of(
            new Object[] {pow10m1(38), "abcdefghij", pow10m1(30).negate()},
            new Object[] {null, "abcdefghij", null},
            new Object[] {big(-1), null, null},
            new Object[] {null, "", big(5)})));
    cs.add(single("time64_ns", Col.time64ns(), 0L, 1L, 86399999999999L, null, 1000L,
        43200000000000L));
    cs.add(single("variant", Col.variant(), variant(bytes(0x0c, 0x01), bytes(0x01, 0, 0)), null,
        variant(bytes(), bytes(0x01, 0, 0)), variant(run(40, 3), run(13, 200)),
        variant(bytes(0), bytes(0x01, 0x01, 0, 0x01, 0x61)), variant(run(7, 9), run(1, 1))));
    cs.add(garbageUnderNulls());
    cs.add(wide70());
    cs.add(flat("empty", List.of(Col.i64(), Col.utf8(), Col.dec(38, 10), Col.bool(),
        Col.intervalMdn()), List.of()));
    cs.add(flat("one_row", List.of(Col.i64(), Col.utf8(), Col.dec(38, 10), Col.bool(),
        Col.f64(), Col.dec(9, 2), Col.binary(), Col.intervalMdn()), List.<Object[]>of(
        new Object[] {-7L, "one row", big(-123456789), true, f64(2.5), big(-999), bytes(9, 8),
          new Mdn(1, 2, 3000)})));
    cs.add(record());
    cs.add(mixedRandom());
    return cs;
  }

  /** Null slots whose value bytes are not zero (allowed by the Arrow format). */
  /** A variant value: its value and metadata bytes. */
  static Object[] variant(byte[] value, byte[] metadata) {
    return new Object[] {value, metadata};
  }

  /** n bytes counting up from first (mod 256). */
  static byte[] run(int n, int first) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (first + i);
    }
    return b;
  }

  static Case garbageUnderNulls() {
    List<Col> cols = List.of(Col.i64(), Col.utf8(), Col.dec(38, 10), Col.f64(), Col.bool(),
        Col.dec(9, 2), Col.binary(), Col.intervalMdn(), Col.i8());
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {1L, "alive", big(5), f64(1.0), true, big(7), bytes(1), new Mdn(1, 1, 1000),
      1L});
    rows.add(new Object[] {new NullWith(-1L), new NullWith("hidden-bytes-under-null"),
      new NullWith(pow10m1(38)), new NullWith(f64(Double.NaN)), new NullWith(true),
      new NullWith(big(-99)), new NullWith(bytes(0xff, 0xff)), new NullWith(new Mdn(-1, -1, -1)),
      new NullWith(-1L)});
    rows.add(new Object[] {2L, "", big(-5), f64(-0.0), false, big(0), new byte[0],
      new Mdn(0, 0, 0), 0L});
    rows.add(new Object[] {new NullWith(Long.MAX_VALUE), new NullWith("x"), new NullWith(big(1)),
      new NullWith(f64(1e300)), new NullWith(true), new NullWith(big(1)), new NullWith(bytes(0)),
      new NullWith(new Mdn(5, 5, 5000)), new NullWith(127L)});
    return flat("garbage_under_nulls", cols, rows);
  }

  /** 70 columns (2 bitset words), nulls on both sides of column 64. */
  static Case wide70() {
    List<Col> types = List.of(Col.i64(), Col.i32(), Col.utf8(), Col.f64(), Col.bool(),
        Col.dec(38, 10), Col.date32(), Col.i16(), Col.dec(9, 2), Col.binary(), Col.tsUs("UTC"),
        Col.i8(), Col.f32(), Col.intervalMdn());
    List<Col> cols = new ArrayList<>();
    for (int c = 0; c < 70; c++) {
      cols.add(types.get(c % types.size()));
    }
    List<Object[]> rows = new ArrayList<>();
    for (int r = 0; r < 5; r++) {
      Object[] row = new Object[70];
      for (int c = 0; c < 70; c++) {
        boolean isNull = r == 4 ? c >= 60 : r != 3 && (c + r) % 4 == 0;
        if (r == 2 && (c == 63 || c == 64 || c == 69)) {
          isNull = true;
        }
        long k = (long) r * 1000 + c;
        Object v = switch (c % types.size()) {
          case 0 -> k * 1000003L - 5;
          case 1 -> -k;
          case 2 -> "s" + "x".repeat((int) (k % 19));
          case 3 -> f64(k / 7.0);
          case 4 -> (k & 1) == 0;
          case 5 -> big(k).multiply(BigInteger.TEN.pow(20)).negate();
          case 6 -> k - 500;
          case 7 -> -k;
          case 8 -> big(k * 3);
          case 9 -> bytes((int) k, (int) (k >> 8), 0);
          case 10 -> k * 86400000000L;
          case 11 -> k % 100;
          case 12 -> f32(k / 3.0f);
          default -> new Mdn((int) k, -(int) k, k * 1000);
        };
        row[c] = isNull ? null : v;
      }
      rows.add(row);
    }
    return flat("wide70", cols, rows);
  }

  /** The benchmark's "record" schema, 100 rows. */
  static Case record() {
    List<Col> cols = List.of(Col.i64().named("a"), Col.i32().named("b"), Col.f64().named("c"),
        Col.utf8().named("d"));
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      rows.add(new Object[] {(long) i, (long) i, f64(i), "value_" + i});
    }
    return flat("record", cols, rows);
  }

  /** 14 mixed columns x 200 rows of random values, seed MIXED_SEED, 10% nulls. */
  static Case mixedRandom() {
    Random rnd = new Random(MIXED_SEED);
    List<Col> cols = List.of(Col.bool(), Col.i8(), Col.i16(), Col.i32(), Col.i64(), Col.f32(),
        Col.f64(), Col.dec(10, 2), Col.dec(30, 5), Col.utf8(), Col.binary(), Col.date32(),
        Col.tsUs("UTC"), Col.tsUs(null));
    BigInteger m30 = BigInteger.TEN.pow(30);
    String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 \u00e9\u00df\u4e2d";
    List<Object[]> rows = new ArrayList<>();
    for (int r = 0; r < 200; r++) {
      Object[] row = new Object[cols.size()];
      for (int c = 0; c < cols.size(); c++) {
        Object v = switch (c) {
          case 0 -> rnd.nextBoolean();
          case 1 -> (long) (byte) rnd.nextInt();
          case 2 -> (long) (short) rnd.nextInt();
          case 3 -> (long) rnd.nextInt();
          case 4 -> rnd.nextLong();
          case 5 -> new F32(rnd.nextInt(8) == 0 ? rnd.nextInt() : Float.floatToRawIntBits(
              (float) rnd.nextGaussian() * 1000));
          case 6 -> new F64(rnd.nextInt(8) == 0 ? rnd.nextLong() : Double.doubleToRawLongBits(
              rnd.nextGaussian() * 1e6));
          case 7 -> big(rnd.nextLong() % 10000000000L);
          case 8 -> new BigInteger(100, rnd).mod(m30).subtract(
              rnd.nextBoolean() ? m30.shiftRight(1) : BigInteger.ZERO)
              .shiftRight(rnd.nextInt(100));
          case 9 -> {
            int len = rnd.nextInt(25);
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < len; i++) {
              sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
            yield sb.toString();
          }
          case 10 -> {
            byte[] b = new byte[rnd.nextInt(20)];
            rnd.nextBytes(b);
            yield b;
          }
          case 11 -> (long) (rnd.nextInt(200000) - 100000);
          default -> rnd.nextLong() >> rnd.nextInt(20);
        };
        row[c] = rnd.nextInt(10) == 0 ? null : v;
      }
      rows.add(row);
    }
    return flat("mixed_random", cols, rows);
  }
}
