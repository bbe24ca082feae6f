package io.rowbridge.spark.cache;

import org.apache.spark.sql.types.AtomicType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.YearMonthIntervalType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A column's statistics in one cached batch, as Spark's in-memory cache keeps them for batch
 * pruning ({@code SimpleMetricsCachedBatch}): lower bound, upper bound, null count and row count,
 * in the stats row's slots {@code base .. base + 3} ({@code base + 4}, the size, is the writer's).
 *
 * <p>The bounds follow Spark's own column statistics exactly, so that pruning skips the same
 * batches it would skip over Spark's own cache: ordered comparisons starting from the type's
 * extreme values (so NaN never becomes a bound, and a batch of nulls keeps the extremes), strings
 * compared byte by byte, and no bounds for binary and nested columns. Chosen once per column type
 * ({@link #of}); stateless.
 */
abstract class ColumnStatistics {
  /** Fills the four slots from the first {@code rows} values of {@code column}. */
  abstract void gather(ColumnVector column, int rows, Object[] stats, int base);

  /**
   * The statistics of a column of {@code type}, or null for an atomic type whose bounds Spark's
   * pruning would read but this class does not know (the cache then leaves the schema to Spark).
   */
  static ColumnStatistics of(DataType type) {
    if (type instanceof BooleanType) {
      return new Booleans();
    } else if (type instanceof ByteType) {
      return new Integral(IntegralKind.BYTE);
    } else if (type instanceof ShortType) {
      return new Integral(IntegralKind.SHORT);
    } else if (type instanceof IntegerType
        || type instanceof DateType
        || type instanceof YearMonthIntervalType) {
      return new Integral(IntegralKind.INT);
    } else if (type instanceof LongType
        || type instanceof TimestampType
        || type instanceof TimestampNTZType
        || type instanceof DayTimeIntervalType
        || isTime(type)) {
      return new Integral(IntegralKind.LONG);
    } else if (type instanceof FloatType) {
      return new Floating(true);
    } else if (type instanceof DoubleType) {
      return new Floating(false);
    } else if (type instanceof StringType) {
      return new Strings();
    } else if (CompactDecimals.applies(type)) {
      return new UnscaledDecimals((DecimalType) type);
    } else if (type instanceof DecimalType) {
      return new Decimals((DecimalType) type);
    } else if (type instanceof BinaryType || !(type instanceof AtomicType)) {
      return new Unbounded();
    }
    return null;
  }

  /** Spark 4.1's TIME type (absent on earlier lines): nanoseconds of the day, a long. */
  private static boolean isTime(DataType type) {
    return type.getClass().getSimpleName().startsWith("TimeType");
  }

  static void put(Object[] stats, int base, Object lower, Object upper, int nulls, int rows) {
    stats[base] = lower;
    stats[base + 1] = upper;
    stats[base + 2] = nulls;
    stats[base + 3] = rows;
  }

  private static final class Unbounded extends ColumnStatistics {
    @Override
    void gather(ColumnVector column, int rows, Object[] stats, int base) {
      put(stats, base, null, null, nullCount(column, rows), rows);
    }
  }

  private static int nullCount(ColumnVector column, int rows) {
    if (!column.hasNull()) {
      return 0;
    }
    int nulls = 0;
    for (int i = 0; i < rows; i++) {
      if (column.isNullAt(i)) {
        nulls++;
      }
    }
    return nulls;
  }

  private static final class Booleans extends ColumnStatistics {
    @Override
    void gather(ColumnVector column, int rows, Object[] stats, int base) {
      boolean lower = true;
      boolean upper = false;
      int nulls = 0;
      boolean anyNull = column.hasNull();
      for (int i = 0; i < rows; i++) {
        if (anyNull && column.isNullAt(i)) {
          nulls++;
          continue;
        }
        boolean value = column.getBoolean(i);
        upper |= value;
        lower &= value;
      }
      put(stats, base, lower, upper, nulls, rows);
    }
  }

  /** How an integral column's values read as longs, and how a long bound is kept. */
  private enum IntegralKind {
    BYTE(Byte.MIN_VALUE, Byte.MAX_VALUE),
    SHORT(Short.MIN_VALUE, Short.MAX_VALUE),
    INT(Integer.MIN_VALUE, Integer.MAX_VALUE),
    LONG(Long.MIN_VALUE, Long.MAX_VALUE);

    final long min;
    final long max;

    IntegralKind(long min, long max) {
      this.min = min;
      this.max = max;
    }

    long read(ColumnVector column, int row) {
      switch (this) {
        case BYTE:
          return column.getByte(row);
        case SHORT:
          return column.getShort(row);
        case INT:
          return column.getInt(row);
        default:
          return column.getLong(row);
      }
    }

    Object box(long value) {
      switch (this) {
        case BYTE:
          return (byte) value;
        case SHORT:
          return (short) value;
        case INT:
          return (int) value;
        default:
          return value;
      }
    }
  }

  /** Integral columns: bounds start from the type's own extremes, as Spark's do. */
  private static final class Integral extends ColumnStatistics {
    private final IntegralKind kind;

    Integral(IntegralKind kind) {
      this.kind = kind;
    }

    @Override
    void gather(ColumnVector column, int rows, Object[] stats, int base) {
      long lower = kind.max;
      long upper = kind.min;
      int nulls = 0;
      boolean anyNull = column.hasNull();
      for (int i = 0; i < rows; i++) {
        if (anyNull && column.isNullAt(i)) {
          nulls++;
          continue;
        }
        long value = kind.read(column, i);
        upper = Math.max(value, upper);
        lower = Math.min(value, lower);
      }
      put(stats, base, kind.box(lower), kind.box(upper), nulls, rows);
    }
  }

  /**
   * Float and double columns, compared as doubles (a float widens exactly): bounds start from the
   * largest finite values, and only ordered comparisons move them, as in Spark's own statistics, so
   * NaN never becomes a bound.
   */
  private static final class Floating extends ColumnStatistics {
    private final boolean isFloat;

    Floating(boolean isFloat) {
      this.isFloat = isFloat;
    }

    @Override
    void gather(ColumnVector column, int rows, Object[] stats, int base) {
      double lower = isFloat ? Float.MAX_VALUE : Double.MAX_VALUE;
      double upper = -lower;
      int nulls = 0;
      boolean anyNull = column.hasNull();
      for (int i = 0; i < rows; i++) {
        if (anyNull && column.isNullAt(i)) {
          nulls++;
          continue;
        }
        double value = isFloat ? column.getFloat(i) : column.getDouble(i);
        if (value > upper) {
          upper = value;
        }
        if (value < lower) {
          lower = value;
        }
      }
      if (isFloat) {
        put(stats, base, (float) lower, (float) upper, nulls, rows);
      } else {
        put(stats, base, lower, upper, nulls, rows);
      }
    }
  }

  private static final class Strings extends ColumnStatistics {
    @Override
    void gather(ColumnVector column, int rows, Object[] stats, int base) {
      UTF8String lower = null;
      UTF8String upper = null;
      int nulls = 0;
      boolean anyNull = column.hasNull();
      for (int i = 0; i < rows; i++) {
        if (anyNull && column.isNullAt(i)) {
          nulls++;
          continue;
        }
        UTF8String value = column.getUTF8String(i); // borrows the column's bytes
        if (upper == null || compareBytes(value, upper) > 0) {
          upper = value.copy();
        }
        if (lower == null || compareBytes(value, lower) < 0) {
          lower = value.copy();
        }
      }
      put(stats, base, lower, upper, nulls, rows);
    }
  }

  /**
   * Spark's binary order of strings: unsigned bytes, then length. (UTF8String's own compareTo
   * refuses to run under spark.testing on Spark 4, and its replacement does not exist on 3.5.)
   */
  static int compareBytes(UTF8String a, UTF8String b) {
    int length = Math.min(a.numBytes(), b.numBytes());
    Object aBase = a.getBaseObject();
    Object bBase = b.getBaseObject();
    long aOffset = a.getBaseOffset();
    long bOffset = b.getBaseOffset();
    for (int i = 0; i < length; i++) {
      int x = Platform.getByte(aBase, aOffset + i) & 0xff;
      int y = Platform.getByte(bBase, bOffset + i) & 0xff;
      if (x != y) {
        return x - y;
      }
    }
    return a.numBytes() - b.numBytes();
  }

  private static final class Decimals extends ColumnStatistics {
    private final int precision;
    private final int scale;

    Decimals(DecimalType type) {
      this.precision = type.precision();
      this.scale = type.scale();
    }

    @Override
    void gather(ColumnVector column, int rows, Object[] stats, int base) {
      Decimal lower = null;
      Decimal upper = null;
      int nulls = 0;
      boolean anyNull = column.hasNull();
      for (int i = 0; i < rows; i++) {
        if (anyNull && column.isNullAt(i)) {
          nulls++;
          continue;
        }
        Decimal value = column.getDecimal(i, precision, scale);
        if (upper == null || value.compareTo(upper) > 0) {
          upper = value;
        }
        if (lower == null || value.compareTo(lower) < 0) {
          lower = value;
        }
      }
      put(stats, base, lower, upper, nulls, rows);
    }
  }

  /**
   * Decimals of precision 18 or less, read as the unscaled longs the cache keeps them as ({@link
   * CompactDecimals}): for one scale the order of the longs is the decimals' order. No bounds
   * without a value, as Spark's statistics have none.
   */
  private static final class UnscaledDecimals extends ColumnStatistics {
    private final int precision;
    private final int scale;

    UnscaledDecimals(DecimalType type) {
      this.precision = type.precision();
      this.scale = type.scale();
    }

    @Override
    void gather(ColumnVector column, int rows, Object[] stats, int base) {
      long lower = Long.MAX_VALUE;
      long upper = Long.MIN_VALUE;
      int nulls = 0;
      boolean anyNull = column.hasNull();
      for (int i = 0; i < rows; i++) {
        if (anyNull && column.isNullAt(i)) {
          nulls++;
          continue;
        }
        long value = column.getLong(i);
        upper = Math.max(value, upper);
        lower = Math.min(value, lower);
      }
      boolean any = nulls < rows;
      put(
          stats,
          base,
          any ? Decimal.createUnsafe(lower, precision, scale) : null,
          any ? Decimal.createUnsafe(upper, precision, scale) : null,
          nulls,
          rows);
    }
  }
}
