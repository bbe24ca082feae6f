package io.rowbridge;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.unsafe.Platform;

/** Zeroed native memory blocks freed together by {@link #close}. Not thread-safe. */
final class NativeArena implements AutoCloseable {
  private final List<long[]> blocks = new ArrayList<>();

  /** Returns a zeroed block of at least {@code bytes} bytes, 8-byte aligned. */
  long allocate(long bytes) {
    long size = Math.max(8, (bytes + 7) & ~7L);
    long address = Platform.allocateMemory(size);
    Platform.setMemory(address, (byte) 0, size);
    blocks.add(new long[] {address, size});
    return address;
  }

  /** Copies {@code text} as a NUL-terminated UTF-8 string; returns its address. */
  long string(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    long address = allocate(bytes.length + 1L);
    Platform.copyMemory(bytes, Platform.BYTE_ARRAY_OFFSET, null, address, bytes.length);
    return address;
  }

  /**
   * Encodes field metadata as the C Data Interface does (int32 count, then each key and value as an
   * int32 length and bytes, native order); returns its address.
   */
  long metadata(Map<String, String> pairs) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuffer word = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder());
    out.writeBytes(word.putInt(0, pairs.size()).array());
    for (Map.Entry<String, String> pair : pairs.entrySet()) {
      for (String text : new String[] {pair.getKey(), pair.getValue()}) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.writeBytes(word.putInt(0, bytes.length).array());
        out.writeBytes(bytes);
      }
    }
    byte[] encoded = out.toByteArray();
    long address = allocate(encoded.length);
    Platform.copyMemory(encoded, Platform.BYTE_ARRAY_OFFSET, null, address, encoded.length);
    return address;
  }

  /** Bytes allocated and not yet freed. */
  long allocatedBytes() {
    long total = 0;
    for (long[] block : blocks) {
      total += block[1];
    }
    return total;
  }

  @Override
  public void close() {
    for (long[] block : blocks) {
      Platform.freeMemory(block[0]);
    }
    blocks.clear();
  }
}
