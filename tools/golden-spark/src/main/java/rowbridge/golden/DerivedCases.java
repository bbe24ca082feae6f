package rowbridge.golden;

import static rowbridge.golden.Vals.big;
import static rowbridge.golden.Vals.bytes;
import static rowbridge.golden.Vals.ls;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

import rowbridge.golden.Main.Case;

/**
 * Inputs Spark's ArrowColumnVector cannot read but CONTRACTS.md §2 maps: the Arrow input keeps
 * its own type, and the rows are Spark's projection of the values converted by that section,
 * held in a type Spark reads (e.g. uint8 -> int16, timestamp[ns] -> timestamp[us] by floor division).
 */
public final class DerivedCases {
  private DerivedCases() {}

  static Case derived(String name, Col in, Col read, Function<Object, Object> conv,
      Object... vals) {
    List<Object[]> rows = new ArrayList<>();
    List<Object[]> readRows = new ArrayList<>();
    for (Object v : vals) {
      rows.add(new Object[] {v});
      readRows.add(new Object[] {v == null ? null : conv.apply(v)});
    }
    return new Case("derived", name, List.of(in), rows, List.of(read), readRows);
  }

  static Col ts(TimeUnit u, String tz) {
    return Col.of(new ArrowType.Timestamp(u, tz));
  }

  static Col dur(TimeUnit u) {
    return Col.of(new ArrowType.Duration(u));
  }

  static Object[] timeValues(TimeUnit u) {
    // values whose conversion to microseconds cannot overflow
    long big = switch (u) {
      case SECOND -> 9223372036854L;
      case MILLISECOND -> 9223372036854775L;
      default -> Long.MAX_VALUE;
    };
    return new Object[] {0L, 1L, -1L, null, 999L, -999L, 1000L, -1000L, 1001L, -1001L, 1500L,
      -1500L, big, -big, 1700000000L, null};
  }

  static Function<Object, Object> toMicros(TimeUnit u) {
    return v -> switch (u) {
      case SECOND -> (Long) v * 1000000L;
      case MILLISECOND -> (Long) v * 1000L;
      case MICROSECOND -> v;
      case NANOSECOND -> Math.floorDiv((Long) v, 1000L);
    };
  }

  public static List<Case> all() {
    List<Case> cs = new ArrayList<>();
    Function<Object, Object> same = v -> v;
    cs.add(derived("uint8", Col.of(new ArrowType.Int(8, false)), Col.i16(), same,
        0L, 1L, 127L, null, 128L, 200L, 255L));
    cs.add(derived("uint16", Col.of(new ArrowType.Int(16, false)), Col.i32(), same,
        0L, 1L, 32767L, null, 32768L, 65535L));
    cs.add(derived("uint32", Col.of(new ArrowType.Int(32, false)), Col.i64(), same,
        0L, 1L, 2147483647L, null, 2147483648L, 4294967295L));
    BigInteger two64 = BigInteger.ONE.shiftLeft(64);
    cs.add(derived("uint64", Col.of(new ArrowType.Int(64, false)), Col.dec(20, 0),
        v -> v instanceof BigInteger b ? b : big((Long) v),
        big(0), big(1), big(Long.MAX_VALUE), null, big(Long.MAX_VALUE).add(BigInteger.ONE),
        two64.subtract(BigInteger.ONE), big(255), big(256)));
    // Times of day: Spark reads time64[ns]; the other units become nanoseconds.
    cs.add(derived("time32_s", Col.of(new ArrowType.Time(TimeUnit.SECOND, 32)), Col.time64ns(),
        v -> (Long) v * 1_000_000_000L, 0L, 1L, 86399L, null, -1L, 2147483647L, -2147483648L));
    cs.add(derived("time32_ms", Col.of(new ArrowType.Time(TimeUnit.MILLISECOND, 32)),
        Col.time64ns(), v -> (Long) v * 1_000_000L, 0L, 1L, 86399999L, null, -1L, 2147483647L));
    cs.add(derived("time64_us", Col.of(new ArrowType.Time(TimeUnit.MICROSECOND, 64)),
        Col.time64ns(), v -> (Long) v * 1_000L, 0L, 1L, 86399999999L, null, -1L,
        Long.MAX_VALUE / 1000));
    cs.add(derived("date64", Col.of(new ArrowType.Date(DateUnit.MILLISECOND)), Col.date32(),
        v -> Math.floorDiv((Long) v, 86400000L),
        0L, 86399999L, 86400000L, null, -1L, -86400000L, -86400001L, 1700000000000L,
        -62135596800000L));
    for (TimeUnit u : new TimeUnit[] {TimeUnit.SECOND, TimeUnit.MILLISECOND,
        TimeUnit.NANOSECOND}) {
      String un = switch (u) {
        case SECOND -> "s";
        case MILLISECOND -> "ms";
        default -> "ns";
      };
      cs.add(derived("timestamp_" + un + "_utc", ts(u, "UTC"), Col.tsUs("UTC"), toMicros(u),
          timeValues(u)));
      cs.add(derived("timestamp_" + un + "_ntz", ts(u, null), Col.tsUs(null), toMicros(u),
          timeValues(u)));
      cs.add(derived("duration_" + un, dur(u), Col.durationUs(), toMicros(u), timeValues(u)));
    }
    cs.add(derived("fixed_size_binary_4", Col.of(new ArrowType.FixedSizeBinary(4)),
        Col.binary(), same, bytes(0, 0, 0, 0), bytes(1, 2, 3, 4), null,
        bytes(0xff, 0xfe, 0xfd, 0xfc), null, bytes(0x61, 0x62, 0x63, 0x64)));
    cs.add(derived("decimal256_38_10", Col.of(new ArrowType.Decimal(38, 10, 256)),
        Col.dec(38, 10), same, FlatCases.largeDecimals(38)));
    cs.add(derived("decimal256_18_4", Col.of(new ArrowType.Decimal(18, 4, 256)),
        Col.dec(18, 4), same, FlatCases.smallDecimals(18)));
    Object[] lists = NestedCases.listRows(i -> (long) (i * 7 - 11));
    cs.add(derived("large_list_int32", Col.largeList(Col.i32()), Col.list(Col.i32()), same,
        lists));
    cs.add(derived("fixed_size_list_3_int32", Col.fixedList(3, Col.i32()),
        Col.list(Col.i32()), same, ls(1L, 2L, 3L), null, ls(null, -1L, null),
        ls(0L, 0L, 0L), null, ls(2147483647L, -2147483648L, 7L)));
    return cs;
  }
}
