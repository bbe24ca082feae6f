package io.rowbridge.comet;

import io.rowbridge.ColumnBuffers;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * How a Comet column vector class is read, resolved once per class ({@link #of}) by name, with no
 * compile-time dependency on Comet: a {@code CometPlainVector} is its Arrow Java vector; a {@code
 * CometDictionaryVector} is its public final fields {@code indices} (a CometPlainVector) and {@code
 * values} (a {@code CometDictionary}, whose {@code getValueVector()} is the dictionary); a {@code
 * CometListVector}, {@code CometStructVector} or {@code CometMapVector} is its Arrow Java vector
 * tree, read by {@link NestedVectorAccess} with the vector's dictionary provider (its field {@code
 * dictionaryProvider}); any other class is not read. A CometPlainVector of fixed-size binary values
 * is read through a {@link FixedSizeBinaryColumn}, as text when Comet flags it as a UUID
 * (CometDecodedVector's protected field {@code isUuid}, false when the class has none).
 */
final class CometVectorAccess {
  static final String PLAIN = "org.apache.comet.vector.CometPlainVector";
  static final String DICTIONARY = "org.apache.comet.vector.CometDictionaryVector";
  static final java.util.Set<String> NESTED =
      java.util.Set.of(
          "org.apache.comet.vector.CometListVector",
          "org.apache.comet.vector.CometStructVector",
          "org.apache.comet.vector.CometMapVector");

  private static final ClassValue<CometVectorAccess> BY_CLASS =
      new ClassValue<>() {
        @Override
        protected CometVectorAccess computeValue(Class<?> type) {
          return new CometVectorAccess(type);
        }
      };

  private static final CometVectorAccess NONE = new CometVectorAccess(null);

  /** True for CometPlainVector, CometDictionaryVector and the nested vectors. */
  final boolean readable;

  private final boolean dictionary;

  private final boolean nested;

  /**
   * A nested vector's dictionary provider: its field {@code dictionaryProvider} (package-private;
   * its getDictionaryProvider() is not implemented).
   */
  private final MethodHandle provider;

  /** CometPlainVector: getValueVector() and numNulls() (CometDecodedVector's, counted once). */
  private final MethodHandle valueVector;

  private final MethodHandle numNulls;

  /** CometPlainVector: its isUuid flag (null when Comet's classes have none). */
  private final MethodHandle uuid;

  /** CometDictionaryVector: its fields indices and values, and CometDictionary.getValueVector. */
  private final MethodHandle indices;

  private final MethodHandle values;
  private final MethodHandle dictionaryVector;

  private CometVectorAccess(Class<?> type) {
    String name = type == null ? "" : type.getName();
    this.dictionary = name.equals(DICTIONARY);
    this.nested = NESTED.contains(name);
    this.readable = dictionary || nested || name.equals(PLAIN);
    if (!readable) {
      valueVector = numNulls = indices = values = dictionaryVector = provider = uuid = null;
      return;
    }
    if (nested) {
      valueVector = ArrowVectorAccess.handle(type, "getValueVector", Object.class);
      provider = declaredField(type, "dictionaryProvider", Object.class);
      if (provider == null) {
        throw new IllegalStateException(
            "rowbridge: " + type.getName() + " has no field dictionaryProvider");
      }
      numNulls = indices = values = dictionaryVector = uuid = null;
      return;
    }
    provider = null;
    uuid = dictionary ? null : declaredField(type, "isUuid", boolean.class);
    if (dictionary) {
      indices = field(type, "indices");
      values = field(type, "values");
      Class<?> dictionaryType = fieldType(type, "values");
      dictionaryVector = ArrowVectorAccess.handle(dictionaryType, "getValueVector", Object.class);
      valueVector = numNulls = null;
    } else {
      valueVector = ArrowVectorAccess.handle(type, "getValueVector", Object.class);
      numNulls = ArrowVectorAccess.handle(type, "numNulls", int.class);
      indices = values = dictionaryVector = null;
    }
  }

  /** The access of {@code type} (resolved on first use, then shared). */
  static CometVectorAccess of(Class<?> type) {
    return type.getName().startsWith("org.apache.comet.vector.") ? BY_CLASS.get(type) : NONE;
  }

  /**
   * Fills {@code into} (and, for a dictionary-encoded vector, {@code dictionaryInto}, which becomes
   * {@code into.dictionary}) from the Comet vector {@code column}; false when it is not readable as
   * primitives. A plain fixed-size binary vector is read through {@code fixed} (not read when
   * null).
   */
  boolean read(
      Object column,
      ColumnBuffers into,
      ColumnBuffers dictionaryInto,
      FixedSizeBinaryColumn fixed) {
    if (!readable) {
      return false;
    }
    try {
      if (nested) {
        Object vector = valueVector.invokeExact(column);
        Object dictionaries = provider.invokeExact(column);
        return NestedVectorAccess.read(vector, dictionaries, into);
      }
      into.children = null;
      if (!dictionary) {
        into.dictionary = null;
        return readPlain(this, column, into, fixed);
      }
      Object plain = indices.invokeExact(column);
      Object dictionaryValues = dictionaryVector.invokeExact(values.invokeExact(column));
      CometVectorAccess plainAccess = of(plain.getClass());
      if (plainAccess.dictionary || plainAccess.nested || !plainAccess.readable) {
        return false;
      }
      if (!readPlain(plainAccess, plain, into, null)) {
        return false;
      }
      into.dictionary = dictionaryInto;
      return ArrowVectorAccess.of(dictionaryValues.getClass())
          .read(dictionaryValues, ArrowVectorAccess.nullCount(dictionaryValues), dictionaryInto);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("rowbridge: reading " + column.getClass().getName(), e);
    }
  }

  /**
   * A CometPlainVector's Arrow vector into {@code into}; a fixed-size binary one through {@code
   * fixed} (not read when null), as text when the vector is flagged as a UUID.
   */
  private static boolean readPlain(
      CometVectorAccess access, Object column, ColumnBuffers into, FixedSizeBinaryColumn fixed)
      throws Throwable {
    Object vector = access.valueVector.invokeExact(column);
    int nulls = (int) access.numNulls.invokeExact(column);
    ArrowVectorAccess arrow = ArrowVectorAccess.of(vector.getClass());
    if (arrow.read(vector, nulls, into)) {
      return true;
    }
    if (fixed == null) {
      return false;
    }
    boolean uuid = access.uuid != null && (boolean) access.uuid.invokeExact(column);
    return arrow.readFixedSizeBinary(vector, nulls, uuid, fixed, into);
  }

  private static MethodHandle field(Class<?> type, String name) {
    try {
      return MethodHandles.publicLookup()
          .unreflectGetter(type.getField(name))
          .asType(MethodType.methodType(Object.class, Object.class));
    } catch (NoSuchFieldException | IllegalAccessException e) {
      throw new IllegalStateException(
          "rowbridge: " + type.getName() + " has no public field " + name, e);
    }
  }

  /**
   * A getter of the field {@code name} that {@code type} or a superclass declares, whatever its
   * access, typed ({@code Object}){@code returns}; null when none declares it.
   */
  private static MethodHandle declaredField(Class<?> type, String name, Class<?> returns) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      java.lang.reflect.Field field;
      try {
        field = c.getDeclaredField(name);
      } catch (NoSuchFieldException e) {
        continue;
      }
      try {
        field.setAccessible(true);
        return MethodHandles.lookup()
            .unreflectGetter(field)
            .asType(MethodType.methodType(returns, Object.class));
      } catch (IllegalAccessException | RuntimeException e) {
        throw new IllegalStateException(
            "rowbridge: " + type.getName() + "'s field " + name + " is not readable", e);
      }
    }
    return null;
  }

  private static Class<?> fieldType(Class<?> type, String name) {
    try {
      return type.getField(name).getType();
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(
          "rowbridge: " + type.getName() + " has no public field " + name, e);
    }
  }
}
