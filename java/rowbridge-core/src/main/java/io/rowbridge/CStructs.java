package io.rowbridge;

import java.nio.charset.StandardCharsets;
import org.apache.spark.unsafe.Platform;

/**
 * Field offsets of the Arrow C Data Interface structs on 64-bit platforms, and the C strings they
 * point at. Public for rowbridge's own packages only; not an API.
 */
public final class CStructs {
  private CStructs() {}

  // struct ArrowArray
  static final int ARRAY_LENGTH = 0;
  static final int ARRAY_NULL_COUNT = 8;
  static final int ARRAY_OFFSET = 16;
  static final int ARRAY_N_BUFFERS = 24;
  static final int ARRAY_N_CHILDREN = 32;
  static final int ARRAY_BUFFERS = 40;
  static final int ARRAY_CHILDREN = 48;
  static final int ARRAY_DICTIONARY = 56;
  static final int ARRAY_RELEASE = 64;
  static final int ARRAY_PRIVATE_DATA = 72;
  static final int ARRAY_SIZE = 80;

  // struct ArrowSchema
  public static final int SCHEMA_FORMAT = 0;
  public static final int SCHEMA_NAME = 8;
  static final int SCHEMA_METADATA = 16;
  static final int SCHEMA_FLAGS = 24;
  public static final int SCHEMA_N_CHILDREN = 32;
  public static final int SCHEMA_CHILDREN = 40;
  static final int SCHEMA_DICTIONARY = 48;
  static final int SCHEMA_RELEASE = 56;
  static final int SCHEMA_PRIVATE_DATA = 64;
  static final int SCHEMA_SIZE = 72;

  // ArrowSchema.flags
  static final long FLAG_DICTIONARY_ORDERED = 1;
  static final long FLAG_NULLABLE = 2;
  static final long FLAG_MAP_KEYS_SORTED = 4;

  /**
   * Reads the NUL-terminated UTF-8 string at {@code address}, of at most {@code maxBytes} bytes
   * (longer ones are cut there); "" for address 0. Borrows the memory.
   */
  public static String readCString(long address, int maxBytes) {
    if (address == 0) {
      return "";
    }
    int length = 0;
    while (length < maxBytes && Platform.getByte(null, address + length) != 0) {
      length++;
    }
    byte[] bytes = new byte[length];
    Platform.copyMemory(null, address, bytes, Platform.BYTE_ARRAY_OFFSET, length);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /**
   * Copies {@code text} into newly allocated native memory as NUL-terminated UTF-8; the caller owns
   * it and frees it with {@code Platform.freeMemory}.
   */
  public static long allocateCString(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    long address = Platform.allocateMemory(bytes.length + 1L);
    Platform.copyMemory(bytes, Platform.BYTE_ARRAY_OFFSET, null, address, bytes.length);
    Platform.putByte(null, address + bytes.length, (byte) 0);
    return address;
  }
}
