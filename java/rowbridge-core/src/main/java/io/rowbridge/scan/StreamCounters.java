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

  /**
   * Bytes of native memory the stream holds now: decoded batches it has not handed over or released
   * yet (buffers allocated for them, such as decompressed bodies; not the mapped file) and, for a
   * row scan, the row buffers of its converters (up to K + W + 1, kept for reuse until close). The
   * workers change it while they run ahead of the consumer; 0 after close. For a host's memory
   * accounting: compare it at each batch and acquire or release the difference.
   */
  long bytesHeld();
}
