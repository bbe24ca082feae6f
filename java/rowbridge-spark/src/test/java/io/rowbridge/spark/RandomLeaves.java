package io.rowbridge.spark;

import static io.rowbridge.spark.RandomColumns.*;
import static io.rowbridge.spark.RandomTimeLeaves.*;

import io.rowbridge.shim.SparkTypeShim;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.spark.sql.util.ArrowUtils;

/** The flat leaf kinds of the differential suite: numbers, decimals, bytes, bool, null. */
final class RandomLeaves {
  private RandomLeaves() {}

  enum Layout {
    NULL,
    BIT,
    FIXED,
    VARIABLE
  }

  /** A leaf type: values are encoded to the bytes of one fixed-width slot or a byte string. */
  abstract static class Leaf extends Kind {
    final String name;
    final ArrowType inputType;
    final ArrowType readableType;

    Leaf(String name, ArrowType inputType, ArrowType readableType) {
      this.name = name;
      this.inputType = inputType;
      this.readableType = readableType;
    }

    @Override
    Field input(String fieldName, boolean nullable, Dictionaries dictionaries) {
      return new Field(fieldName, new FieldType(nullable, inputType, null), null);
    }

    @Override
    Field readable(String fieldName, boolean nullable) {
      return new Field(fieldName, new FieldType(nullable, readableType, null), null);
    }

    @Override
    boolean sparkReadsInput() {
      return inputType.equals(readableType);
    }

    @Override
    String describe() {
      return name;
    }

    abstract Layout layout(boolean readable);

    /** The slot bytes (FIXED), bit (BIT: a Boolean) or byte string (VARIABLE) of a value. */
    abstract Object encode(Object value, boolean readable);

    /** Width in bytes of a FIXED slot. */
    int width(boolean readable) {
      return fixedWidth(readable ? readableType : inputType);
    }

    @Override
    void fill(
        FieldVector vector,
        List<Object> values,
        boolean readable,
        Random random,
        Dictionaries dictionaries) {
      int n = values.size();
      switch (layout(readable)) {
        case NULL:
          ((NullVector) vector).setValueCount(n);
          return;
        case BIT:
          {
            BitVector bits = (BitVector) vector;
            bits.allocateNew(n);
            for (int i = 0; i < n; i++) {
              Object value = values.get(i);
              boolean bit =
                  value == null ? random.nextBoolean() : (Boolean) encode(value, readable);
              BitVectorHelper.setValidityBit(bits.getDataBuffer(), i, bit ? 1 : 0);
              if (value != null) {
                BitVectorHelper.setBit(bits.getValidityBuffer(), i);
              }
            }
            bits.setValueCount(n);
            return;
          }
        case FIXED:
          {
            BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
            int width = width(readable);
            fixed.allocateNew(n);
            byte[] garbage = new byte[width];
            for (int i = 0; i < n; i++) {
              Object value = values.get(i);
              byte[] bytes;
              if (value == null) {
                random.nextBytes(garbage); // null slots hold garbage: must never be read
                bytes = garbage;
              } else {
                bytes = (byte[]) encode(value, readable);
                BitVectorHelper.setBit(fixed.getValidityBuffer(), i);
              }
              fixed.getDataBuffer().setBytes((long) i * width, bytes);
            }
            fixed.setValueCount(n);
            return;
          }
        default:
          {
            vector.setInitialCapacity(n);
            vector.allocateNew();
            for (int i = 0; i < n; i++) {
              Object value = values.get(i);
              if (value == null) {
                // a null that still covers bytes, now and then
                byte[] garbage =
                    random.nextInt(4) == 0
                        ? randomBytes(random, 1 + random.nextInt(20))
                        : new byte[0];
                NewerKinds.setBytes(vector, i, garbage);
                BitVectorHelper.unsetBit(vector.getValidityBuffer(), i);
              } else {
                NewerKinds.setBytes(vector, i, (byte[]) encode(value, readable));
              }
            }
            vector.setValueCount(n);
          }
      }
    }
  }

  static int fixedWidth(ArrowType type) {
    switch (type.getTypeID()) {
      case Int:
        return ((ArrowType.Int) type).getBitWidth() / 8;
      case FloatingPoint:
        return ((ArrowType.FloatingPoint) type).getPrecision() == FloatingPointPrecision.SINGLE
            ? 4
            : 8;
      case Date:
        return ((ArrowType.Date) type).getUnit() == DateUnit.DAY ? 4 : 8;
      case Time:
        return ((ArrowType.Time) type).getBitWidth() / 8;
      case Timestamp:
      case Duration:
        return 8;
      case Interval:
        return ((ArrowType.Interval) type).getUnit() == IntervalUnit.YEAR_MONTH ? 4 : 16;
      case Decimal:
        return ((ArrowType.Decimal) type).getBitWidth() / 8;
      case FixedSizeBinary:
        return ((ArrowType.FixedSizeBinary) type).getByteWidth();
      default:
        throw new IllegalArgumentException(type.toString());
    }
  }

  static byte[] littleEndian(long value, int width) {
    byte[] out = new byte[width];
    for (int i = 0; i < width; i++) {
      out[i] = (byte) (value >>> (8 * Math.min(i, 7)));
      if (i >= 8) {
        out[i] = (byte) (value < 0 ? -1 : 0);
      }
    }
    return out;
  }

  static byte[] littleEndian(BigInteger value, int width) {
    byte[] big = value.toByteArray();
    byte[] out = new byte[width];
    byte fill = (byte) (value.signum() < 0 ? -1 : 0);
    for (int i = 0; i < width; i++) {
      int from = big.length - 1 - i;
      out[i] = from >= 0 ? big[from] : fill;
    }
    return out;
  }

  static byte[] randomBytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  /** A signed or unsigned integer; values are Longs (uint64: BigIntegers). */
  static final class IntegerLeaf extends Leaf {
    final int bits;
    final boolean signed;

    IntegerLeaf(int bits, boolean signed) {
      super(
          (signed ? "int" : "uint") + bits,
          new ArrowType.Int(bits, signed),
          signed
              ? new ArrowType.Int(bits, true)
              : bits == 64 ? new ArrowType.Decimal(20, 0, 128) : new ArrowType.Int(bits * 2, true));
      this.bits = bits;
      this.signed = signed;
    }

    @Override
    Layout layout(boolean readable) {
      return Layout.FIXED;
    }

    @Override
    Object random(Random random) {
      if (!signed && bits == 64) {
        if (random.nextInt(5) == 0) {
          BigInteger[] extremes = {
            BigInteger.ZERO,
            BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE),
            BigInteger.ONE.shiftLeft(63),
            BigInteger.ONE.shiftLeft(63).subtract(BigInteger.ONE)
          };
          return extremes[random.nextInt(extremes.length)];
        }
        return new BigInteger(64, random);
      }
      long min = signed ? -(1L << (bits - 1)) : 0;
      long max = signed ? (bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1) : (1L << bits) - 1;
      if (random.nextInt(5) == 0) {
        long[] extremes = {min, max, 0, 1, signed ? -1 : max - 1};
        return extremes[random.nextInt(extremes.length)];
      }
      if (bits == 64) {
        return random.nextLong();
      }
      return min + (long) (random.nextDouble() * ((double) max - min + 1));
    }

    @Override
    Object encode(Object value, boolean readable) {
      if (!signed && bits == 64) {
        BigInteger v = (BigInteger) value;
        return readable ? littleEndian(v, 16) : littleEndian(v.longValue(), 8);
      }
      long v = (Long) value;
      return littleEndian(v, readable && !signed ? bits / 4 : bits / 8);
    }
  }

  /** Floats and doubles as raw bits (Integer / Long), NaN payloads and -0.0 included. */
  static final class FloatLeaf extends Leaf {
    final boolean single;

    FloatLeaf(boolean single) {
      super(
          single ? "float32" : "float64",
          new ArrowType.FloatingPoint(
              single ? FloatingPointPrecision.SINGLE : FloatingPointPrecision.DOUBLE),
          new ArrowType.FloatingPoint(
              single ? FloatingPointPrecision.SINGLE : FloatingPointPrecision.DOUBLE));
      this.single = single;
    }

    @Override
    Layout layout(boolean readable) {
      return Layout.FIXED;
    }

    @Override
    Object random(Random random) {
      if (single) {
        if (random.nextInt(4) == 0) {
          int[] extremes = {
            0x7fc00000,
            0x7fc00001,
            0xffc00000,
            0x7f800001,
            0,
            0x80000000,
            0x7f800000,
            0xff800000,
            1,
            0x7f7fffff,
            0x00800000
          };
          return (long) extremes[random.nextInt(extremes.length)];
        }
        return (long) Float.floatToRawIntBits((float) ((random.nextDouble() - 0.5) * 1e6));
      }
      if (random.nextInt(4) == 0) {
        long[] extremes = {
          0x7ff8000000000000L,
          0x7ff8000000000001L,
          0xfff8000000000000L,
          0x7ff0000000000001L,
          0,
          0x8000000000000000L,
          0x7ff0000000000000L,
          0xfff0000000000000L,
          1,
          0x7fefffffffffffffL,
          0x0010000000000000L
        };
        return extremes[random.nextInt(extremes.length)];
      }
      return Double.doubleToRawLongBits((random.nextDouble() - 0.5) * 1e12);
    }

    @Override
    Object encode(Object value, boolean readable) {
      return littleEndian((Long) value, single ? 4 : 8);
    }
  }

  /** decimal128 or decimal256 with p <= 38; values are unscaled BigIntegers. */
  static final class DecimalLeaf extends Leaf {
    final int precision;
    final int bitWidth;

    DecimalLeaf(int precision, int scale, int bitWidth) {
      super(
          "decimal" + bitWidth + "(" + precision + "," + scale + ")",
          new ArrowType.Decimal(precision, scale, bitWidth),
          new ArrowType.Decimal(precision, scale, 128));
      this.precision = precision;
      this.bitWidth = bitWidth;
    }

    @Override
    Layout layout(boolean readable) {
      return Layout.FIXED;
    }

    @Override
    Object random(Random random) {
      BigInteger limit = BigInteger.TEN.pow(precision).subtract(BigInteger.ONE);
      if (random.nextInt(4) == 0) {
        BigInteger[] extremes = {
          limit,
          limit.negate(),
          BigInteger.ZERO,
          BigInteger.ONE,
          BigInteger.ONE.negate(),
          BigInteger.valueOf(127),
          BigInteger.valueOf(-128),
          BigInteger.valueOf(128),
          BigInteger.valueOf(-129)
        };
        BigInteger pick = extremes[random.nextInt(extremes.length)];
        return pick.abs().compareTo(limit) <= 0 ? pick : BigInteger.ZERO;
      }
      int digits = 1 + random.nextInt(precision);
      StringBuilder text = new StringBuilder(random.nextBoolean() ? "-" : "");
      for (int i = 0; i < digits; i++) {
        text.append((char) ('0' + random.nextInt(10)));
      }
      return new BigInteger(text.toString());
    }

    @Override
    Object encode(Object value, boolean readable) {
      return littleEndian((BigInteger) value, readable ? 16 : bitWidth / 8);
    }
  }

  /** utf8 / binary in their plain, large and view layouts, and fixed_size_binary (byte[]). */
  static final class BytesLeaf extends Leaf {
    final boolean text;
    final int fixedSize;

    BytesLeaf(String name, ArrowType input, boolean text, int fixedSize) {
      super(name, input, text ? new ArrowType.Utf8() : new ArrowType.Binary());
      this.text = text;
      this.fixedSize = fixedSize;
    }

    @Override
    boolean sparkReadsInput() {
      return inputType instanceof ArrowType.Utf8
          || inputType instanceof ArrowType.LargeUtf8
          || inputType instanceof ArrowType.Binary
          || inputType instanceof ArrowType.LargeBinary;
    }

    @Override
    Layout layout(boolean readable) {
      return !readable && fixedSize > 0 ? Layout.FIXED : Layout.VARIABLE;
    }

    @Override
    int width(boolean readable) {
      return fixedSize;
    }

    @Override
    Object random(Random random) {
      if (fixedSize > 0) {
        return randomBytes(random, fixedSize);
      }
      int pick = random.nextInt(20);
      int length =
          pick < 3
              ? 0
              : pick < 10
                  ? 1 + random.nextInt(12)
                  : pick < 19 ? 13 + random.nextInt(60) : 100 + random.nextInt(900);
      if (!text) {
        return randomBytes(random, length);
      }
      StringBuilder s = new StringBuilder();
      String[] pieces = {"a", "Z", "0", " ", "é", "中", "😀", "\u0000", "value_"};
      while (s.toString().getBytes(StandardCharsets.UTF_8).length < length) {
        s.append(
            random.nextInt(3) == 0
                ? pieces[random.nextInt(pieces.length)]
                : String.valueOf((char) ('a' + random.nextInt(26))));
      }
      return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    Object encode(Object value, boolean readable) {
      return value;
    }
  }

  /** The bool type (values: Booleans). */
  static final class BoolLeaf extends Leaf {
    BoolLeaf() {
      super("bool", new ArrowType.Bool(), new ArrowType.Bool());
    }

    @Override
    Layout layout(boolean readable) {
      return Layout.BIT;
    }

    @Override
    Object random(Random random) {
      return random.nextBoolean();
    }

    @Override
    Object encode(Object value, boolean readable) {
      return value;
    }
  }

  /** The null type: every value is null. */
  static final class NullLeaf extends Leaf {
    NullLeaf() {
      super("null", new ArrowType.Null(), new ArrowType.Null());
    }

    @Override
    boolean isNullType() {
      return true;
    }

    @Override
    Layout layout(boolean readable) {
      return Layout.NULL;
    }

    @Override
    Object random(Random random) {
      return null;
    }

    @Override
    Object encode(Object value, boolean readable) {
      return null;
    }
  }

  /** Every leaf kind, flat types of CONTRACTS.md §2. */
  /**
   * Whether Spark's Arrow reader takes interval[month_day_nano] as CalendarIntervalType (4.0 and
   * later; Spark 3.5 has no oracle for it).
   */
  static final boolean SPARK_READS_MONTH_DAY_NANO =
      sparkReads(new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO));

  private static boolean sparkReads(ArrowType type) {
    try {
      ArrowUtils.fromArrowType(type);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  static List<Leaf> leaves(Random random) {
    List<Leaf> all = new ArrayList<>();
    all.add(new NullLeaf());
    all.add(new BoolLeaf());
    for (int bits : new int[] {8, 16, 32, 64}) {
      all.add(new IntegerLeaf(bits, true));
      all.add(new IntegerLeaf(bits, false));
    }
    all.add(new FloatLeaf(true));
    all.add(new FloatLeaf(false));
    int p1 = 1 + random.nextInt(18);
    all.add(new DecimalLeaf(p1, random.nextInt(p1 + 1), 128));
    int p2 = 19 + random.nextInt(20);
    all.add(new DecimalLeaf(p2, random.nextInt(p2 + 1), 128));
    int p3 = 1 + random.nextInt(38);
    all.add(new DecimalLeaf(p3, random.nextInt(p3 + 1), 256));
    all.add(new DateLeaf(false));
    all.add(new DateLeaf(true));
    String[] zones = {null, "UTC", "America/Los_Angeles"};
    for (TimeUnit unit : TimeUnit.values()) {
      all.add(new TimestampLeaf(unit, zones[random.nextInt(zones.length)]));
      all.add(new DurationLeaf(unit));
    }
    all.add(new TimestampLeaf(TimeUnit.MICROSECOND, null));
    all.add(new TimestampLeaf(TimeUnit.MICROSECOND, "UTC"));
    all.add(new YearMonthLeaf());
    if (SPARK_READS_MONTH_DAY_NANO) {
      all.add(new MonthDayNanoLeaf());
    }
    if (SparkTypeShim.hasTime()) {
      all.add(new TimeLeaf(TimeUnit.values()[random.nextInt(TimeUnit.values().length)]));
    }
    all.add(new BytesLeaf("utf8", new ArrowType.Utf8(), true, 0));
    all.add(new BytesLeaf("utf8", new ArrowType.Utf8(), true, 0));
    all.add(new BytesLeaf("large_utf8", new ArrowType.LargeUtf8(), true, 0));
    all.add(new BytesLeaf("binary", new ArrowType.Binary(), false, 0));
    all.add(new BytesLeaf("large_binary", new ArrowType.LargeBinary(), false, 0));
    int width = new int[] {1, 4, 16, 33}[random.nextInt(4)];
    all.add(
        new BytesLeaf(
            "fixed_size_binary(" + width + ")",
            new ArrowType.FixedSizeBinary(width),
            false,
            width));
    NewerKinds.addViewLeaves(all); // not on Arrow Java 12
    return all;
  }
}
