package io.rowbridge.scan;

/**
 * The counters of a scan's native stream, for metrics (Spark's UI): implemented by {@link
 * ArrowScan} and {@link RowScan}; readable from any thread, also after close.
 */
public interface StreamCounters {
  /** Batches handed to the consumer so far. */
  long batchesRead();

  /** Bytes of the file's batch bodies, as stored (compressed), handed to the consumer so far. */
  long bytesRead();

  /** Nanoseconds the consumer spent waiting for batches that were not ready yet. */
  long waitNanos();

  /** Nanoseconds the native workers spent producing batches, summed over workers. */
  long decodeNanos();
}
