package io.rowbridge;

/** Field offsets of the Arrow C Data Interface structs on 64-bit platforms. */
final class CStructs {
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
  static final int SCHEMA_FORMAT = 0;
  static final int SCHEMA_NAME = 8;
  static final int SCHEMA_METADATA = 16;
  static final int SCHEMA_FLAGS = 24;
  static final int SCHEMA_N_CHILDREN = 32;
  static final int SCHEMA_CHILDREN = 40;
  static final int SCHEMA_DICTIONARY = 48;
  static final int SCHEMA_RELEASE = 56;
  static final int SCHEMA_PRIVATE_DATA = 64;
  static final int SCHEMA_SIZE = 72;

  // ArrowSchema.flags
  static final long FLAG_DICTIONARY_ORDERED = 1;
  static final long FLAG_NULLABLE = 2;
  static final long FLAG_MAP_KEYS_SORTED = 4;
}
