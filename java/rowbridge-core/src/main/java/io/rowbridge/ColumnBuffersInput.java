package io.rowbridge;

import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The input path of columns given as primitives, one {@link ColumnBuffers} per column: each batch's
 * buffers checked, then bound into the converter's registered ArrowArray; or, when a column is
 * dictionary-encoded and its field is not, converted by {@link BufferColumns}, which passes the
 * batch's own schema. The buffers are borrowed as {@link ColumnBuffers} says. The registered
 * binders are the converter's; the BufferColumns is this path's, made when first needed and closed
 * by {@link #close}. Owned by one {@link RowbridgeConverter}, which closes it.
 */
final class ColumnBuffersInput implements AutoCloseable {
  private final List<Field> fields;
  private final NodeBinder[] columns;
  private final long zeroes;
  private BufferColumns bufferColumns;
  private long schemaPathBatches;

  /**
   * For the converter's {@code fields}, its registered binders {@code columns} (bound, not owned)
   * and its zero block {@code zeroes}.
   */
  ColumnBuffersInput(List<Field> fields, NodeBinder[] columns, long zeroes) {
    this.fields = fields;
    this.columns = columns;
    this.zeroes = zeroes;
  }

  /**
   * Checks what each of {@code buffers} says of itself for a batch of {@code numRows} rows, before
   * any address is used: a RowbridgeException or IllegalArgumentException naming the column.
   */
  void check(ColumnBuffers[] buffers, int numRows) {
    for (int i = 0; i < columns.length; i++) {
      BufferColumns.check(buffers[i], numRows, columns[i].label);
    }
  }

  /**
   * Converts the first {@code numRows} rows of {@code buffers}, checked, with the native converter
   * {@code handle}; returns the address of the native result of the first chunk.
   */
  long convert(long handle, ColumnBuffers[] buffers, int numRows) {
    if (bindRegistered(buffers)) {
      return RowbridgeNative.convert(handle, numRows);
    }
    schemaPathBatches++;
    return bufferColumns().convert(handle, buffers, numRows);
  }

  private boolean bindRegistered(ColumnBuffers[] buffers) {
    for (int i = 0; i < columns.length; i++) {
      if (!columns[i].bindBuffers(buffers[i])) {
        return false;
      }
    }
    return true;
  }

  private BufferColumns bufferColumns() {
    if (bufferColumns == null) {
      bufferColumns = new BufferColumns(fields, columns, zeroes);
    }
    return bufferColumns;
  }

  /** Batches that went through the path passing the batch's own schema. */
  long schemaPathBatches() {
    return schemaPathBatches;
  }

  /** Closes the BufferColumns, if made. Idempotent. */
  @Override
  public void close() {
    if (bufferColumns != null) {
      bufferColumns.close();
      bufferColumns = null;
    }
  }
}
