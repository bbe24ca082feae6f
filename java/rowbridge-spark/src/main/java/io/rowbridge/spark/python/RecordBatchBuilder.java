package io.rowbridge.spark.python;

import io.rowbridge.ColumnBuffers;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * One Arrow record batch of a target schema assembled from ranges of Arrow Java vectors (or of
 * another engine's flat columns given as {@link ColumnBuffers}, see {@link EngineColumns}), buffer
 * by buffer (bulk copies of values, shifted validity bits, rebased offsets; nothing per row on the
 * JVM's heap), so that columnar input reaches a Python worker without becoming rows. The ranges may
 * come from several source batches, which need to stay valid only while their range is appended.
 *
 * <p>A source column fits a target field when their Arrow types are equal, but for a timestamp's
 * time zone (the target's is written: the values are the same instants), at every depth; see {@link
 * #fits}. Dictionary-encoded and view columns never fit.
 *
 * <p>The buffers belong to this builder (allocated from the allocator it is given, grown by
 * doubling, kept from batch to batch) until {@link #close}. One thread at a time.
 */
public final class RecordBatchBuilder implements AutoCloseable {
  private final AppendedColumn[] columns;

  /** The one struct column the columns travel in, or null when they are the batch's columns. */
  private final BatchBuffer oneColumnValidity;

  private int rows;

  /**
   * @param fields the target's columns (the children of the one struct column when {@code
   *     inOneColumn})
   * @param inOneColumn whether the batch is one non-null struct column of {@code fields}
   */
  public RecordBatchBuilder(List<Field> fields, boolean inOneColumn, BufferAllocator allocator) {
    columns = new AppendedColumn[fields.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = AppendedColumn.of(fields.get(i), allocator);
    }
    oneColumnValidity = inOneColumn ? new BatchBuffer(allocator) : null;
  }

  /** Whether a source column of {@code source}'s field fits the target {@code target}. */
  public static boolean fits(Field target, Field source) {
    if (source.getDictionary() != null || !sameType(target.getType(), source.getType())) {
      return false;
    }
    List<Field> targetChildren = target.getChildren();
    List<Field> sourceChildren = source.getChildren();
    if (targetChildren.size() != sourceChildren.size()) {
      return false;
    }
    for (int i = 0; i < targetChildren.size(); i++) {
      if (!fits(targetChildren.get(i), sourceChildren.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameType(ArrowType target, ArrowType source) {
    if (target instanceof ArrowType.Timestamp t && source instanceof ArrowType.Timestamp s) {
      return t.getUnit() == s.getUnit() && (t.getTimezone() == null) == (s.getTimezone() == null);
    }
    return target.equals(source);
  }

  /** Rows appended since the last {@link #reset}. */
  int rows() {
    return rows;
  }

  /**
   * Appends rows {@code [start, start + length)} of {@code sources} (one vector per target column,
   * each fitting it; borrowed, read now).
   */
  void append(ValueVector[] sources, int start, int length) {
    for (int i = 0; i < columns.length; i++) {
      columns[i].append(sources[i], start, length);
    }
    appended(length);
  }

  private void appended(int length) {
    if (oneColumnValidity != null) {
      BatchBuffer.copyBits(0, 0, oneColumnValidity, rows, length);
    }
    rows += length;
  }

  /**
   * Appends rows {@code [start, start + length)} of {@code sources} (one flat column per target
   * column, each fitting it as {@link EngineColumns} checks; borrowed, read now).
   */
  public void append(ColumnBuffers[] sources, int start, int length) {
    for (int i = 0; i < columns.length; i++) {
      columns[i].append(sources[i], start, length);
    }
    appended(length);
  }

  /**
   * The appended rows as a record batch (buffers shared with this builder: close it before the next
   * {@link #append}).
   */
  public ArrowRecordBatch recordBatch() {
    List<ArrowFieldNode> nodes = new ArrayList<>();
    List<ArrowBuf> buffers = new ArrayList<>();
    if (oneColumnValidity != null) {
      nodes.add(new ArrowFieldNode(rows, 0));
      buffers.add(oneColumnValidity.written());
    }
    for (AppendedColumn column : columns) {
      column.collect(nodes, buffers);
    }
    return new ArrowRecordBatch(rows, nodes, buffers);
  }

  /**
   * The Arrow data Spark's writer measures against spark.sql.execution.arrow.maxBytesPerBatch (the
   * sum of Arrow Java's {@code getBufferSizeFor} over its columns) were rows {@code [start, start +
   * count)} of {@code sources} appended ({@code count} 0: of the rows appended so far).
   */
  long sparkSizeWith(ValueVector[] sources, int start, int count) {
    if (rows + count == 0) {
      return 0;
    }
    long bytes = oneColumnValidity == null ? 0 : BatchBuffer.bitBytes(rows + (long) count);
    for (int i = 0; i < columns.length; i++) {
      bytes += columns[i].sizeWith(count == 0 ? null : sources[i], start, count);
    }
    return bytes;
  }

  /** {@link #sparkSizeWith(ValueVector[], int, int)} for another engine's flat columns. */
  long sparkSizeWith(ColumnBuffers[] sources, int start, int count) {
    if (rows + count == 0) {
      return 0;
    }
    long bytes = oneColumnValidity == null ? 0 : BatchBuffer.bitBytes(rows + (long) count);
    for (int i = 0; i < columns.length; i++) {
      bytes +=
          count == 0
              ? columns[i].sizeWith((ValueVector) null, start, 0)
              : columns[i].sizeWith(sources[i], start, count);
    }
    return bytes;
  }

  /** Empties the batch; the buffers keep their capacity. */
  public void reset() {
    rows = 0;
    for (AppendedColumn column : columns) {
      column.reset();
    }
    if (oneColumnValidity != null) {
      oneColumnValidity.reset();
    }
  }

  /** Bytes of buffer this builder holds. */
  long capacity() {
    long bytes = oneColumnValidity == null ? 0 : oneColumnValidity.capacity();
    for (AppendedColumn column : columns) {
      bytes += column.capacity();
    }
    return bytes;
  }

  @Override
  public void close() {
    for (AppendedColumn column : columns) {
      column.close();
    }
    if (oneColumnValidity != null) {
      oneColumnValidity.close();
    }
  }
}
