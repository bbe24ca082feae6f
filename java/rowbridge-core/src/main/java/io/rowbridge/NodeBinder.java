package io.rowbridge;

import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.Types.MinorType;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.unsafe.Platform;

/**
 * Writes an Arrow Java vector's length, null count and buffer addresses into one ArrowArray node of
 * a tree (the converter's registered batch, or a tree Java allocated), once per batch, with no
 * allocation. A binder is built once from the node's Arrow field; {@link #bind} returns false when
 * a vector does not have that field's layout (the caller then takes the path that passes the
 * batch's own schema). Before any address is written, every buffer is checked to be large enough
 * for the vector's value count, so the native side never reads past an Arrow Java buffer.
 */
abstract class NodeBinder {
  /** Where the node is, for error messages: "column 'a'", "column 'a' child 'x'". */
  final String label;

  /** The Arrow field this node was built for (Arrow Java's in-memory form). */
  final Field field;

  /** The ArrowArray node. */
  final long array;

  /** The node's array of buffer pointers. */
  final long buffers;

  final NodeBinder[] children;

  /** A zeroed block standing in for absent buffers of empty arrays. */
  final long zeroes;

  /** The Arrow Java minor type of the node's vectors (of the indices when dictionary-encoded). */
  final MinorType minorType;

  NodeBinder(Context context, Field field, long array, String label, int childCount) {
    this.label = label;
    this.field = field;
    this.array = array;
    this.zeroes = context.zeroes;
    ArrowType type =
        field.getDictionary() != null ? field.getDictionary().getIndexType() : field.getType();
    this.minorType = org.apache.arrow.vector.types.Types.getMinorTypeForArrowType(type);
    int bufferCount = bufferCount();
    if (context.allocating()) {
      Platform.putLong(null, array + CStructs.ARRAY_N_BUFFERS, bufferCount);
      Platform.putLong(null, array + CStructs.ARRAY_N_CHILDREN, childCount);
      Platform.putLong(null, array + CStructs.ARRAY_RELEASE, context.release);
      if (bufferCount > 0) {
        Platform.putLong(
            null, array + CStructs.ARRAY_BUFFERS, context.arena.allocate(8L * bufferCount));
      }
      if (childCount > 0) {
        Platform.putLong(
            null, array + CStructs.ARRAY_CHILDREN, context.arena.allocate(8L * childCount));
      }
    } else {
      long nativeBuffers = Platform.getLong(null, array + CStructs.ARRAY_N_BUFFERS);
      long nativeChildren = Platform.getLong(null, array + CStructs.ARRAY_N_CHILDREN);
      if (nativeBuffers != bufferCount || nativeChildren != childCount) {
        throw new RowbridgeException(
            "rowbridge: internal error: the registered node of "
                + label
                + " has "
                + nativeBuffers
                + " buffers and "
                + nativeChildren
                + " children, expected "
                + bufferCount
                + " and "
                + childCount,
            RowbridgeException.EIO);
      }
    }
    this.buffers = Platform.getLong(null, array + CStructs.ARRAY_BUFFERS);
    this.children = new NodeBinder[childCount];
  }

  /** The number of C Data buffers of this node's layout. */
  abstract int bufferCount();

  /**
   * Writes {@code vector} into the node. Returns false when the vector's class or layout does not
   * match the field; throws RowbridgeException when a buffer is too small for its value count.
   */
  abstract boolean bind(ValueVector vector, DictionaryProvider dictionaries);

  /**
   * Writes {@code vector} into the node as {@link #bind} does; a vector of an Arrow Java extension
   * type is read as its storage vector (CONTRACTS.md §2).
   */
  final boolean bindValue(ValueVector vector, DictionaryProvider dictionaries) {
    if (vector instanceof ExtensionTypeVector<?> extension) {
      return bind(extension.getUnderlyingVector(), dictionaries);
    }
    return bind(vector, dictionaries);
  }

  /**
   * Writes a column given as primitives into the node, with the checks {@link #bind} makes. Returns
   * false when the column's layout is not this node's (another minor type, decimal precision or
   * scale, a dictionary where the field has none, or a layout only vectors are taken in); throws
   * RowbridgeException when a buffer is too small for the value count.
   */
  boolean bindBuffers(ColumnBuffers column) {
    return false;
  }

  /**
   * True when a flat column's minor type (and a decimal's precision and scale) are this node's.
   * Types whose minor type leaves out what the bytes mean (fixed-size binary's width, a duration's
   * unit, a 256-bit decimal's scale) are not taken as primitives.
   */
  final boolean sameFlatType(ColumnBuffers column) {
    if (column.minorType != minorType) {
      return false;
    }
    switch (minorType) {
      case DECIMAL:
        ArrowType.Decimal decimal = (ArrowType.Decimal) field.getType();
        return decimal.getPrecision() == column.precision && decimal.getScale() == column.scale;
      case FIXEDSIZEBINARY:
      case DURATION:
      case DECIMAL256:
        return false;
      default:
        return true;
    }
  }

  /** Frees what the binder allocated itself (not the tree's nodes). */
  void close() {
    for (NodeBinder child : children) {
      child.close();
    }
  }

  /**
   * True when {@code vector} and its children have the layout of this node's field (types,
   * dictionaries, children), without asking a nested vector for its field: Arrow Java builds a new
   * Field tree for a struct on every call (and a list compares its child's), so that check
   * allocated on every batch of new vectors. Nested nodes compare minor types and recurse into
   * their child vectors (a map's keysSorted flag, which changes no byte, is not compared); a leaf
   * compares its field, which leaf vectors keep. Allocates nothing.
   */
  boolean matchesVector(ValueVector vector) {
    Field actual = vector.getField();
    return actual == field || sameLayout(field, actual);
  }

  private static boolean sameLayout(Field expected, Field actual) {
    if (!expected.getType().equals(actual.getType())
        || !Objects.equals(expected.getDictionary(), actual.getDictionary())) {
      return false;
    }
    List<Field> a = expected.getChildren();
    List<Field> b = actual.getChildren();
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!sameLayout(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  /** The class of the last vector accepted: the next vector of that class is checked no more. */
  private Class<?> acceptedClass;

  /**
   * True when the vector is of this node's minor type and of the Java class {@code base} the binder
   * reads it through. A vector of the class last accepted costs one comparison.
   */
  final boolean accepts(ValueVector vector, Class<?> base) {
    Class<?> type = vector.getClass();
    if (type == acceptedClass) {
      return true;
    }
    if (vector.getMinorType() != minorType || !base.isAssignableFrom(type)) {
      return false;
    }
    acceptedClass = type;
    return true;
  }

  final void writeHeader(long length, long nullCount) {
    Platform.putLong(null, array + CStructs.ARRAY_LENGTH, length);
    Platform.putLong(null, array + CStructs.ARRAY_NULL_COUNT, nullCount);
    Platform.putLong(null, array + CStructs.ARRAY_OFFSET, 0);
  }

  final void putBuffer(int index, long address) {
    Platform.putLong(null, buffers + 8L * index, address);
  }

  /** The buffer's address, or the zero block when it has none (an empty array's buffer). */
  final long address(ArrowBuf buffer) {
    long address = buffer.memoryAddress();
    return address != 0 ? address : zeroes;
  }

  final void require(ArrowBuf buffer, long bytes, String what, int valueCount) {
    require(buffer.capacity(), bytes, what, valueCount);
  }

  final void require(long capacity, long bytes, String what, int valueCount) {
    if (bytes > 0 && capacity < bytes) {
      throw new RowbridgeException(
          "rowbridge: "
              + label
              + ": the "
              + what
              + " buffer holds "
              + capacity
              + " bytes but "
              + valueCount
              + " values need "
              + bytes);
    }
  }

  /**
   * Checks the validity bitmap, writes it as buffer 0 and the header, and returns the null count
   * (counted from the bitmap: Arrow Java's own count reads it through bounds-checked calls).
   */
  final long bindValidity(ArrowBuf validity, int valueCount) {
    return bindValidity(validity.memoryAddress(), validity.capacity(), valueCount);
  }

  /** The same for a bitmap given as its address (0: none) and capacity in bytes. */
  final long bindValidity(long validity, long capacity, int valueCount) {
    long bytes = (valueCount + 7L) / 8;
    require(capacity, bytes, "validity", valueCount);
    long address = valueCount == 0 || validity == 0 ? zeroes : validity;
    long nulls = valueCount - countSetBits(address, valueCount);
    writeHeader(valueCount, nulls);
    putBuffer(0, address);
    return nulls;
  }

  static long countSetBits(long address, int bits) {
    long count = 0;
    long words = bits >>> 6;
    for (long i = 0; i < words; i++) {
      count += Long.bitCount(Platform.getLong(null, address + 8 * i));
    }
    int rest = bits & 63;
    long position = words * 8;
    while (rest > 0) {
      int take = Math.min(8, rest);
      int value = Platform.getByte(null, address + position) & 0xff;
      count += Integer.bitCount(value & ((1 << take) - 1));
      rest -= take;
      position++;
    }
    return count;
  }

  /** Reads entry {@code index} of an offsets buffer of 4- or 8-byte offsets. */
  final long offsetAt(long offsets, int width, long index) {
    return width == 4
        ? Platform.getInt(null, offsets + 4 * index)
        : Platform.getLong(null, offsets + 8 * index);
  }

  /**
   * Binds a primitive column's validity: an absent bitmap (address 0) with a null count of 0 is
   * written as none (the C Data Interface allows it); any other is checked and counted.
   */
  final void bindValidity(ColumnBuffers column) {
    if (column.validityAddress == 0 && column.nullCount == 0) {
      writeHeader(column.valueCount, 0);
      putBuffer(0, 0);
    } else {
      bindValidity(column.validityAddress, column.validityCapacity, column.valueCount);
    }
  }

  /**
   * Checks an offsets buffer ({@code count + 1} entries of {@code width} bytes, running from first
   * to last within {@code limit}: the data buffer's bytes or the child's values, which {@code
   * limitText} and {@code unit} name in the error) and returns the address to write: the zero block
   * for an empty node.
   */
  final long checkedOffsets(
      ArrowBuf offsets, int width, int count, long limit, String limitText, String unit) {
    return checkedOffsets(
        address(offsets), offsets.capacity(), width, count, limit, limitText, unit);
  }

  /** The same for an offsets buffer given as its address and capacity. */
  final long checkedOffsets(
      long offsets,
      long offsetsCapacity,
      int width,
      int count,
      long limit,
      String limitText,
      String unit) {
    if (count == 0) {
      return zeroes;
    }
    require(offsetsCapacity, (count + 1L) * width, "offsets", count);
    long first = offsetAt(offsets, width, 0);
    long last = offsetAt(offsets, width, count);
    if (first < 0 || last < first || last > limit) {
      throw new RowbridgeException(
          "rowbridge: "
              + label
              + ": offsets run from "
              + first
              + " to "
              + last
              + " but "
              + limitText
              + limit
              + unit);
    }
    return offsets;
  }

  // ---- construction ----

  /** What building a tree needs: the arena of an allocated tree (null for the registered one). */
  static final class Context {
    final NativeArena arena;
    final long release;
    final long zeroes;

    /** The field of a dictionary-encoded field's values. */
    final UnaryOperator<Field> dictionaryValues;

    Context(NativeArena arena, long release, long zeroes, DictionaryProvider dictionaries) {
      this(arena, release, zeroes, SchemaExporter.valuesFrom(dictionaries));
    }

    Context(NativeArena arena, long release, long zeroes, UnaryOperator<Field> dictionaryValues) {
      this.arena = arena;
      this.release = release;
      this.zeroes = zeroes;
      this.dictionaryValues = dictionaryValues;
    }

    boolean allocating() {
      return arena != null;
    }

    /**
     * Allocates the root node of a batch of {@code columns} columns (a struct without validity) in
     * the arena; its children are then {@link #child}.
     */
    long root(int columns) {
      long root = arena.allocate(CStructs.ARRAY_SIZE);
      Platform.putLong(null, root + CStructs.ARRAY_N_BUFFERS, 1);
      Platform.putLong(null, root + CStructs.ARRAY_BUFFERS, arena.allocate(8));
      Platform.putLong(null, root + CStructs.ARRAY_N_CHILDREN, columns);
      Platform.putLong(null, root + CStructs.ARRAY_CHILDREN, arena.allocate(8L * columns));
      Platform.putLong(null, root + CStructs.ARRAY_RELEASE, release);
      return root;
    }

    /** A new node (allocating) or the registered node's child {@code index}. */
    long child(long parent, int index) {
      if (allocating()) {
        long node = arena.allocate(CStructs.ARRAY_SIZE);
        Platform.putLong(
            null, Platform.getLong(null, parent + CStructs.ARRAY_CHILDREN) + 8L * index, node);
        return node;
      }
      return Platform.getLong(
          null, Platform.getLong(null, parent + CStructs.ARRAY_CHILDREN) + 8L * index);
    }

    long dictionary(long parent) {
      if (allocating()) {
        long node = arena.allocate(CStructs.ARRAY_SIZE);
        Platform.putLong(null, parent + CStructs.ARRAY_DICTIONARY, node);
        return node;
      }
      return Platform.getLong(null, parent + CStructs.ARRAY_DICTIONARY);
    }
  }

  /** Builds the binder of {@code field} for the node at {@code array}. */
  static NodeBinder create(Context context, Field field, long array, String label) {
    if (field.getType() instanceof ArrowType.ExtensionType) {
      return create(context, ExtensionFields.storage(field), array, label);
    }
    if (field.getDictionary() != null) {
      return new NestedBinders.DictionaryBinder(context, field, array, label);
    }
    ArrowType type = field.getType();
    switch (type.getTypeID()) {
      case Null:
        return new LeafBinders.NullBinder(context, field, array, label);
      case Bool:
        return new LeafBinders.FixedBinder(context, field, array, label, 0);
      case Int:
      case FloatingPoint:
      case Date:
      case Time:
      case Timestamp:
      case Duration:
      case Interval:
      case Decimal:
      case FixedSizeBinary:
        return new LeafBinders.FixedBinder(context, field, array, label, byteWidth(type));
      case Utf8:
      case Binary:
        return new LeafBinders.VariableBinder(context, field, array, label, 4);
      case LargeUtf8:
      case LargeBinary:
        return new LeafBinders.VariableBinder(context, field, array, label, 8);
      case Struct:
        return new NestedBinders.StructBinder(context, field, array, label);
      case List:
      case Map:
        return new NestedBinders.ListBinder(context, field, array, label, 4);
      case LargeList:
        return new NestedBinders.ListBinder(context, field, array, label, 8);
      case FixedSizeList:
        return new NestedBinders.FixedSizeListBinder(context, field, array, label);
      default:
        NodeBinder newer = NewerLayouts.binder(context, field, array, label);
        if (newer != null) {
          return newer;
        }
        throw new RowbridgeException(
            "rowbridge: " + label + " has Arrow type " + type + ", which Spark rows cannot carry",
            RowbridgeException.ENOTSUP);
    }
  }

  static int byteWidth(ArrowType type) {
    switch (type.getTypeID()) {
      case Int:
        return ((ArrowType.Int) type).getBitWidth() / 8;
      case FloatingPoint:
        switch (((ArrowType.FloatingPoint) type).getPrecision()) {
          case HALF:
            return 2;
          case SINGLE:
            return 4;
          default:
            return 8;
        }
      case Date:
        return ((ArrowType.Date) type).getUnit() == org.apache.arrow.vector.types.DateUnit.DAY
            ? 4
            : 8;
      case Time:
        return ((ArrowType.Time) type).getBitWidth() / 8;
      case Timestamp:
      case Duration:
        return 8;
      case Interval:
        switch (((ArrowType.Interval) type).getUnit()) {
          case YEAR_MONTH:
            return 4;
          case DAY_TIME:
            return 8;
          default:
            return 16;
        }
      case Decimal:
        return ((ArrowType.Decimal) type).getBitWidth() / 8;
      case FixedSizeBinary:
        return ((ArrowType.FixedSizeBinary) type).getByteWidth();
      default:
        throw new IllegalArgumentException("not a fixed-width type: " + type);
    }
  }

  /** Builds the binder of the only child of a list-like node (its element, or a map's entries). */
  final void createElement(Context context) {
    Field element = field.getChildren().get(0);
    children[0] = create(context, element, context.child(array, 0), childLabel(label, element));
  }

  static String childLabel(String parent, Field child) {
    return parent + " child '" + child.getName() + "'";
  }
}
