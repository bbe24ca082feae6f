package io.rowbridge.spark.python;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.spark.unsafe.Platform;

/**
 * A growable off-heap buffer of one record batch: {@code used} bytes written of its capacity, which
 * belongs to this buffer until {@link #close}; and the bit copies of validity bitmaps.
 */
final class BatchBuffer implements AutoCloseable {
  private final BufferAllocator allocator;
  private ArrowBuf buf;
  long used;

  BatchBuffer(BufferAllocator allocator) {
    this.allocator = allocator;
  }

  long address() {
    return buf.memoryAddress();
  }

  long capacity() {
    return buf == null ? 0 : buf.capacity();
  }

  /** Grows to at least {@code bytes}, keeping what was written. */
  void ensure(long bytes) {
    if (buf != null && buf.capacity() >= bytes) {
      return;
    }
    long size = Math.max(bytes, Math.max(64, 2 * capacity()));
    ArrowBuf grown = allocator.buffer(size);
    if (buf != null) {
      Platform.copyMemory(null, buf.memoryAddress(), null, grown.memoryAddress(), used);
      buf.close();
    }
    buf = grown;
  }

  ArrowBuf written() {
    if (buf == null) {
      ensure(0);
    }
    return buf.slice(0, used);
  }

  void reset() {
    used = 0;
  }

  @Override
  public void close() {
    if (buf != null) {
      buf.close();
      buf = null;
    }
  }

  static long bitBytes(long bits) {
    return (bits + 7) >>> 3;
  }

  /**
   * Copies bits {@code [from, from + count)} at {@code source} (0: all set) to {@code [to, to +
   * count)} of {@code target}, whose bits after them are left clear; returns how many of them are
   * clear.
   */
  static int copyBits(long source, int from, BatchBuffer target, int to, int count) {
    long written = bitBytes(to);
    long end = bitBytes(to + (long) count);
    target.ensure(end);
    target.used = end;
    long dst = target.address();
    // New bytes start clear, so that the bits after the last one are 0, as Arrow Java's are.
    Platform.setMemory(dst + written, (byte) 0, end - written);
    int clear = 0;
    int i = 0;
    if (source != 0 && (from & 7) == 0 && (to & 7) == 0) {
      int whole = count >>> 3;
      Platform.copyMemory(null, source + (from >>> 3), null, dst + (to >>> 3), whole);
      int j = 0;
      for (; j + 8 <= whole; j += 8) {
        clear += 64 - Long.bitCount(Platform.getLong(null, dst + (to >>> 3) + j));
      }
      for (; j < whole; j++) {
        clear += 8 - Integer.bitCount(Platform.getByte(null, dst + (to >>> 3) + j) & 0xff);
      }
      i = whole << 3;
    } else if (source == 0 && (to & 7) == 0) {
      int whole = count >>> 3;
      Platform.setMemory(dst + (to >>> 3), (byte) 0xff, whole);
      i = whole << 3;
    }
    for (; i < count; i++) {
      int bit = from + i;
      boolean set =
          source == 0 || (Platform.getByte(null, source + (bit >>> 3)) & (1 << (bit & 7))) != 0;
      int out = to + i;
      long at = dst + (out >>> 3);
      byte old = Platform.getByte(null, at);
      if (set) {
        Platform.putByte(null, at, (byte) (old | (1 << (out & 7))));
      } else {
        Platform.putByte(null, at, (byte) (old & ~(1 << (out & 7))));
        clear++;
      }
    }
    return clear;
  }
}
