package io.rowbridge.comet;

import io.rowbridge.ColumnBuffers;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.EnumSet;
import java.util.Set;
import org.apache.arrow.vector.types.Types.MinorType;

/**
 * Reads an Arrow Java vector of a class rowbridge cannot name (Comet's relocated {@code
 * org.apache.comet.shaded.arrow.vector.*}) into a {@link ColumnBuffers}, through method handles
 * resolved once per vector class ({@link #of}); each read then calls them with primitives and enums
 * only. The addresses read belong to the vector (see {@link ColumnBuffers}).
 */
final class ArrowVectorAccess {
  /** The minor types read as primitives: the flat layouts the converter binds. */
  static final Set<MinorType> FLAT =
      EnumSet.of(
          MinorType.BIT,
          MinorType.TINYINT,
          MinorType.SMALLINT,
          MinorType.INT,
          MinorType.BIGINT,
          MinorType.FLOAT4,
          MinorType.FLOAT8,
          MinorType.DATEDAY,
          MinorType.TIMESTAMPMICRO,
          MinorType.TIMESTAMPMICROTZ,
          MinorType.DECIMAL,
          MinorType.VARCHAR,
          MinorType.VARBINARY,
          MinorType.LARGEVARCHAR,
          MinorType.LARGEVARBINARY);

  private static final ClassValue<ArrowVectorAccess> BY_CLASS =
      new ClassValue<>() {
        @Override
        protected ArrowVectorAccess computeValue(Class<?> type) {
          return new ArrowVectorAccess(type);
        }
      };

  private final MethodHandle valueCount;
  private final MethodHandle minorType;
  private final MethodHandle validity;
  private final MethodHandle data;

  /** Null for vectors without an offsets buffer getter of their own. */
  private final MethodHandle offsets;

  /** Null for vectors other than decimal ones. */
  private final MethodHandle precision;

  private final MethodHandle scale;

  /** Null for vectors other than fixed-size binary ones. */
  private final MethodHandle byteWidth;

  /** The relocated ArrowBuf's memoryAddress() and capacity(). */
  private final MethodHandle address;

  private final MethodHandle capacity;

  private ArrowVectorAccess(Class<?> type) {
    valueCount = handle(type, "getValueCount", int.class);
    minorType = handle(type, "getMinorType", Object.class);
    validity = handle(type, "getValidityBuffer", Object.class);
    data = handle(type, "getDataBuffer", Object.class);
    offsets = optional(type, "getOffsetBuffer", Object.class);
    precision = optional(type, "getPrecision", int.class);
    scale = optional(type, "getScale", int.class);
    byteWidth = optional(type, "getByteWidth", int.class);
    Class<?> buffer = method(type, "getDataBuffer").getReturnType();
    address = handle(buffer, "memoryAddress", long.class);
    capacity = handle(buffer, "capacity", long.class);
  }

  /** The access of {@code type}'s vectors (resolved on first use, then shared). */
  static ArrowVectorAccess of(Class<?> type) {
    return BY_CLASS.get(type);
  }

  /**
   * Fills {@code into} from {@code vector} with the given null count; false when its minor type is
   * not one of {@link #FLAT} (nothing is then read from its buffers).
   */
  boolean read(Object vector, int nullCount, ColumnBuffers into) {
    try {
      Object relocated = minorType.invokeExact(vector);
      MinorType type = unshaded((Enum<?>) relocated);
      if (type == null || !FLAT.contains(type)) {
        return false;
      }
      boolean variable =
          type == MinorType.VARCHAR
              || type == MinorType.VARBINARY
              || type == MinorType.LARGEVARCHAR
              || type == MinorType.LARGEVARBINARY;
      if (type == MinorType.DECIMAL && precision == null) {
        return false;
      }
      into.layout(type, (int) valueCount.invokeExact(vector), nullCount);
      if (type == MinorType.DECIMAL) {
        into.precision = (int) precision.invokeExact(vector);
        into.scale = (int) scale.invokeExact(vector);
      }
      Object validityBuffer = validity.invokeExact(vector);
      Object dataBuffer = data.invokeExact(vector);
      Object offsetsBuffer = variable ? offsets.invokeExact(vector) : null;
      into.buffers(
          address(validityBuffer),
          capacity(validityBuffer),
          address(offsetsBuffer),
          capacity(offsetsBuffer),
          address(dataBuffer),
          capacity(dataBuffer));
      return true;
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("rowbridge: reading " + vector.getClass().getName(), e);
    }
  }

  /**
   * Describes a FIXEDSIZEBINARY {@code vector} in {@code into} through {@code column} (which lays
   * it out as Spark reads it, as text when {@code uuid}); false when it is of another minor type or
   * {@code column} does not read it.
   */
  boolean readFixedSizeBinary(
      Object vector,
      int nullCount,
      boolean uuid,
      FixedSizeBinaryColumn column,
      ColumnBuffers into) {
    try {
      Object relocated = minorType.invokeExact(vector);
      MinorType type = unshaded((Enum<?>) relocated);
      if (type != MinorType.FIXEDSIZEBINARY || byteWidth == null) {
        return false;
      }
      Object validityBuffer = validity.invokeExact(vector);
      Object dataBuffer = data.invokeExact(vector);
      return column.describe(
          into,
          (int) valueCount.invokeExact(vector),
          nullCount,
          (int) byteWidth.invokeExact(vector),
          uuid,
          address(validityBuffer),
          capacity(validityBuffer),
          address(dataBuffer),
          capacity(dataBuffer));
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("rowbridge: reading " + vector.getClass().getName(), e);
    }
  }

  /** The vector's own null count (for dictionaries' values, which Comet does not count). */
  static int nullCount(Object vector) {
    try {
      return (int) NULL_COUNT.get(vector.getClass()).invokeExact(vector);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("rowbridge: reading " + vector.getClass().getName(), e);
    }
  }

  private static final ClassValue<MethodHandle> NULL_COUNT =
      new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
          return handle(type, "getNullCount", int.class);
        }
      };

  private long address(Object buffer) throws Throwable {
    return buffer == null ? 0 : (long) address.invokeExact(buffer);
  }

  private long capacity(Object buffer) throws Throwable {
    return buffer == null ? 0 : (long) capacity.invokeExact(buffer);
  }

  /** Arrow Java's own MinorType of a relocated one (the same enum, by name); null if none. */
  static MinorType unshaded(Enum<?> relocated) {
    try {
      return MinorType.valueOf(relocated.name());
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  static Method method(Class<?> type, String name) {
    try {
      return type.getMethod(name);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(
          "rowbridge: " + type.getName() + " has no public " + name + "()", e);
    }
  }

  /** A handle of {@code type}'s public no-argument method, typed (Object) returns. */
  static MethodHandle handle(Class<?> type, String name, Class<?> returns) {
    try {
      return MethodHandles.publicLookup()
          .unreflect(method(type, name))
          .asType(MethodType.methodType(returns, Object.class));
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(
          "rowbridge: " + type.getName() + "." + name + "() is not accessible", e);
    }
  }

  /** The same, or null when the class has no such method. */
  static MethodHandle optional(Class<?> type, String name, Class<?> returns) {
    try {
      type.getMethod(name);
    } catch (NoSuchMethodException e) {
      return null;
    }
    return handle(type, name, returns);
  }
}
