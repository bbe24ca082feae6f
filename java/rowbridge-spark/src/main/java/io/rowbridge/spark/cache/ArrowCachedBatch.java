package io.rowbridge.spark.cache;

import java.io.Serializable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.columnar.SimpleMetricsCachedBatch;

/**
 * One batch of a DataFrame cached by {@link io.rowbridge.spark.ArrowCachedBatchSerializer}: each
 * column as its own Arrow IPC record batch message (stream framing, a one-column batch whose
 * buffers are compressed one by one when the cache compresses), the Arrow schema of all columns as
 * an IPC schema message, and Spark's statistics row for pruning.
 *
 * <p>Immutable, and plain bytes on the JVM heap: the block manager measures it, keeps it, spills it
 * and serializes it as any other object, and a read copies the columns it needs off-heap once.
 * Batches of one partition share their schema array.
 */
public final class ArrowCachedBatch implements SimpleMetricsCachedBatch, Serializable {
  private static final long serialVersionUID = 1L;

  private final int numRows;
  private final byte[] schemaMessage;
  private final byte[][] columnMessages;
  private final InternalRow stats;

  ArrowCachedBatch(int numRows, byte[] schemaMessage, byte[][] columnMessages, InternalRow stats) {
    this.numRows = numRows;
    this.schemaMessage = schemaMessage;
    this.columnMessages = columnMessages;
    this.stats = stats;
  }

  @Override
  public int numRows() {
    return numRows;
  }

  /**
   * Per column: lower bound, upper bound, null count, row count and uncompressed size in bytes, as
   * {@code SimpleMetricsCachedBatch} lays them out.
   */
  @Override
  public InternalRow stats() {
    return stats;
  }

  /** The Arrow schema of the columns, as an IPC schema message. Shared: do not modify. */
  byte[] schemaMessage() {
    return schemaMessage;
  }

  /** Column {@code index}'s record batch message. Shared: do not modify. */
  byte[] columnMessage(int index) {
    return columnMessages[index];
  }

  int numColumns() {
    return columnMessages.length;
  }

  /** The bytes this batch holds on the heap (its messages; the schema's once per partition). */
  public long heldBytes() {
    long bytes = 0;
    for (byte[] message : columnMessages) {
      bytes += message.length;
    }
    return bytes;
  }
}
