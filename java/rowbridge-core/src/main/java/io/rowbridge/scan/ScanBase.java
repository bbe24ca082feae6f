package io.rowbridge.scan;

/**
 * What {@link ArrowScan} and {@link RowScan} share: cancellation and the metrics of the native
 * stream (for Spark's UI), which stay readable after close.
 */
public abstract class ScanBase implements StreamCounters, AutoCloseable {
  final NativeStream stream;

  /** Set by close; an advance after it is an error. */
  boolean closed;

  /** Set when the stream reported its end. */
  private boolean finished;

  ScanBase(NativeStream stream) {
    this.stream = stream;
  }

  /**
   * Moves to the next unit the subclass hands out: {@link #nextInBatch} first, then batches from
   * {@link #pollNext}, waiting while none is ready and polling the interruption check of {@link
   * ScanOptions#interrupted(java.util.function.BooleanSupplier)} at every wake-up. False at the
   * end, after {@link #onEnd}.
   */
  final boolean advance() {
    if (closed) {
      throw new IllegalStateException(
          "rowbridge scan of " + stream.path() + ": the scan is closed");
    }
    if (finished) {
      return false;
    }
    long handle = stream.enter();
    try {
      if (nextInBatch(handle)) {
        return true;
      }
      for (; ; ) {
        int status = pollNext(handle);
        if (status == ScanNative.BATCH) {
          return true;
        }
        if (status == ScanNative.END) {
          finished = true;
          onEnd();
          return false;
        }
        stream.checkInterrupted();
      }
    } finally {
      stream.exit();
    }
  }

  /**
   * Moves within the current batch (for a row scan, to its next chunk); false when it has no more
   * or there is none. The stream {@code handle} is entered.
   */
  boolean nextInBatch(long handle) {
    return false;
  }

  /**
   * Takes the next batch if one is ready: returns {@link ScanNative#BATCH} (taken), {@link
   * ScanNative#END}, or anything else to wait and poll again. The stream {@code handle} is entered.
   */
  abstract int pollNext(long handle);

  /** Clears what the consumer sees once the stream has ended. */
  abstract void onEnd();

  /** Closes the stream and frees its native memory; the counters stay readable. Idempotent. */
  @Override
  public abstract void close();

  /**
   * Cancels the scan: a consumer blocked waiting for a batch gets a {@link
   * io.rowbridge.RowbridgeException} with code ECANCELED promptly, every later call too, and no new
   * batch is decoded. Thread-safe (also during close); does not wait.
   */
  public void cancel() {
    stream.cancel();
  }

  /**
   * For a scan of a {@link FilledFile}: the bytes of its first {@code count} batches (counted from
   * the scan's first batch) are written, so the workers may decode them. Thread-safe.
   */
  public void batchesReady(long count) {
    stream.ready(count);
  }

  /** Batches handed to the consumer so far. */
  @Override
  public long batchesRead() {
    return stream.stat(ScanNative.STAT_BATCHES);
  }

  /** Bytes of the file's batch bodies, as stored (compressed), handed to the consumer so far. */
  @Override
  public long bytesRead() {
    return stream.stat(ScanNative.STAT_INPUT_BYTES);
  }

  /** Nanoseconds the consumer spent waiting for batches that were not ready yet. */
  @Override
  public long waitNanos() {
    return stream.stat(ScanNative.STAT_WAIT_NANOS);
  }

  /**
   * Nanoseconds the native workers spent decoding batches (and, for a row scan, converting their
   * first chunk), summed over workers.
   */
  @Override
  public long decodeNanos() {
    return stream.stat(ScanNative.STAT_PRODUCE_NANOS);
  }

  /** Native bytes the stream holds now; see {@link StreamCounters#bytesHeld}. */
  @Override
  public long bytesHeld() {
    return stream.stat(ScanNative.STAT_BYTES_HELD);
  }

  /** The most batches the native stream held at once: at most K + W + 1. */
  public long maxBatchesHeld() {
    return stream.stat(ScanNative.STAT_MAX_BATCHES_HELD);
  }
}
