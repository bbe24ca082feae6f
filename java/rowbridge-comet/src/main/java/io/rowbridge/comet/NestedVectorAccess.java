package io.rowbridge.comet;

import io.rowbridge.ColumnBuffers;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import org.apache.arrow.vector.types.Types.MinorType;

/**
 * Reads a tree of Arrow Java vectors of Comet's relocated Arrow (the value vector of a {@code
 * CometListVector}, {@code CometStructVector} or {@code CometMapVector}) into {@link ColumnBuffers}
 * with children: structs, lists, large lists and maps at any depth, over the flat leaves {@link
 * ArrowVectorAccess} reads; a child whose field is dictionary-encoded is read as its indices, with
 * the values from the Comet vector's dictionary provider. Method handles are resolved once per
 * class; the addresses read belong to the vectors (see {@link ColumnBuffers}).
 */
final class NestedVectorAccess {
  private NestedVectorAccess() {}

  /** The handles of one nested vector class. */
  private static final class Nested {
    final MethodHandle valueCount;
    final MethodHandle validity;
    final MethodHandle offsets;
    final MethodHandle children;
    final MethodHandle address;
    final MethodHandle capacity;

    Nested(Class<?> type) {
      valueCount = ArrowVectorAccess.handle(type, "getValueCount", int.class);
      validity = ArrowVectorAccess.handle(type, "getValidityBuffer", Object.class);
      offsets = ArrowVectorAccess.optional(type, "getOffsetBuffer", Object.class);
      children = ArrowVectorAccess.handle(type, "getChildrenFromFields", Object.class);
      Class<?> buffer = ArrowVectorAccess.method(type, "getValidityBuffer").getReturnType();
      address = ArrowVectorAccess.handle(buffer, "memoryAddress", long.class);
      capacity = ArrowVectorAccess.handle(buffer, "capacity", long.class);
    }
  }

  private static final ClassValue<Nested> NESTED =
      new ClassValue<>() {
        @Override
        protected Nested computeValue(Class<?> type) {
          return new Nested(type);
        }
      };

  private static final ClassValue<MethodHandle> MINOR_TYPE = handles("getMinorType", Object.class);
  private static final ClassValue<MethodHandle> FIELD = handles("getField", Object.class);
  private static final ClassValue<MethodHandle> DICTIONARY = handles("getDictionary", Object.class);
  private static final ClassValue<MethodHandle> ID = handles("getId", long.class);
  private static final ClassValue<MethodHandle> VECTOR = handles("getVector", Object.class);

  private static final ClassValue<MethodHandle> LOOKUP =
      new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
          try {
            return MethodHandles.publicLookup()
                .unreflect(type.getMethod("lookup", long.class))
                .asType(MethodType.methodType(Object.class, Object.class, long.class));
          } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalStateException(
                "rowbridge: " + type.getName() + " has no public lookup(long)", e);
          }
        }
      };

  private static ClassValue<MethodHandle> handles(String name, Class<?> returns) {
    return new ClassValue<>() {
      @Override
      protected MethodHandle computeValue(Class<?> type) {
        return ArrowVectorAccess.handle(type, name, returns);
      }
    };
  }

  /**
   * Fills {@code into} (and its children, made or reused) from the top-level {@code vector} of a
   * Comet nested vector whose dictionaries {@code provider} holds (may be null); false when a node
   * is of a layout rowbridge does not read as primitives (the batch then takes Spark's path).
   */
  static boolean read(Object vector, Object provider, ColumnBuffers into) {
    try {
      into.dictionary = null;
      return readNode(vector, provider, into);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("rowbridge: reading " + vector.getClass().getName(), e);
    }
  }

  /** A child node: its dictionary first, when its field has one. */
  private static boolean readChild(Object vector, Object provider, ColumnBuffers into)
      throws Throwable {
    Object field = FIELD.get(vector.getClass()).invokeExact(vector);
    Object encoding = DICTIONARY.get(field.getClass()).invokeExact(field);
    if (encoding == null) {
      into.dictionary = null;
      return readNode(vector, provider, into);
    }
    if (provider == null) {
      return false;
    }
    long id = (long) ID.get(encoding.getClass()).invokeExact(encoding);
    Object dictionary = LOOKUP.get(provider.getClass()).invokeExact(provider, id);
    if (dictionary == null) {
      return false;
    }
    Object values = VECTOR.get(dictionary.getClass()).invokeExact(dictionary);
    ColumnBuffers valuesInto = into.dictionary != null ? into.dictionary : new ColumnBuffers();
    valuesInto.children = null;
    valuesInto.dictionary = null;
    if (!ArrowVectorAccess.of(values.getClass())
        .read(values, ArrowVectorAccess.nullCount(values), valuesInto)) {
      return false;
    }
    if (!ArrowVectorAccess.of(vector.getClass())
        .read(vector, ArrowVectorAccess.nullCount(vector), into)) {
      return false;
    }
    into.dictionary = valuesInto;
    return into.minorType == MinorType.INT;
  }

  private static boolean readNode(Object vector, Object provider, ColumnBuffers into)
      throws Throwable {
    Class<?> type = vector.getClass();
    Object relocated = MINOR_TYPE.get(type).invokeExact(vector);
    MinorType minor = ArrowVectorAccess.unshaded((Enum<?>) relocated);
    if (minor == null) {
      return false;
    }
    if (ArrowVectorAccess.FLAT.contains(minor)) {
      into.children = null;
      return ArrowVectorAccess.of(type).read(vector, ArrowVectorAccess.nullCount(vector), into);
    }
    boolean list =
        minor == MinorType.LIST || minor == MinorType.LARGELIST || minor == MinorType.MAP;
    if (!list && minor != MinorType.STRUCT) {
      return false;
    }
    Nested nested = NESTED.get(type);
    if (list && nested.offsets == null) {
      return false;
    }
    Object children = nested.children.invokeExact(vector);
    List<?> kids = (List<?>) children;
    if (list && kids.size() != 1) {
      return false;
    }
    into.layout(minor, (int) nested.valueCount.invokeExact(vector), 0);
    into.nullCount = ArrowVectorAccess.nullCount(vector);
    Object validity = nested.validity.invokeExact(vector);
    Object offsets = list ? nested.offsets.invokeExact(vector) : null;
    into.buffers(
        (long) nested.address.invokeExact(validity),
        (long) nested.capacity.invokeExact(validity),
        offsets == null ? 0 : (long) nested.address.invokeExact(offsets),
        offsets == null ? 0 : (long) nested.capacity.invokeExact(offsets),
        0,
        0);
    if (into.children == null || into.children.length != kids.size()) {
      into.children = new ColumnBuffers[kids.size()];
      for (int i = 0; i < into.children.length; i++) {
        into.children[i] = new ColumnBuffers();
      }
    }
    for (int i = 0; i < into.children.length; i++) {
      if (!readChild(kids.get(i), provider, into.children[i])) {
        return false;
      }
    }
    return true;
  }
}
