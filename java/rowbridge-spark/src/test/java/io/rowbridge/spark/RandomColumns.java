package io.rowbridge.spark;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.ListViewVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.RunEndEncodedVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * The column types of the differential suite. Each kind gives the Arrow type rowbridge reads
 * (the input), the Arrow type Spark's ArrowColumnVector can read (the same when Spark reads the
 * input), random values (including extremes, empties and nulls), and writes a list of values
 * into either vector with Arrow Java. The Spark-readable vector is built from the same values by
 * the SPEC section 2 conversion (uint widened, date64 to days, units to microseconds with floor
 * division, dictionaries and run-end encodings decoded, large, view and fixed-size layouts to the
 * plain ones): normalised with Arrow Java, never with rowbridge.
 */
final class RandomColumns {
  private RandomColumns() {}

  /** One column type. Values: null, or a kind-specific object (see each kind). */
  abstract static class Kind {
    /** The input field (what rowbridge reads). */
    abstract Field input(String name, boolean nullable, Dictionaries dictionaries);

    /** The field Spark reads. */
    abstract Field readable(String name, boolean nullable);

    /** A random non-null value. */
    abstract Object random(Random random);

    /** Fills {@code vector} (created from input() or readable()) with values; sets the count. */
    abstract void fill(FieldVector vector, List<Object> values, boolean readable, Random random,
        Dictionaries dictionaries);

    abstract String describe();

    /** True when the Spark side can read the input vector itself. */
    boolean sparkReadsInput() {
      return false;
    }

    boolean hasCalendarInterval() {
      return false;
    }

    /** The null type cannot be a map key or hold a non-null value. */
    boolean isNullType() {
      return false;
    }
  }

  /** Dictionaries of the current batch, by id. */
  static final class Dictionaries {
    final BufferAllocator allocator;
    final DictionaryProvider.MapDictionaryProvider provider =
        new DictionaryProvider.MapDictionaryProvider();
    final Map<Long, Kind> kinds = new HashMap<>();
    long nextId;

    Dictionaries(BufferAllocator allocator) {
      this.allocator = allocator;
    }

    void close() {
      for (long id : provider.getDictionaryIds()) {
        provider.lookup(id).getVector().close();
      }
    }
  }

  // ---- leaves ----

  enum Layout { NULL, BIT, FIXED, VARIABLE }

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
    void fill(FieldVector vector, List<Object> values, boolean readable, Random random,
        Dictionaries dictionaries) {
      int n = values.size();
      switch (layout(readable)) {
        case NULL:
          ((NullVector) vector).setValueCount(n);
          return;
        case BIT: {
          BitVector bits = (BitVector) vector;
          bits.allocateNew(n);
          for (int i = 0; i < n; i++) {
            Object value = values.get(i);
            boolean bit = value == null ? random.nextBoolean() : (Boolean) encode(value, readable);
            BitVectorHelper.setValidityBit(bits.getDataBuffer(), i, bit ? 1 : 0);
            if (value != null) {
              BitVectorHelper.setBit(bits.getValidityBuffer(), i);
            }
          }
          bits.setValueCount(n);
          return;
        }
        case FIXED: {
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
        default: {
          VariableWidthFieldVector variable = (VariableWidthFieldVector) vector;
          vector.setInitialCapacity(n);
          vector.allocateNew();
          for (int i = 0; i < n; i++) {
            Object value = values.get(i);
            if (value == null) {
              // a null that still covers bytes, now and then
              byte[] garbage = random.nextInt(4) == 0 ? randomBytes(random, 1 + random.nextInt(20))
                  : new byte[0];
              variable.setSafe(i, garbage);
              BitVectorHelper.unsetBit(vector.getValidityBuffer(), i);
            } else {
              variable.setSafe(i, (byte[]) encode(value, readable));
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
        return ((ArrowType.FloatingPoint) type).getPrecision() == FloatingPointPrecision.SINGLE ? 4
            : 8;
      case Date:
        return ((ArrowType.Date) type).getUnit() == DateUnit.DAY ? 4 : 8;
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
      super((signed ? "int" : "uint") + bits, new ArrowType.Int(bits, signed),
          signed ? new ArrowType.Int(bits, true)
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
          BigInteger[] extremes = {BigInteger.ZERO, BigInteger.ONE.shiftLeft(64).subtract(
              BigInteger.ONE), BigInteger.ONE.shiftLeft(63), BigInteger.ONE.shiftLeft(63)
                  .subtract(BigInteger.ONE)};
          return extremes[random.nextInt(extremes.length)];
        }
        return new BigInteger(64, random);
      }
      long min = signed ? -(1L << (bits - 1)) : 0;
      long max = signed ? (bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1)
          : (1L << bits) - 1;
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
      super(single ? "float32" : "float64", new ArrowType.FloatingPoint(
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
          int[] extremes = {0x7fc00000, 0x7fc00001, 0xffc00000, 0x7f800001, 0, 0x80000000,
              0x7f800000, 0xff800000, 1, 0x7f7fffff, 0x00800000};
          return (long) extremes[random.nextInt(extremes.length)];
        }
        return (long) Float.floatToRawIntBits((float) ((random.nextDouble() - 0.5) * 1e6));
      }
      if (random.nextInt(4) == 0) {
        long[] extremes = {0x7ff8000000000000L, 0x7ff8000000000001L, 0xfff8000000000000L,
            0x7ff0000000000001L, 0, 0x8000000000000000L, 0x7ff0000000000000L,
            0xfff0000000000000L, 1, 0x7fefffffffffffffL, 0x0010000000000000L};
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
      super("decimal" + bitWidth + "(" + precision + "," + scale + ")",
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
        BigInteger[] extremes = {limit, limit.negate(), BigInteger.ZERO, BigInteger.ONE,
            BigInteger.ONE.negate(), BigInteger.valueOf(127), BigInteger.valueOf(-128),
            BigInteger.valueOf(128), BigInteger.valueOf(-129)};
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

  /** date32 (values: Long days) or date64 (values: Long milliseconds). */
  static final class DateLeaf extends Leaf {
    final boolean millis;

    DateLeaf(boolean millis) {
      super(millis ? "date64" : "date32", new ArrowType.Date(millis ? DateUnit.MILLISECOND
          : DateUnit.DAY), new ArrowType.Date(DateUnit.DAY));
      this.millis = millis;
    }

    @Override
    Layout layout(boolean readable) {
      return Layout.FIXED;
    }

    @Override
    Object random(Random random) {
      long days = random.nextInt(5) == 0
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
    return random.nextBoolean() ? random.nextLong() % limit
        : (long) ((random.nextDouble() - 0.5) * 4e9) * (factor < 0 ? 1 : 1_000_000L / Math.max(1, factor));
  }

  /** timestamp[unit, tz] (values: Longs in the unit). */
  static final class TimestampLeaf extends Leaf {
    final TimeUnit unit;

    TimestampLeaf(TimeUnit unit, String zone) {
      super("timestamp[" + unit + "," + zone + "]", new ArrowType.Timestamp(unit, zone),
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
      super("duration[" + unit + "]", new ArrowType.Duration(unit),
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
      super("interval[year_month]", new ArrowType.Interval(IntervalUnit.YEAR_MONTH),
          new ArrowType.Interval(IntervalUnit.YEAR_MONTH));
    }

    @Override
    Layout layout(boolean readable) {
      return Layout.FIXED;
    }

    @Override
    Object random(Random random) {
      return random.nextInt(5) == 0 ? (long) new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 0,
          -1}[random.nextInt(4)] : (long) (random.nextInt(20000) - 10000);
    }

    @Override
    Object encode(Object value, boolean readable) {
      return littleEndian((Long) value, 4);
    }
  }

  /**
   * interval[month_day_nano] (values: long[] {months, days, nanos}). Spark's reader truncates
   * nanoseconds toward zero and SPEC 2 floors, so the Spark side gets nanos floored to whole
   * microseconds: Spark then reads exactly the SPEC value.
   */
  static final class MonthDayNanoLeaf extends Leaf {
    MonthDayNanoLeaf() {
      super("interval[month_day_nano]", new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO),
          new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO));
    }

    @Override
    boolean sparkReadsInput() {
      return false;
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
      return new long[] {random.nextInt(2000) - 1000, random.nextInt(2000) - 1000,
          Math.max(nanos, Long.MIN_VALUE + 1000)};
    }

    @Override
    Object encode(Object value, boolean readable) {
      long[] v = (long[]) value;
      long nanos = readable ? Math.floorDiv(v[2], 1000) * 1000 : v[2];
      byte[] out = new byte[16];
      System.arraycopy(littleEndian(v[0], 4), 0, out, 0, 4);
      System.arraycopy(littleEndian(v[1], 4), 0, out, 4, 4);
      System.arraycopy(littleEndian(nanos, 8), 0, out, 8, 8);
      return out;
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
      return inputType instanceof ArrowType.Utf8 || inputType instanceof ArrowType.LargeUtf8
          || inputType instanceof ArrowType.Binary || inputType instanceof ArrowType.LargeBinary;
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
      int length = pick < 3 ? 0 : pick < 10 ? 1 + random.nextInt(12) : pick < 19
          ? 13 + random.nextInt(60) : 100 + random.nextInt(900);
      if (!text) {
        return randomBytes(random, length);
      }
      StringBuilder s = new StringBuilder();
      String[] pieces = {"a", "Z", "0", " ", "é", "中", "😀", "\u0000", "value_"};
      while (s.toString().getBytes(StandardCharsets.UTF_8).length < length) {
        s.append(random.nextInt(3) == 0 ? pieces[random.nextInt(pieces.length)]
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

  /** Every leaf kind, flat types of SPEC section 2. */
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
    all.add(new MonthDayNanoLeaf());
    all.add(new BytesLeaf("utf8", new ArrowType.Utf8(), true, 0));
    all.add(new BytesLeaf("utf8", new ArrowType.Utf8(), true, 0));
    all.add(new BytesLeaf("large_utf8", new ArrowType.LargeUtf8(), true, 0));
    all.add(new BytesLeaf("utf8_view", new ArrowType.Utf8View(), true, 0));
    all.add(new BytesLeaf("binary", new ArrowType.Binary(), false, 0));
    all.add(new BytesLeaf("large_binary", new ArrowType.LargeBinary(), false, 0));
    all.add(new BytesLeaf("binary_view", new ArrowType.BinaryView(), false, 0));
    int width = new int[] {1, 4, 16, 33}[random.nextInt(4)];
    all.add(new BytesLeaf("fixed_size_binary(" + width + ")", new ArrowType.FixedSizeBinary(width),
        false, width));
    return all;
  }

  // ---- encodings of a leaf: dictionary and run-end ----

  /** dictionary<index, leaf>: values are the leaf's; the Spark side gets them decoded. */
  static final class DictionaryKind extends Kind {
    final ArrowType.Int indexType;
    final Leaf values;
    long id = -1;

    DictionaryKind(ArrowType.Int indexType, Leaf values) {
      this.indexType = indexType;
      this.values = values;
    }

    @Override
    String describe() {
      return "dictionary<" + (indexType.getIsSigned() ? "int" : "uint") + indexType.getBitWidth()
          + ", " + values.describe() + ">";
    }

    @Override
    boolean hasCalendarInterval() {
      return values.hasCalendarInterval();
    }

    @Override
    Field input(String name, boolean nullable, Dictionaries dictionaries) {
      if (id < 0) {
        id = dictionaries.nextId++;
      }
      return new Field(name, new FieldType(nullable, indexType,
          new DictionaryEncoding(id, false, indexType)), null);
    }

    @Override
    Field readable(String name, boolean nullable) {
      return values.readable(name, nullable);
    }

    private List<Object> pool;

    /** A value from a pool small enough for the index type (so values repeat, too). */
    @Override
    Object random(Random random) {
      if (pool == null) {
        long max = indexType.getIsSigned() ? (1L << (indexType.getBitWidth() - 1)) - 1
            : (1L << indexType.getBitWidth()) - 1;
        int size = 1 + random.nextInt((int) Math.min(max - 1, 300));
        pool = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
          pool.add(values.random(random));
        }
      }
      return pool.get(random.nextInt(pool.size()));
    }

    @Override
    void fill(FieldVector vector, List<Object> rows, boolean readable, Random random,
        Dictionaries dictionaries) {
      if (readable) {
        values.fill(vector, rows, true, random, dictionaries);
        return;
      }
      // The dictionary: the distinct values (by encoded bytes), shuffled, plus a null entry.
      List<Object> entries = new ArrayList<>();
      Map<String, Integer> positions = new HashMap<>();
      int[] index = new int[rows.size()];
      for (int i = 0; i < rows.size(); i++) {
        Object value = rows.get(i);
        if (value == null) {
          index[i] = -1;
          continue;
        }
        String key = java.util.Arrays.toString(bytesOf(values.encode(value, false)));
        Integer at = positions.get(key);
        if (at == null) {
          at = entries.size();
          positions.put(key, at);
          entries.add(value);
        }
        index[i] = at;
      }
      int nullEntry = entries.size();
      entries.add(null);
      Field valueField = values.input("dictionary", true, dictionaries);
      FieldVector dictionaryVector = valueField.createVector(dictionaries.allocator);
      values.fill(dictionaryVector, entries, false, random, dictionaries);
      dictionaries.provider.put(new Dictionary(dictionaryVector,
          new DictionaryEncoding(id, false, indexType)));
      dictionaries.kinds.put(id, this);
      BaseFixedWidthVector indices = (BaseFixedWidthVector) vector;
      int width = indexType.getBitWidth() / 8;
      indices.allocateNew(rows.size());
      for (int i = 0; i < rows.size(); i++) {
        int at = index[i];
        boolean nullIndex = at < 0 && random.nextBoolean();
        if (at < 0 && !nullIndex) {
          at = nullEntry; // a valid index to a null dictionary value
        }
        indices.getDataBuffer().setBytes((long) i * width, littleEndian(nullIndex
            ? random.nextInt(1000) : at, width));
        if (!nullIndex) {
          BitVectorHelper.setBit(indices.getValidityBuffer(), i);
        }
      }
      indices.setValueCount(rows.size());
    }
  }

  static byte[] bytesOf(Object encoded) {
    if (encoded instanceof byte[]) {
      return (byte[]) encoded;
    }
    return new byte[] {(byte) (Boolean.TRUE.equals(encoded) ? 1 : 0)};
  }

  /** run_end_encoded<run end, leaf>: values come in runs; the Spark side gets them expanded. */
  static final class RunEndKind extends Kind {
    final int runEndBits;
    final Leaf values;

    RunEndKind(int runEndBits, Leaf values) {
      this.runEndBits = runEndBits;
      this.values = values;
    }

    @Override
    String describe() {
      return "run_end_encoded<int" + runEndBits + ", " + values.describe() + ">";
    }

    @Override
    boolean hasCalendarInterval() {
      return values.hasCalendarInterval();
    }

    @Override
    Field input(String name, boolean nullable, Dictionaries dictionaries) {
      return new Field(name, new FieldType(nullable, new ArrowType.RunEndEncoded(), null),
          List.of(new Field("run_ends", new FieldType(false, new ArrowType.Int(runEndBits, true),
              null), null), values.input("values", true, dictionaries)));
    }

    @Override
    Field readable(String name, boolean nullable) {
      return values.readable(name, nullable);
    }

    @Override
    Object random(Random random) {
      return values.random(random);
    }

    @Override
    void fill(FieldVector vector, List<Object> rows, boolean readable, Random random,
        Dictionaries dictionaries) {
      if (readable) {
        values.fill(vector, rows, true, random, dictionaries);
        return;
      }
      RunEndEncodedVector encoded = (RunEndEncodedVector) vector;
      List<Object> runValues = new ArrayList<>();
      List<Long> runEnds = new ArrayList<>();
      for (int i = 0; i < rows.size(); i++) {
        Object value = rows.get(i);
        boolean same = i > 0 && java.util.Objects.deepEquals(value, rows.get(i - 1));
        if (same) {
          runEnds.set(runEnds.size() - 1, (long) i + 1);
        } else {
          runValues.add(value);
          runEnds.add((long) i + 1);
        }
      }
      BaseFixedWidthVector ends = (BaseFixedWidthVector) encoded.getRunEndsVector();
      int width = runEndBits / 8;
      ends.allocateNew(runEnds.size());
      for (int i = 0; i < runEnds.size(); i++) {
        ends.getDataBuffer().setBytes((long) i * width, littleEndian(runEnds.get(i), width));
        BitVectorHelper.setBit(ends.getValidityBuffer(), i);
      }
      ends.setValueCount(runEnds.size());
      values.fill(encoded.getValuesVector(), runValues, false, random, dictionaries);
      encoded.setValueCount(rows.size());
    }

    /** Repeats values so that runs appear (called on the row values before filling). */
    static void makeRuns(List<Object> rows, Random random) {
      for (int i = 1; i < rows.size(); i++) {
        if (random.nextInt(3) != 0) {
          rows.set(i, rows.get(i - 1));
        }
      }
    }
  }

  // ---- nested ----

  /** struct<children> (values: Object[] of the children's values). */
  static final class StructKind extends Kind {
    final List<Kind> children;
    final boolean[] nullable;

    StructKind(List<Kind> children, boolean[] nullable) {
      this.children = children;
      this.nullable = nullable;
    }

    @Override
    String describe() {
      StringBuilder s = new StringBuilder("struct<");
      for (int i = 0; i < children.size(); i++) {
        s.append(i == 0 ? "" : ", ").append("f").append(i).append(nullable[i] ? "" : " not null")
            .append(": ").append(children.get(i).describe());
      }
      return s.append(">").toString();
    }

    @Override
    boolean sparkReadsInput() {
      return children.stream().allMatch(Kind::sparkReadsInput);
    }

    @Override
    boolean hasCalendarInterval() {
      return children.stream().anyMatch(Kind::hasCalendarInterval);
    }

    @Override
    Field input(String name, boolean nullableField, Dictionaries dictionaries) {
      List<Field> fields = new ArrayList<>();
      for (int i = 0; i < children.size(); i++) {
        fields.add(children.get(i).input("f" + i, nullable[i], dictionaries));
      }
      return new Field(name, new FieldType(nullableField, new ArrowType.Struct(), null), fields);
    }

    @Override
    Field readable(String name, boolean nullableField) {
      List<Field> fields = new ArrayList<>();
      for (int i = 0; i < children.size(); i++) {
        fields.add(children.get(i).readable("f" + i, nullable[i]));
      }
      return new Field(name, new FieldType(nullableField, new ArrowType.Struct(), null), fields);
    }

    @Override
    Object random(Random random) {
      Object[] values = new Object[children.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = RandomColumns.value(children.get(i), nullable[i], random);
      }
      return values;
    }

    @Override
    void fill(FieldVector vector, List<Object> rows, boolean readable, Random random,
        Dictionaries dictionaries) {
      StructVector struct = (StructVector) vector;
      struct.setInitialCapacity(rows.size());
      struct.allocateNew();
      for (int c = 0; c < children.size(); c++) {
        List<Object> column = new ArrayList<>(rows.size());
        for (Object row : rows) {
          // under a null struct, children hold anything their field allows
          column.add(row == null ? RandomColumns.value(children.get(c), nullable[c], random)
              : ((Object[]) row)[c]);
        }
        children.get(c).fill((FieldVector) struct.getChildByOrdinal(c), column, readable, random,
            dictionaries);
      }
      for (int i = 0; i < rows.size(); i++) {
        if (rows.get(i) == null) {
          struct.setNull(i);
        } else {
          struct.setIndexDefined(i);
        }
      }
      struct.setValueCount(rows.size());
    }
  }

  enum ListLayout { LIST, LARGE_LIST, FIXED_SIZE_LIST, LIST_VIEW }

  /** list<element> in four layouts (values: List<Object>); Spark reads a plain list. */
  static final class ListKind extends Kind {
    final Kind element;
    final boolean elementNullable;
    final ListLayout layout;
    final int fixedSize;

    ListKind(Kind element, boolean elementNullable, ListLayout layout, int fixedSize) {
      this.element = element;
      this.elementNullable = elementNullable;
      this.layout = layout;
      this.fixedSize = fixedSize;
    }

    @Override
    String describe() {
      String name = layout == ListLayout.FIXED_SIZE_LIST ? "fixed_size_list[" + fixedSize + "]"
          : layout.name().toLowerCase(java.util.Locale.ROOT);
      return name + "<" + element.describe() + (elementNullable ? "" : " not null") + ">";
    }

    @Override
    boolean sparkReadsInput() {
      return layout == ListLayout.LIST && element.sparkReadsInput();
    }

    @Override
    boolean hasCalendarInterval() {
      return element.hasCalendarInterval();
    }

    ArrowType type(boolean readable) {
      if (readable) {
        return new ArrowType.List();
      }
      switch (layout) {
        case LARGE_LIST:
          return new ArrowType.LargeList();
        case FIXED_SIZE_LIST:
          return new ArrowType.FixedSizeList(fixedSize);
        case LIST_VIEW:
          return new ArrowType.ListView();
        default:
          return new ArrowType.List();
      }
    }

    @Override
    Field input(String name, boolean nullable, Dictionaries dictionaries) {
      return new Field(name, new FieldType(nullable, type(false), null),
          List.of(element.input("element", elementNullable, dictionaries)));
    }

    @Override
    Field readable(String name, boolean nullable) {
      return new Field(name, new FieldType(nullable, type(true), null),
          List.of(element.readable("element", elementNullable)));
    }

    @Override
    Object random(Random random) {
      int size = layout == ListLayout.FIXED_SIZE_LIST ? fixedSize : random.nextInt(9);
      List<Object> values = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        values.add(RandomColumns.value(element, elementNullable, random));
      }
      return values;
    }

    @Override
    @SuppressWarnings("unchecked")
    void fill(FieldVector vector, List<Object> rows, boolean readable, Random random,
        Dictionaries dictionaries) {
      int n = rows.size();
      List<Object> flat = new ArrayList<>();
      ListLayout target = readable ? ListLayout.LIST : layout;
      for (Object row : rows) {
        if (row != null) {
          flat.addAll((List<Object>) row);
        } else if (target == ListLayout.FIXED_SIZE_LIST) {
          for (int k = 0; k < fixedSize; k++) {
            flat.add(RandomColumns.value(element, elementNullable, random));
          }
        }
      }
      vector.setInitialCapacity(n);
      vector.allocateNew();
      switch (target) {
        case LIST: {
          ListVector list = (ListVector) vector;
          element.fill(list.getDataVector(), flat, readable, random, dictionaries);
          for (int i = 0; i < n; i++) {
            if (rows.get(i) == null) {
              list.setNull(i);
            } else {
              list.startNewValue(i);
              list.endValue(i, ((List<Object>) rows.get(i)).size());
            }
          }
          break;
        }
        case LARGE_LIST: {
          LargeListVector list = (LargeListVector) vector;
          element.fill(list.getDataVector(), flat, readable, random, dictionaries);
          for (int i = 0; i < n; i++) {
            if (rows.get(i) == null) {
              list.setNull(i);
            } else {
              list.startNewValue(i);
              list.endValue(i, ((List<Object>) rows.get(i)).size());
            }
          }
          break;
        }
        case FIXED_SIZE_LIST: {
          FixedSizeListVector list = (FixedSizeListVector) vector;
          element.fill(list.getDataVector(), flat, readable, random, dictionaries);
          for (int i = 0; i < n; i++) {
            if (rows.get(i) == null) {
              list.setNull(i);
            } else {
              list.startNewValue(i);
            }
          }
          break;
        }
        default: {
          ListViewVector list = (ListViewVector) vector;
          element.fill(list.getDataVector(), flat, readable, random, dictionaries);
          int offset = 0;
          for (int i = 0; i < n; i++) {
            if (rows.get(i) == null) {
              list.setNull(i);
            } else {
              int size = ((List<Object>) rows.get(i)).size();
              list.setOffset(i, offset);
              list.setSize(i, size);
              list.setValidity(i, 1);
              offset += size;
            }
          }
        }
      }
      vector.setValueCount(n);
    }
  }

  /** map<key, value> (values: List<Object[]> of {key, value}; keys never null). */
  static final class MapKind extends Kind {
    final Leaf key;
    final Kind value;
    final boolean valueNullable;

    MapKind(Leaf key, Kind value, boolean valueNullable) {
      this.key = key;
      this.value = value;
      this.valueNullable = valueNullable;
    }

    @Override
    String describe() {
      return "map<" + key.describe() + ", " + value.describe() + (valueNullable ? "" : " not null")
          + ">";
    }

    @Override
    boolean sparkReadsInput() {
      return key.sparkReadsInput() && value.sparkReadsInput();
    }

    @Override
    boolean hasCalendarInterval() {
      return key.hasCalendarInterval() || value.hasCalendarInterval();
    }

    private Field map(String name, boolean nullable, Field keyField, Field valueField) {
      Field entries = new Field(MapVector.DATA_VECTOR_NAME, new FieldType(false,
          new ArrowType.Struct(), null), List.of(keyField, valueField));
      return new Field(name, new FieldType(nullable, new ArrowType.Map(false), null),
          List.of(entries));
    }

    @Override
    Field input(String name, boolean nullable, Dictionaries dictionaries) {
      return map(name, nullable, key.input(MapVector.KEY_NAME, false, dictionaries),
          value.input(MapVector.VALUE_NAME, valueNullable, dictionaries));
    }

    @Override
    Field readable(String name, boolean nullable) {
      return map(name, nullable, key.readable(MapVector.KEY_NAME, false),
          value.readable(MapVector.VALUE_NAME, valueNullable));
    }

    @Override
    Object random(Random random) {
      int size = random.nextInt(9);
      List<Object[]> entries = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        entries.add(new Object[] {key.random(random),
            RandomColumns.value(value, valueNullable, random)});
      }
      return entries;
    }

    @Override
    @SuppressWarnings("unchecked")
    void fill(FieldVector vector, List<Object> rows, boolean readable, Random random,
        Dictionaries dictionaries) {
      MapVector map = (MapVector) vector;
      map.setInitialCapacity(rows.size());
      map.allocateNew();
      StructVector entries = (StructVector) map.getDataVector();
      List<Object> keys = new ArrayList<>();
      List<Object> values = new ArrayList<>();
      for (Object row : rows) {
        if (row != null) {
          for (Object[] entry : (List<Object[]>) row) {
            keys.add(entry[0]);
            values.add(entry[1]);
          }
        }
      }
      entries.setInitialCapacity(keys.size());
      entries.allocateNew();
      key.fill((FieldVector) entries.getChildByOrdinal(0), keys, readable, random, dictionaries);
      value.fill((FieldVector) entries.getChildByOrdinal(1), values, readable, random,
          dictionaries);
      for (int i = 0; i < keys.size(); i++) {
        entries.setIndexDefined(i);
      }
      entries.setValueCount(keys.size());
      for (int i = 0; i < rows.size(); i++) {
        if (rows.get(i) == null) {
          map.setNull(i);
        } else {
          map.startNewValue(i);
          map.endValue(i, ((List<Object[]>) rows.get(i)).size());
        }
      }
      map.setValueCount(rows.size());
    }
  }

  /** A value of {@code kind} for a field of this nullability: null with probability 1/8. */
  static Object value(Kind kind, boolean nullable, Random random) {
    if (kind.isNullType() || (nullable && random.nextInt(8) == 0)) {
      return nullable || kind.isNullType() ? null : kind.random(random);
    }
    return kind.random(random);
  }

  /** A random kind: a leaf, or (depth permitting) a struct, list or map of kinds. */
  static Kind randomKind(Random random, int depth, boolean nested, boolean encodings) {
    List<Leaf> leaves = leaves(random);
    int pick = random.nextInt(100);
    if (nested && depth > 0 && pick < 30) {
      int which = random.nextInt(3);
      if (which == 0) {
        int count = 1 + random.nextInt(4);
        List<Kind> children = new ArrayList<>();
        boolean[] nullable = new boolean[count];
        for (int i = 0; i < count; i++) {
          children.add(randomKind(random, depth - 1, true, false));
          nullable[i] = children.get(i).isNullType() || random.nextInt(4) != 0;
        }
        return new StructKind(children, nullable);
      }
      if (which == 1) {
        Kind element = randomKind(random, depth - 1, true, false);
        ListLayout layout = ListLayout.values()[random.nextInt(ListLayout.values().length)];
        return new ListKind(element, element.isNullType() || random.nextInt(4) != 0, layout,
            1 + random.nextInt(4));
      }
      Leaf key;
      do {
        key = leaves.get(random.nextInt(leaves.size()));
      } while (key.isNullType());
      Kind value = randomKind(random, depth - 1, true, false);
      return new MapKind(key, value, value.isNullType() || random.nextInt(4) != 0);
    }
    Leaf leaf = leaves.get(random.nextInt(leaves.size()));
    if (encodings && !leaf.isNullType() && pick >= 88) {
      if (pick < 94) {
        int[] bits = {8, 16, 32, 64};
        int b = bits[random.nextInt(bits.length)];
        return new DictionaryKind(new ArrowType.Int(b, b == 8 ? random.nextBoolean() : true),
            leaf);
      }
      return new RunEndKind(new int[] {16, 32, 64}[random.nextInt(3)], leaf);
    }
    return leaf;
  }
}
