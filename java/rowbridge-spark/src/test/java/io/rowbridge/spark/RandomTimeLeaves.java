package io.rowbridge.spark;

import static io.rowbridge.spark.RandomColumns.*;
import static io.rowbridge.spark.RandomLeaves.*;

import java.util.Random;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** The date, time and interval leaf kinds of the differential suite (units per CONTRACTS.md §2). */
final class RandomTimeLeaves {
  private RandomTimeLeaves() {}

  /** date32 (values: Long days) or date64 (values: Long milliseconds). */
  static final class DateLeaf extends Leaf {
    final boolean millis;

    DateLeaf(boolean millis) {
      super(
          millis ? "date64" : "date32",
          new ArrowType.Date(millis ? DateUnit.MILLISECOND : DateUnit.DAY),
          new ArrowType.Date(DateUnit.DAY));
      this.millis = millis;
    }

    @Override
    Layout layout(boolean readable) {
      return Layout.FIXED;
    }

    @Override
    Object random(Random random) {
      long days =
          random.nextInt(5) == 0
              ? new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1}[random.nextInt(5)]
              : random.nextInt(2_000_000) - 1_000_000;
      if (!millis) {
        return days;
      }
      long within = random.nextInt(3) == 0 ? 0 : random.nextInt(86_400_000);
      long ms = days * 86_400_000L + within;
      return Math.floorDiv(ms, 86_400_000L) == days ? ms : days * 86_400_000L;
    }

    @Override
    Object encode(Object value, boolean readable) {
      long v = (Long) value;
      if (readable && millis) {
        return littleEndian(Math.floorDiv(v, 86_400_000L), 4);
      }
      return littleEndian(v, millis ? 8 : 4);
    }
  }

  static long unitsPerMicro(TimeUnit unit) {
    switch (unit) {
      case SECOND:
        return -1_000_000;
      case MILLISECOND:
        return -1_000;
      case MICROSECOND:
        return 1;
      default:
        return 1_000;
    }
  }

  /** Converts a value of {@code unit} to microseconds (ns: floor division). */
  static long toMicros(long value, TimeUnit unit) {
    long factor = unitsPerMicro(unit);
    return factor < 0 ? Math.multiplyExact(value, -factor) : Math.floorDiv(value, factor);
  }

  /** A value of {@code unit} whose microseconds fit in a long. */
  static long randomTime(Random random, TimeUnit unit) {
    long factor = unitsPerMicro(unit);
    long limit = factor < 0 ? Long.MAX_VALUE / -factor : Long.MAX_VALUE;
    if (random.nextInt(5) == 0) {
      long[] extremes = {limit, -limit, 0, 1, -1, factor == 1_000 ? Long.MIN_VALUE : -limit};
      return extremes[random.nextInt(extremes.length)];
    }
    return random.nextBoolean()
        ? random.nextLong() % limit
        : (long) ((random.nextDouble() - 0.5) * 4e9)
            * (factor < 0 ? 1 : 1_000_000L / Math.max(1, factor));
  }

  /** timestamp[unit, tz] (values: Longs in the unit). */
  static final class TimestampLeaf extends Leaf {
    final TimeUnit unit;

    TimestampLeaf(TimeUnit unit, String zone) {
      super(
          "timestamp[" + unit + "," + zone + "]",
          new ArrowType.Timestamp(unit, zone),
          new ArrowType.Timestamp(TimeUnit.MICROSECOND, zone));
      this.unit = unit;
    }

    @Override
    Layout layout(boolean readable) {
      return Layout.FIXED;
    }

    @Override
    Object random(Random random) {
      return randomTime(random, unit);
    }

    @Override
    Object encode(Object value, boolean readable) {
      long v = (Long) value;
      return littleEndian(readable ? toMicros(v, unit) : v, 8);
    }
  }

  /** duration[unit] (values: Longs in the unit). */
  static final class DurationLeaf extends Leaf {
    final TimeUnit unit;

    DurationLeaf(TimeUnit unit) {
      super(
          "duration[" + unit + "]",
          new ArrowType.Duration(unit),
          new ArrowType.Duration(TimeUnit.MICROSECOND));
      this.unit = unit;
    }

    @Override
    Layout layout(boolean readable) {
      return Layout.FIXED;
    }

    @Override
    Object random(Random random) {
      return randomTime(random, unit);
    }

    @Override
    Object encode(Object value, boolean readable) {
      long v = (Long) value;
      return littleEndian(readable ? toMicros(v, unit) : v, 8);
    }
  }

  /** interval[year_month] (values: Long months). */
  static final class YearMonthLeaf extends Leaf {
    YearMonthLeaf() {
      super(
          "interval[year_month]",
          new ArrowType.Interval(IntervalUnit.YEAR_MONTH),
          new ArrowType.Interval(IntervalUnit.YEAR_MONTH));
    }

    @Override
    Layout layout(boolean readable) {
      return Layout.FIXED;
    }

    @Override
    Object random(Random random) {
      return random.nextInt(5) == 0
          ? (long) new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1}[random.nextInt(4)]
          : (long) (random.nextInt(20000) - 10000);
    }

    @Override
    Object encode(Object value, boolean readable) {
      return littleEndian((Long) value, 4);
    }
  }

  /**
   * interval[month_day_nano] (values: long[] {months, days, nanos}). Spark's reader truncates
   * nanoseconds toward zero, as CONTRACTS.md §2 does: Spark reads the input itself.
   */
  static final class MonthDayNanoLeaf extends Leaf {
    MonthDayNanoLeaf() {
      super(
          "interval[month_day_nano]",
          new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO),
          new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO));
    }

    @Override
    boolean sparkReadsInput() {
      return true;
    }

    @Override
    boolean hasCalendarInterval() {
      return true;
    }

    @Override
    Layout layout(boolean readable) {
      return Layout.FIXED;
    }

    @Override
    Object random(Random random) {
      if (random.nextInt(5) == 0) {
        return new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE};
      }
      long nanos = random.nextBoolean() ? random.nextLong() : random.nextInt(4_000_000) - 2_000_000;
      return new long[] {
        random.nextInt(2000) - 1000,
        random.nextInt(2000) - 1000,
        Math.max(nanos, Long.MIN_VALUE + 1000)
      };
    }

    @Override
    Object encode(Object value, boolean readable) {
      long[] v = (long[]) value;
      long nanos = v[2];
      byte[] out = new byte[16];
      System.arraycopy(littleEndian(v[0], 4), 0, out, 0, 4);
      System.arraycopy(littleEndian(v[1], 4), 0, out, 4, 4);
      System.arraycopy(littleEndian(nanos, 8), 0, out, 8, 8);
      return out;
    }
  }

  /**
   * time32[s|ms] or time64[us|ns] (values: Longs in the unit); Spark reads time64[ns], so the other
   * units are converted to nanoseconds on its side. Microseconds stay within int64 nanoseconds;
   * values need not be a time of day (neither side checks).
   */
  static final class TimeLeaf extends Leaf {
    final TimeUnit unit;

    TimeLeaf(TimeUnit unit) {
      super(
          "time[" + unit + "]",
          new ArrowType.Time(unit, bits(unit)),
          new ArrowType.Time(TimeUnit.NANOSECOND, 64));
      this.unit = unit;
    }

    static int bits(TimeUnit unit) {
      return unit == TimeUnit.SECOND || unit == TimeUnit.MILLISECOND ? 32 : 64;
    }

    static long nanosPerUnit(TimeUnit unit) {
      switch (unit) {
        case SECOND:
          return 1_000_000_000L;
        case MILLISECOND:
          return 1_000_000L;
        case MICROSECOND:
          return 1_000L;
        default:
          return 1L;
      }
    }

    @Override
    Layout layout(boolean readable) {
      return Layout.FIXED;
    }

    @Override
    Object random(Random random) {
      long perDay = 86_400_000_000_000L / nanosPerUnit(unit);
      switch (random.nextInt(4)) {
        case 0:
          return bits(unit) == 32
              ? (long) random.nextInt()
              : unit == TimeUnit.MICROSECOND
                  ? random.nextLong() % (Long.MAX_VALUE / 1000)
                  : random.nextLong();
        case 1:
          return new long[] {0, perDay - 1, -1, 1}[random.nextInt(4)];
        default:
          return Math.floorMod(random.nextLong(), perDay);
      }
    }

    @Override
    Object encode(Object value, boolean readable) {
      long v = (Long) value;
      return readable ? littleEndian(v * nanosPerUnit(unit), 8) : littleEndian(v, bits(unit) / 8);
    }
  }
}
