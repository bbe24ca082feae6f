package io.rowbridge.spark.python;

import io.rowbridge.ColumnBuffers;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.unsafe.Platform;

/**
 * The buffers of one target field of a {@link RecordBatchBuilder} and its children, appended to
 * range by range from Arrow Java vectors of the same layout, or, for the flat layouts (boolean,
 * fixed-width, utf8 and binary), from another engine's columns given as {@link ColumnBuffers}. The
 * buffers are the IPC format's, in its order: the validity bitmap (none for the null type), then
 * the layout's own (offsets, values). They belong to this column until {@link #close}.
 */
abstract class AppendedColumn implements AutoCloseable {
  private static final AppendedColumn[] NO_CHILDREN = new AppendedColumn[0];

  /** Null for the null type, which has no buffers. */
  final BatchBuffer validity;

  /** The layout's buffers after the validity bitmap. */
  private final BatchBuffer[] layout;

  final AppendedColumn[] children;
  int length;
  int nulls;

  AppendedColumn(BufferAllocator allocator, int buffers, AppendedColumn[] children) {
    validity = buffers < 0 ? null : new BatchBuffer(allocator);
    layout = new BatchBuffer[Math.max(buffers, 0)];
    for (int i = 0; i < layout.length; i++) {
      layout[i] = new BatchBuffer(allocator);
    }
    this.children = children;
  }

  /** The layout's buffer {@code i} (after the validity bitmap). */
  final BatchBuffer buffer(int i) {
    return layout[i];
  }

  static AppendedColumn of(Field field, BufferAllocator allocator) {
    ArrowType type = field.getType();
    return switch (type.getTypeID()) {
      case Null -> new NullColumn(allocator);
      case Bool -> new BitColumn(allocator);
      case Utf8, Binary -> new VariableColumn(allocator, 4);
      case LargeUtf8, LargeBinary -> new VariableColumn(allocator, 8);
      case Struct -> new StructColumn(field, allocator);
      case List, Map -> new ListColumn(field, allocator, 4);
      case LargeList -> new ListColumn(field, allocator, 8);
      case FixedSizeList ->
          new FixedSizeListColumn(field, allocator, ((ArrowType.FixedSizeList) type).getListSize());
      default -> new FixedWidthColumn(allocator);
    };
  }

  private static AppendedColumn[] childrenOf(Field field, BufferAllocator allocator) {
    AppendedColumn[] children = new AppendedColumn[field.getChildren().size()];
    for (int i = 0; i < children.length; i++) {
      children[i] = of(field.getChildren().get(i), allocator);
    }
    return children;
  }

  /** Appends {@code [start, start + count)} of {@code source} (borrowed, read now). */
  final void append(ValueVector source, int start, int count) {
    if (count == 0) {
      return;
    }
    if (validity == null) {
      nulls += count;
    } else {
      ArrowBuf bits = source.getValidityBuffer();
      long address =
          bits.capacity() < BatchBuffer.bitBytes(start + (long) count) ? 0 : bits.memoryAddress();
      nulls += BatchBuffer.copyBits(address, start, validity, length, count);
    }
    appendValues(source, start, count);
    length += count;
  }

  abstract void appendValues(ValueVector source, int start, int count);

  /**
   * Appends {@code [start, start + count)} of a flat column given as buffers (borrowed, read now),
   * whose layout and capacities {@link EngineColumns} has checked against this column's.
   */
  final void append(ColumnBuffers source, int start, int count) {
    if (count == 0) {
      return;
    }
    nulls += BatchBuffer.copyBits(source.validityAddress, start, validity, length, count);
    appendValues(source, start, count);
    length += count;
  }

  /** The values of a flat column's buffers; the layouts with children have none. */
  void appendValues(ColumnBuffers source, int start, int count) {
    throw new IllegalStateException("rowbridge: no flat buffers for " + getClass().getSimpleName());
  }

  /** {@link #sizeWith(ValueVector, int, int)} of a flat column given as buffers. */
  long sizeWith(ColumnBuffers source, int start, int count) {
    throw new IllegalStateException("rowbridge: no flat buffers for " + getClass().getSimpleName());
  }

  /**
   * Arrow Java's {@code getBufferSizeFor} of this column were {@code [start, start + count)} of
   * {@code source} (null when count is 0) appended: what Spark's writer measures.
   */
  abstract long sizeWith(ValueVector source, int start, int count);

  /** Completes the buffers before {@link #collect}. */
  void complete() {}

  /** Adds this column's node and buffers, then its children's, to a record batch's. */
  final void collect(List<ArrowFieldNode> nodes, List<ArrowBuf> buffers) {
    complete();
    nodes.add(new ArrowFieldNode(length, nulls));
    if (validity != null) {
      buffers.add(validity.written());
    }
    for (BatchBuffer buffer : layout) {
      buffers.add(buffer.written());
    }
    for (AppendedColumn child : children) {
      child.collect(nodes, buffers);
    }
  }

  final void reset() {
    length = 0;
    nulls = 0;
    if (validity != null) {
      validity.reset();
    }
    for (BatchBuffer buffer : layout) {
      buffer.reset();
    }
    for (AppendedColumn child : children) {
      child.reset();
    }
  }

  final long capacity() {
    long bytes = validity == null ? 0 : validity.capacity();
    for (BatchBuffer buffer : layout) {
      bytes += buffer.capacity();
    }
    for (AppendedColumn child : children) {
      bytes += child.capacity();
    }
    return bytes;
  }

  @Override
  public final void close() {
    if (validity != null) {
      validity.close();
    }
    for (BatchBuffer buffer : layout) {
      buffer.close();
    }
    for (AppendedColumn child : children) {
      child.close();
    }
  }

  /**
   * Rebases offsets {@code [start, start + count]} of width {@code width} after the written ones.
   */
  private static void appendOffsets(
      long source, int start, int count, int width, BatchBuffer offsets, int length, long base) {
    if (length == 0) {
      offsets.ensure(width);
      putOffset(offsets.address(), 0, width, 0);
      offsets.used = width; // kept when the buffer grows below
    }
    offsets.ensure((long) width * (length + count + 1));
    long first = getOffset(source, start, width);
    for (int i = 1; i <= count; i++) {
      putOffset(
          offsets.address(), length + i, width, base + getOffset(source, start + i, width) - first);
    }
    offsets.used = (long) width * (length + count + 1);
  }

  /** The offset {@code index} of {@code width} bytes at {@code address}. */
  static long getOffset(long address, int index, int width) {
    return width == 4
        ? Platform.getInt(null, address + 4L * index)
        : Platform.getLong(null, address + 8L * index);
  }

  /** Writes the offset {@code index} of {@code width} bytes at {@code address}. */
  static void putOffset(long address, int index, int width, long value) {
    if (width == 4) {
      Platform.putInt(null, address + 4L * index, (int) value);
    } else {
      Platform.putLong(null, address + 8L * index, value);
    }
  }

  /** An offsets buffer's IPC form for no values: one offset of 0. */
  private static void oneZeroOffset(BatchBuffer offsets, int width) {
    offsets.ensure(width);
    putOffset(offsets.address(), 0, width, 0);
    offsets.used = width;
  }

  private static final class NullColumn extends AppendedColumn {
    NullColumn(BufferAllocator allocator) {
      super(allocator, -1, NO_CHILDREN);
    }

    @Override
    void appendValues(ValueVector source, int start, int count) {}

    @Override
    long sizeWith(ValueVector source, int start, int count) {
      return 0;
    }
  }

  private static final class BitColumn extends AppendedColumn {
    BitColumn(BufferAllocator allocator) {
      super(allocator, 1, NO_CHILDREN);
    }

    @Override
    void appendValues(ValueVector source, int start, int count) {
      long address = ((BitVector) source).getDataBuffer().memoryAddress();
      BatchBuffer.copyBits(address, start, buffer(0), length, count);
    }

    @Override
    void appendValues(ColumnBuffers source, int start, int count) {
      BatchBuffer.copyBits(source.dataAddress, start, buffer(0), length, count);
    }

    @Override
    long sizeWith(ValueVector source, int start, int count) {
      return sizeWith(count);
    }

    @Override
    long sizeWith(ColumnBuffers source, int start, int count) {
      return sizeWith(count);
    }

    private long sizeWith(int count) {
      long n = length + (long) count;
      return n == 0 ? 0 : 2 * BatchBuffer.bitBytes(n);
    }
  }

  private static final class FixedWidthColumn extends AppendedColumn {
    private long width;

    FixedWidthColumn(BufferAllocator allocator) {
      super(allocator, 1, NO_CHILDREN);
    }

    @Override
    void appendValues(ValueVector source, int start, int count) {
      BaseFixedWidthVector vector = (BaseFixedWidthVector) source;
      appendValues(vector.getDataBuffer().memoryAddress(), vector.getTypeWidth(), start, count);
    }

    @Override
    void appendValues(ColumnBuffers source, int start, int count) {
      appendValues(source.dataAddress, EngineColumns.fixedWidth(source.minorType), start, count);
    }

    private void appendValues(long address, long width, int start, int count) {
      BatchBuffer values = buffer(0);
      this.width = width;
      long bytes = width * count;
      values.ensure(values.used + bytes);
      Platform.copyMemory(
          null, address + width * start, null, values.address() + values.used, bytes);
      values.used += bytes;
    }

    @Override
    long sizeWith(ValueVector source, int start, int count) {
      return sizeWith(count == 0 ? width : ((BaseFixedWidthVector) source).getTypeWidth(), count);
    }

    @Override
    long sizeWith(ColumnBuffers source, int start, int count) {
      return sizeWith(EngineColumns.fixedWidth(source.minorType), count);
    }

    private long sizeWith(long bytesPerValue, int count) {
      long n = length + (long) count;
      return n == 0 ? 0 : n * bytesPerValue + BatchBuffer.bitBytes(n);
    }
  }

  /** Strings and binaries: offsets of {@code width} bytes, then the values' bytes. */
  private static final class VariableColumn extends AppendedColumn {
    private final int width;

    VariableColumn(BufferAllocator allocator, int width) {
      super(allocator, 2, NO_CHILDREN);
      this.width = width;
    }

    @Override
    void complete() {
      if (length == 0) {
        oneZeroOffset(buffer(0), width);
      }
    }

    private static ArrowBuf offsetsOf(ValueVector source) {
      return source instanceof BaseVariableWidthVector vector
          ? vector.getOffsetBuffer()
          : ((BaseLargeVariableWidthVector) source).getOffsetBuffer();
    }

    @Override
    void appendValues(ValueVector source, int start, int count) {
      ArrowBuf sourceValues =
          source instanceof BaseVariableWidthVector vector
              ? vector.getDataBuffer()
              : ((BaseLargeVariableWidthVector) source).getDataBuffer();
      appendValues(offsetsOf(source).memoryAddress(), sourceValues.memoryAddress(), start, count);
    }

    @Override
    void appendValues(ColumnBuffers source, int start, int count) {
      appendValues(source.offsetsAddress, source.dataAddress, start, count);
    }

    private void appendValues(long offsets, long data, int start, int count) {
      BatchBuffer values = buffer(1);
      long first = getOffset(offsets, start, width);
      long bytes = getOffset(offsets, start + count, width) - first;
      appendOffsets(offsets, start, count, width, buffer(0), length, values.used);
      values.ensure(values.used + bytes);
      Platform.copyMemory(null, data + first, null, values.address() + values.used, bytes);
      values.used += bytes;
    }

    @Override
    long sizeWith(ValueVector source, int start, int count) {
      return sizeWith(count == 0 ? 0 : offsetsOf(source).memoryAddress(), start, count);
    }

    @Override
    long sizeWith(ColumnBuffers source, int start, int count) {
      return sizeWith(source.offsetsAddress, start, count);
    }

    private long sizeWith(long offsets, int start, int count) {
      long n = length + (long) count;
      if (n == 0) {
        return 0;
      }
      long bytes = buffer(1).used;
      if (count > 0) {
        bytes += getOffset(offsets, start + count, width) - getOffset(offsets, start, width);
      }
      return BatchBuffer.bitBytes(n) + (n + 1) * width + bytes;
    }
  }

  private static final class StructColumn extends AppendedColumn {
    StructColumn(Field field, BufferAllocator allocator) {
      super(allocator, 0, childrenOf(field, allocator));
    }

    @Override
    void appendValues(ValueVector source, int start, int count) {
      StructVector struct = (StructVector) source;
      for (int i = 0; i < children.length; i++) {
        children[i].append(struct.getChildByOrdinal(i), start, count);
      }
    }

    @Override
    long sizeWith(ValueVector source, int start, int count) {
      long n = length + (long) count;
      if (n == 0) {
        return 0;
      }
      long bytes = BatchBuffer.bitBytes(n);
      for (int i = 0; i < children.length; i++) {
        ValueVector child = count == 0 ? null : ((StructVector) source).getChildByOrdinal(i);
        bytes += children[i].sizeWith(child, start, count);
      }
      return bytes;
    }
  }

  /** Lists and maps (a list of entries): offsets of {@code width} bytes into the elements. */
  private static final class ListColumn extends AppendedColumn {
    private final int width;

    ListColumn(Field field, BufferAllocator allocator, int width) {
      super(allocator, 1, childrenOf(field, allocator));
      this.width = width;
    }

    @Override
    void complete() {
      if (length == 0) {
        oneZeroOffset(buffer(0), width);
      }
    }

    private static long offsetsAddress(ValueVector source) {
      return source instanceof ListVector list
          ? list.getOffsetBuffer().memoryAddress()
          : ((LargeListVector) source).getOffsetBuffer().memoryAddress();
    }

    private static ValueVector elementsOf(ValueVector source) {
      return source instanceof ListVector list
          ? list.getDataVector()
          : ((LargeListVector) source).getDataVector();
    }

    @Override
    void appendValues(ValueVector source, int start, int count) {
      long address = offsetsAddress(source);
      long first = getOffset(address, start, width);
      long last = getOffset(address, start + count, width);
      appendOffsets(address, start, count, width, buffer(0), length, children[0].length);
      children[0].append(elementsOf(source), (int) first, (int) (last - first));
    }

    @Override
    long sizeWith(ValueVector source, int start, int count) {
      long n = length + (long) count;
      if (n == 0) {
        return 0;
      }
      long elementBytes;
      if (count == 0) {
        elementBytes = children[0].sizeWith((ValueVector) null, 0, 0);
      } else {
        long address = offsetsAddress(source);
        long first = getOffset(address, start, width);
        long last = getOffset(address, start + count, width);
        elementBytes = children[0].sizeWith(elementsOf(source), (int) first, (int) (last - first));
      }
      return BatchBuffer.bitBytes(n) + (n + 1) * width + elementBytes;
    }
  }

  private static final class FixedSizeListColumn extends AppendedColumn {
    private final int size;

    FixedSizeListColumn(Field field, BufferAllocator allocator, int size) {
      super(allocator, 0, childrenOf(field, allocator));
      this.size = size;
    }

    @Override
    void appendValues(ValueVector source, int start, int count) {
      ValueVector elements = ((FixedSizeListVector) source).getDataVector();
      children[0].append(elements, start * size, count * size);
    }

    @Override
    long sizeWith(ValueVector source, int start, int count) {
      long n = length + (long) count;
      if (n == 0) {
        return 0;
      }
      ValueVector child = count == 0 ? null : ((FixedSizeListVector) source).getDataVector();
      return BatchBuffer.bitBytes(n) + children[0].sizeWith(child, start * size, count * size);
    }
  }
}
