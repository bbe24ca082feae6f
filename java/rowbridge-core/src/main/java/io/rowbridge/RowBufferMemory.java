package io.rowbridge;

import org.apache.spark.unsafe.Platform;

/**
 * A converter's native row buffer as reported to its {@link NativeMemoryListener}: the listener is
 * asked to acquire what a chunk needs beyond the bytes reported so far (the buffer only grows), and
 * to release them all once, when the converter closes. The buffer itself belongs to the native
 * converter; this class holds only the count. Without a listener it does nothing.
 */
final class RowBufferMemory {
  private final NativeMemoryListener listener;
  private long reservedBytes;

  /** For {@code listener}, or none when it is null. */
  RowBufferMemory(NativeMemoryListener listener) {
    this.listener = listener;
  }

  /**
   * Reports the footprint of the chunk described by the native result at {@code result} (its row
   * data and {@code chunkRows + 1} row offsets) when it exceeds the bytes reported so far; the
   * listener's refusal propagates.
   */
  void cover(long result, int chunkRows) {
    if (listener != null) {
      long dataSize = Platform.getLong(null, result + RowbridgeNative.RESULT_DATA_SIZE);
      long footprint = dataSize + 8L * (chunkRows + 1);
      if (footprint > reservedBytes) {
        listener.acquire(footprint - reservedBytes);
        reservedBytes = footprint;
      }
    }
  }

  /** Native bytes reported to the listener so far. */
  long reservedBytes() {
    return reservedBytes;
  }

  /** Releases every byte reported (once; later calls release nothing). */
  void releaseAll() {
    if (listener != null && reservedBytes > 0) {
      long released = reservedBytes;
      reservedBytes = 0;
      listener.release(released);
    }
  }
}
