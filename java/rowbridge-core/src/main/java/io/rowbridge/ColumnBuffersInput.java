package io.rowbridge;

import java.util.List;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Columns given as primitives, one {@link ColumnBuffers} per column, as converter input: each
 * batch's buffers checked, then bound into the converter's registered ArrowArray; or, when a column
 * is dictionary-encoded and its field is not, converted by {@link BufferColumns}, which passes the
 * batch's own schema. The buffers are borrowed as {@link ColumnBuffers} says. The registered
 * binders are the converter's; the BufferColumns is this input's (its tree made when first needed)
 * and closed by {@link #close}.
 */
final class ColumnBuffersInput implements ConverterInput {
  private final NodeBinder[] columns;
  private final BufferColumns bufferColumns;
  private ColumnBuffers[] current;
  private long schemaPathBatches;

  /**
   * For the converter's {@code fields}, its registered binders {@code columns} (bound, not owned)
   * and its zero block {@code zeroes}.
   */
  ColumnBuffersInput(List<Field> fields, NodeBinder[] columns, long zeroes) {
    this.columns = columns;
    this.bufferColumns = new BufferColumns(fields, columns, zeroes);
  }

  /** Takes {@code buffers}, one per column, as the next batch's. */
  void take(ColumnBuffers[] buffers) {
    current = buffers;
  }

  /**
   * {@inheritDoc} Each column's buffers are checked as they describe themselves before any address
   * is used: a RowbridgeException or IllegalArgumentException naming the column.
   */
  @Override
  public long convert(long handle, int numRows, DictionaryProvider dictionaries) {
    for (int i = 0; i < columns.length; i++) {
      BufferColumns.check(current[i], numRows, columns[i].label);
    }
    if (bindRegistered()) {
      return RowbridgeNative.convert(handle, numRows);
    }
    schemaPathBatches++;
    return bufferColumns.convert(handle, current, numRows);
  }

  private boolean bindRegistered() {
    for (int i = 0; i < columns.length; i++) {
      if (!columns[i].bindBuffers(current[i])) {
        return false;
      }
    }
    return true;
  }

  /** Nothing: the buffers were bound, never exported. */
  @Override
  public void releaseBatch() {}

  @Override
  public long schemaPathBatches() {
    return schemaPathBatches;
  }

  /** Frees the BufferColumns' tree, if made, and forgets the buffers taken. Idempotent. */
  @Override
  public void close() {
    current = null;
    bufferColumns.close();
  }
}
