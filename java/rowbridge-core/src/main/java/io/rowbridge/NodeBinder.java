package io.rowbridge;

import java.util.List;
import java.util.Objects;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.AbstractStructVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.LargeListViewVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.ListViewVector;
import org.apache.arrow.vector.complex.RunEndEncodedVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.Types.MinorType;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.unsafe.Platform;

/**
 * Writes an Arrow Java vector's length, null count and buffer addresses into one ArrowArray node
 * of a tree (the converter's registered batch, or a tree Java allocated), once per batch, with
 * no allocation. A binder is built once from the node's Arrow field; {@link #bind} returns false
 * when a vector does not have that field's layout (the caller then takes the path that passes
 * the batch's own schema). Before any address is written, every buffer is checked to be large
 * enough for the vector's value count, so the native side never reads past an Arrow Java buffer.
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
  private final MinorType minorType;

  NodeBinder(Context context, Field field, long array, String label, int childCount) {
    this.label = label;
    this.field = field;
    this.array = array;
    this.zeroes = context.zeroes;
    ArrowType type = field.getDictionary() != null ? field.getDictionary().getIndexType()
        : field.getType();
    this.minorType = org.apache.arrow.vector.types.Types.getMinorTypeForArrowType(type);
    int bufferCount = bufferCount();
    if (context.allocating()) {
      Platform.putLong(null, array + CStructs.ARRAY_N_BUFFERS, bufferCount);
      Platform.putLong(null, array + CStructs.ARRAY_N_CHILDREN, childCount);
      Platform.putLong(null, array + CStructs.ARRAY_RELEASE, context.release);
      if (bufferCount > 0) {
        Platform.putLong(null, array + CStructs.ARRAY_BUFFERS,
            context.arena.allocate(8L * bufferCount));
      }
      if (childCount > 0) {
        Platform.putLong(null, array + CStructs.ARRAY_CHILDREN,
            context.arena.allocate(8L * childCount));
      }
    } else {
      long nativeBuffers = Platform.getLong(null, array + CStructs.ARRAY_N_BUFFERS);
      long nativeChildren = Platform.getLong(null, array + CStructs.ARRAY_N_CHILDREN);
      if (nativeBuffers != bufferCount || nativeChildren != childCount) {
        throw new RowbridgeException("rowbridge: internal error: the registered node of " + label
            + " has " + nativeBuffers + " buffers and " + nativeChildren + " children, expected "
            + bufferCount + " and " + childCount, RowbridgeException.EIO);
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

  /** Frees what the binder allocated itself (not the tree's nodes). */
  void close() {
    for (NodeBinder child : children) {
      child.close();
    }
  }

  /** True when a vector's field (and those of its children) has the layout of this node. */
  final boolean matches(Field actual) {
    return sameLayout(field, actual);
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
   * True when the vector is of this node's minor type and of the Java class {@code base} the
   * binder reads it through. A vector of the class last accepted costs one comparison.
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
    if (bytes > 0 && buffer.capacity() < bytes) {
      throw new RowbridgeException("rowbridge: " + label + ": the " + what + " buffer holds "
          + buffer.capacity() + " bytes but " + valueCount + " values need " + bytes);
    }
  }

  /**
   * Checks the validity bitmap, writes it as buffer 0 and the header, and returns the null count
   * (counted from the bitmap: Arrow Java's own count reads it through bounds-checked calls).
   */
  final long bindValidity(ArrowBuf validity, int valueCount) {
    long bytes = (valueCount + 7L) / 8;
    require(validity, bytes, "validity", valueCount);
    long address = valueCount == 0 ? zeroes : address(validity);
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
    return width == 4 ? Platform.getInt(null, offsets + 4 * index)
        : Platform.getLong(null, offsets + 8 * index);
  }

  // ---- construction ----

  /** What building a tree needs: the arena of an allocated tree (null for the registered one). */
  static final class Context {
    final NativeArena arena;
    final long release;
    final long zeroes;
    final DictionaryProvider dictionaries;

    Context(NativeArena arena, long release, long zeroes, DictionaryProvider dictionaries) {
      this.arena = arena;
      this.release = release;
      this.zeroes = zeroes;
      this.dictionaries = dictionaries;
    }

    boolean allocating() {
      return arena != null;
    }

    /** A new node (allocating) or the registered node's child {@code index}. */
    long child(long parent, int index) {
      if (allocating()) {
        long node = arena.allocate(CStructs.ARRAY_SIZE);
        Platform.putLong(null, Platform.getLong(null, parent + CStructs.ARRAY_CHILDREN) + 8L * index,
            node);
        return node;
      }
      return Platform.getLong(null, Platform.getLong(null, parent + CStructs.ARRAY_CHILDREN)
          + 8L * index);
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
    if (field.getDictionary() != null) {
      return new DictionaryBinder(context, field, array, label);
    }
    ArrowType type = field.getType();
    switch (type.getTypeID()) {
      case Null:
        return new NullBinder(context, field, array, label);
      case Bool:
        return new FixedBinder(context, field, array, label, 0);
      case Int:
      case FloatingPoint:
      case Date:
      case Time:
      case Timestamp:
      case Duration:
      case Interval:
      case Decimal:
      case FixedSizeBinary:
        return new FixedBinder(context, field, array, label, byteWidth(type));
      case Utf8:
      case Binary:
        return new VariableBinder(context, field, array, label, 4);
      case LargeUtf8:
      case LargeBinary:
        return new VariableBinder(context, field, array, label, 8);
      case Utf8View:
      case BinaryView:
        return new ViewBinder(context, field, array, label);
      case Struct:
        return new StructBinder(context, field, array, label);
      case List:
      case Map:
        return new ListBinder(context, field, array, label, 4);
      case LargeList:
        return new ListBinder(context, field, array, label, 8);
      case FixedSizeList:
        return new FixedSizeListBinder(context, field, array, label);
      case ListView:
        return new ListViewBinder(context, field, array, label, 4);
      case LargeListView:
        return new ListViewBinder(context, field, array, label, 8);
      case RunEndEncoded:
        return new RunEndBinder(context, field, array, label);
      default:
        throw new RowbridgeException("rowbridge: " + label + " has Arrow type " + type
            + ", which Spark rows cannot carry", RowbridgeException.ENOTSUP);
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
        return ((ArrowType.Date) type).getUnit() == org.apache.arrow.vector.types.DateUnit.DAY ? 4
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

  static String childLabel(String parent, Field child) {
    return parent + " child '" + child.getName() + "'";
  }

  // ---- one binder per layout ----

  /** The null type: no buffers, every value null. */
  static final class NullBinder extends NodeBinder {
    NullBinder(Context context, Field field, long array, String label) {
      super(context, field, array, label, 0);
    }

    @Override
    int bufferCount() {
      return 0;
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      if (!accepts(vector, org.apache.arrow.vector.NullVector.class)) {
        return false;
      }
      int count = vector.getValueCount();
      writeHeader(count, count);
      return true;
    }
  }

  /** Validity plus fixed-width values (width 0: bits, as Arrow's boolean). */
  static final class FixedBinder extends NodeBinder {
    private final int width;

    FixedBinder(Context context, Field field, long array, String label, int width) {
      super(context, field, array, label, 0);
      this.width = width;
    }

    @Override
    int bufferCount() {
      return 2;
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      if (!accepts(vector, BaseFixedWidthVector.class)) {
        return false;
      }
      BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
      int count = fixed.getValueCount();
      ArrowBuf data = fixed.getDataBuffer();
      require(data, width == 0 ? (count + 7L) / 8 : (long) count * width, "data", count);
      bindValidity(fixed.getValidityBuffer(), count);
      putBuffer(1, count == 0 ? zeroes : address(data));
      return true;
    }
  }

  /** Validity, 4- or 8-byte offsets, and bytes (utf8, binary and their large forms). */
  static final class VariableBinder extends NodeBinder {
    private final int offsetWidth;

    VariableBinder(Context context, Field field, long array, String label, int offsetWidth) {
      super(context, field, array, label, 0);
      this.offsetWidth = offsetWidth;
    }

    @Override
    int bufferCount() {
      return 3;
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      int count;
      ArrowBuf offsetBuffer;
      ArrowBuf data;
      ArrowBuf validity;
      if (offsetWidth == 4) {
        if (!accepts(vector, BaseVariableWidthVector.class)) {
          return false;
        }
        BaseVariableWidthVector variable = (BaseVariableWidthVector) vector;
        count = variable.getValueCount();
        offsetBuffer = variable.getOffsetBuffer();
        data = variable.getDataBuffer();
        validity = variable.getValidityBuffer();
      } else {
        if (!accepts(vector, BaseLargeVariableWidthVector.class)) {
          return false;
        }
        BaseLargeVariableWidthVector variable = (BaseLargeVariableWidthVector) vector;
        count = variable.getValueCount();
        offsetBuffer = variable.getOffsetBuffer();
        data = variable.getDataBuffer();
        validity = variable.getValidityBuffer();
      }
      long offsets = zeroes;
      if (count > 0) {
        require(offsetBuffer, (count + 1L) * offsetWidth, "offsets", count);
        offsets = address(offsetBuffer);
        long first = offsetAt(offsets, offsetWidth, 0);
        long last = offsetAt(offsets, offsetWidth, count);
        if (first < 0 || last < first || last > data.capacity()) {
          throw new RowbridgeException("rowbridge: " + label + ": offsets run from " + first
              + " to " + last + " but the data buffer holds " + data.capacity() + " bytes");
        }
      }
      bindValidity(validity, count);
      putBuffer(1, offsets);
      putBuffer(2, address(data));
      return true;
    }
  }

  /**
   * Validity, 16-byte views, the variadic data buffers and their sizes. The node's buffer array
   * is Java's own (the registered node has room for no data buffer), grown as needed.
   */
  static final class ViewBinder extends NodeBinder {
    private final NativeArena arena = new NativeArena();
    private long pointers;
    private long sizes;
    private int capacity = -1;

    ViewBinder(Context context, Field field, long array, String label) {
      super(context, field, array, label, 0);
    }

    @Override
    int bufferCount() {
      return 3;
    }

    @Override
    void close() {
      arena.close();
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      if (!accepts(vector, BaseVariableWidthViewVector.class)) {
        return false;
      }
      BaseVariableWidthViewVector views = (BaseVariableWidthViewVector) vector;
      int count = views.getValueCount();
      ArrowBuf viewBuffer = views.getDataBuffer();
      require(viewBuffer, 16L * count, "views", count);
      List<ArrowBuf> data = views.getDataBuffers();
      int variadic = data.size();
      if (variadic > capacity) {
        capacity = Math.max(variadic, 2 * capacity);
        pointers = arena.allocate(8L * (capacity + 3));
        sizes = arena.allocate(8L * Math.max(capacity, 1));
      }
      long nulls = bindValidity(views.getValidityBuffer(), count);
      long validity = Platform.getLong(null, buffers);
      Platform.putLong(null, pointers, validity);
      Platform.putLong(null, pointers + 8, count == 0 ? zeroes : address(viewBuffer));
      for (int i = 0; i < variadic; i++) {
        ArrowBuf buffer = data.get(i);
        Platform.putLong(null, pointers + 8L * (2 + i), address(buffer));
        Platform.putLong(null, sizes + 8L * i, buffer.capacity());
      }
      Platform.putLong(null, pointers + 8L * (2 + variadic), sizes);
      Platform.putLong(null, array + CStructs.ARRAY_N_BUFFERS, 3 + variadic);
      Platform.putLong(null, array + CStructs.ARRAY_BUFFERS, pointers);
      Platform.putLong(null, array + CStructs.ARRAY_NULL_COUNT, nulls);
      return true;
    }
  }

  /** Validity plus one child per field. */
  static final class StructBinder extends NodeBinder {
    StructBinder(Context context, Field field, long array, String label) {
      super(context, field, array, label, field.getChildren().size());
      List<Field> fields = field.getChildren();
      for (int i = 0; i < children.length; i++) {
        children[i] = create(context, fields.get(i), context.child(array, i),
            childLabel(label, fields.get(i)));
      }
    }

    @Override
    int bufferCount() {
      return 1;
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      if (!accepts(vector, AbstractStructVector.class)) {
        return false;
      }
      AbstractStructVector struct = (AbstractStructVector) vector;
      if (struct.size() != children.length) {
        return false;
      }
      int count = struct.getValueCount();
      if (struct instanceof StructVector) {
        bindValidity(((StructVector) struct).getValidityBuffer(), count);
      } else {
        writeHeader(count, 0);
        putBuffer(0, 0);
      }
      for (int i = 0; i < children.length; i++) {
        ValueVector child = struct.getChildByOrdinal(i);
        if (child.getValueCount() < count) {
          throw new RowbridgeException("rowbridge: " + children[i].label + " has "
              + child.getValueCount() + " values but its struct has " + count);
        }
        if (!children[i].bind(child, dictionaries)) {
          return false;
        }
      }
      return true;
    }
  }

  /** Validity, 4- or 8-byte offsets and the element child (list, large list, map). */
  static final class ListBinder extends NodeBinder {
    private final int offsetWidth;

    ListBinder(Context context, Field field, long array, String label, int offsetWidth) {
      super(context, field, array, label, 1);
      this.offsetWidth = offsetWidth;
      Field element = field.getChildren().get(0);
      children[0] = create(context, element, context.child(array, 0), childLabel(label, element));
    }

    @Override
    int bufferCount() {
      return 2;
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      if (!accepts(vector, FieldVector.class)) {
        return false;
      }
      FieldVector list = (FieldVector) vector;
      FieldVector element;
      if (list instanceof ListVector) {
        element = ((ListVector) list).getDataVector();
      } else if (list instanceof LargeListVector) {
        element = ((LargeListVector) list).getDataVector();
      } else {
        return false;
      }
      int count = list.getValueCount();
      ArrowBuf offsetBuffer = list.getOffsetBuffer();
      long offsets = zeroes;
      if (count > 0) {
        require(offsetBuffer, (count + 1L) * offsetWidth, "offsets", count);
        offsets = address(offsetBuffer);
        long first = offsetAt(offsets, offsetWidth, 0);
        long last = offsetAt(offsets, offsetWidth, count);
        if (first < 0 || last < first || last > element.getValueCount()) {
          throw new RowbridgeException("rowbridge: " + label + ": offsets run from " + first
              + " to " + last + " but the child has " + element.getValueCount() + " values");
        }
      }
      bindValidity(list.getValidityBuffer(), count);
      putBuffer(1, offsets);
      return children[0].bind(element, dictionaries);
    }
  }

  /** Validity and the element child of count * list size values. */
  static final class FixedSizeListBinder extends NodeBinder {
    private final int listSize;

    FixedSizeListBinder(Context context, Field field, long array, String label) {
      super(context, field, array, label, 1);
      this.listSize = ((ArrowType.FixedSizeList) field.getType()).getListSize();
      Field element = field.getChildren().get(0);
      children[0] = create(context, element, context.child(array, 0), childLabel(label, element));
    }

    @Override
    int bufferCount() {
      return 1;
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      if (!accepts(vector, FixedSizeListVector.class)) {
        return false;
      }
      FixedSizeListVector list = (FixedSizeListVector) vector;
      int count = list.getValueCount();
      FieldVector element = list.getDataVector();
      if (element.getValueCount() < (long) count * listSize) {
        throw new RowbridgeException("rowbridge: " + label + ": " + count + " lists of "
            + listSize + " need " + (long) count * listSize + " child values but the child has "
            + element.getValueCount());
      }
      bindValidity(list.getValidityBuffer(), count);
      return children[0].bind(element, dictionaries);
    }
  }

  /** Validity, offsets, sizes and the element child (list view, large list view). */
  static final class ListViewBinder extends NodeBinder {
    private final int offsetWidth;

    ListViewBinder(Context context, Field field, long array, String label, int offsetWidth) {
      super(context, field, array, label, 1);
      this.offsetWidth = offsetWidth;
      Field element = field.getChildren().get(0);
      children[0] = create(context, element, context.child(array, 0), childLabel(label, element));
    }

    @Override
    int bufferCount() {
      return 3;
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      if (!accepts(vector, FieldVector.class)) {
        return false;
      }
      ArrowBuf sizeBuffer;
      FieldVector element;
      if (vector instanceof ListViewVector) {
        sizeBuffer = ((ListViewVector) vector).getSizeBuffer();
        element = ((ListViewVector) vector).getDataVector();
      } else if (vector instanceof LargeListViewVector) {
        sizeBuffer = ((LargeListViewVector) vector).getSizeBuffer();
        element = ((LargeListViewVector) vector).getDataVector();
      } else {
        return false;
      }
      FieldVector list = (FieldVector) vector;
      int count = list.getValueCount();
      ArrowBuf offsetBuffer = list.getOffsetBuffer();
      require(offsetBuffer, (long) count * offsetWidth, "offsets", count);
      require(sizeBuffer, (long) count * offsetWidth, "sizes", count);
      bindValidity(list.getValidityBuffer(), count);
      putBuffer(1, count == 0 ? zeroes : address(offsetBuffer));
      putBuffer(2, count == 0 ? zeroes : address(sizeBuffer));
      return children[0].bind(element, dictionaries);
    }
  }

  /** No buffers; children run ends and values. */
  static final class RunEndBinder extends NodeBinder {
    RunEndBinder(Context context, Field field, long array, String label) {
      super(context, field, array, label, 2);
      List<Field> fields = field.getChildren();
      for (int i = 0; i < 2; i++) {
        children[i] = create(context, fields.get(i), context.child(array, i),
            childLabel(label, fields.get(i)));
      }
    }

    @Override
    int bufferCount() {
      return 0;
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      if (!accepts(vector, RunEndEncodedVector.class)) {
        return false;
      }
      RunEndEncodedVector runs = (RunEndEncodedVector) vector;
      writeHeader(runs.getValueCount(), 0);
      return children[0].bind(runs.getRunEndsVector(), dictionaries)
          && children[1].bind(runs.getValuesVector(), dictionaries);
    }
  }

  /** Integer indices in the node, the dictionary's values in its dictionary node. */
  static final class DictionaryBinder extends NodeBinder {
    private final FixedBinder indices;
    private final NodeBinder values;
    private final long id;

    DictionaryBinder(Context context, Field field, long array, String label) {
      super(context, field, array, label, 0);
      this.indices = new FixedBinder(context, field, array, label,
          field.getDictionary().getIndexType().getBitWidth() / 8);
      this.id = field.getDictionary().getId();
      Dictionary dictionary = SchemaExporter.dictionaryOf(field, context.dictionaries);
      this.values = create(context, dictionary.getVector().getField(), context.dictionary(array),
          label + " dictionary");
    }

    @Override
    int bufferCount() {
      return 2;
    }

    @Override
    void close() {
      indices.close();
      values.close();
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      Dictionary dictionary = dictionaries == null ? null : dictionaries.lookup(id);
      if (dictionary == null) {
        throw new RowbridgeException("rowbridge: " + label + " is dictionary-encoded (id " + id
            + ") but no dictionary provider holds that id");
      }
      return indices.bind(vector, dictionaries) && values.bind(dictionary.getVector(), dictionaries);
    }
  }
}
