package io.rowbridge;

import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.unsafe.Platform;

/**
 * The walk over the rows of a converter's current batch: one reused UnsafeRow pointed, row after
 * row, into the chunk the native converter last wrote (its row data and row offsets, which the
 * native converter owns and keeps until its next conversion or its release). The cursor only reads
 * that memory; it owns the row and a zeroed on-heap buffer the row points at when no chunk is
 * readable (before the first batch and after {@link #pointAtClosedRow}), so that a stale reference
 * reads zeros rather than freed memory.
 *
 * <p>The batch's owner (the vectors or column holders it was converted from) is only remembered
 * here, for the converter to keep reachable while it converts the next chunk; the cursor never
 * closes it. Owned by one {@link RowbridgeConverter}; one thread at a time.
 */
final class RowCursor {
  private final int numColumns;
  private final boolean copyRows;
  private final UnsafeRow row;
  private final byte[] closedRow;

  // The current batch: its owner and row count.
  private Object batch;
  private long batchRows;

  // The current chunk of the current batch.
  private long dataAddress;
  private long offsetsAddress;
  private long chunkFirstRow;
  private int chunkRows;
  private int index;

  /** The end of the current row in the chunk's data (rows are walked in order). */
  private long rowEnd;

  /** For rows of {@code numColumns} fields; {@code copyRows} hands out a copy of every row. */
  RowCursor(int numColumns, boolean copyRows) {
    this.numColumns = numColumns;
    this.copyRows = copyRows;
    this.row = new UnsafeRow(numColumns);
    this.closedRow =
        new byte
            [Math.max(64, UnsafeRow.calculateBitSetWidthInBytes(numColumns) + 8 * numColumns + 64)];
    pointAtClosedRow();
  }

  /** Starts a batch of {@code numRows} rows converted from {@code owner} (borrowed, not closed). */
  void startBatch(Object owner, long numRows) {
    batch = owner;
    batchRows = numRows;
  }

  /** The object the current batch was converted from, or null when there is none. */
  Object batch() {
    return batch;
  }

  /**
   * Takes the chunk described by the native result at {@code result} (data, row offsets, rows and
   * first row, at the offsets {@code RowbridgeNative.RESULT_*}); the next {@link #next} moves to
   * its first row.
   */
  void readChunk(long result) {
    dataAddress = Platform.getLong(null, result + RowbridgeNative.RESULT_DATA);
    offsetsAddress = Platform.getLong(null, result + RowbridgeNative.RESULT_ROW_OFFSETS);
    chunkRows = (int) Platform.getLong(null, result + RowbridgeNative.RESULT_NUM_ROWS);
    chunkFirstRow = Platform.getLong(null, result + RowbridgeNative.RESULT_FIRST_ROW);
    index = -1;
    rowEnd = 0;
  }

  /** The rows of the current chunk. */
  int chunkRows() {
    return chunkRows;
  }

  /** True when the current batch has rows after the current chunk's, still to convert. */
  boolean hasMoreChunks() {
    return batch != null && chunkFirstRow + chunkRows < batchRows;
  }

  /** Forgets the current batch and chunk (its owner may then be closed or reused). */
  void endBatch() {
    batch = null;
    batchRows = 0;
    chunkRows = 0;
    chunkFirstRow = 0;
    index = -1;
  }

  /** Moves to the next row of the current chunk; false, staying past its end, after the last. */
  boolean next() {
    if (++index < chunkRows) {
      pointAt(index);
      return true;
    }
    index = chunkRows;
    return false;
  }

  /** Points the row at row i of the chunk, the one after the previous (row_offsets[0] is 0). */
  private void pointAt(int i) {
    long start = rowEnd;
    long end = Platform.getLong(null, offsetsAddress + 8L * i + 8);
    rowEnd = end;
    row.pointTo(null, dataAddress + start, (int) (end - start));
  }

  /** The current row, reused (valid until the next chunk or batch), or a copy in copying mode. */
  UnsafeRow row() {
    return copyRows ? row.copy() : row;
  }

  /** The index in the batch of the current row. */
  long rowIndex() {
    return chunkFirstRow + index;
  }

  /** Points the reused row at the zeroed on-heap buffer (when the native memory goes away). */
  void pointAtClosedRow() {
    row.pointTo(
        closedRow,
        Platform.BYTE_ARRAY_OFFSET,
        UnsafeRow.calculateBitSetWidthInBytes(numColumns) + 8 * numColumns);
  }
}
