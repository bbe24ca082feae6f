package io.rowbridge;

/**
 * The entry points of librowbridge_jni.so. The Maven build compiles this class with {@code
 * javac -h}; src/jni implements the generated header. Every method takes and returns primitives
 * only: addresses are longs, and results are read from native memory at the RESULT_* offsets.
 * Failures throw {@link RowbridgeException}.
 */
final class RowbridgeNative {
  /** Offsets of the fields of the result struct that convert, convertArray and nextChunk return. */
  static final int RESULT_DATA = 0;
  static final int RESULT_ROW_OFFSETS = 8;
  static final int RESULT_NUM_ROWS = 16;
  static final int RESULT_FIRST_ROW = 24;
  static final int RESULT_DATA_SIZE = 32;

  static final int VALIDATION_CHEAP = 0;
  static final int VALIDATION_FULL = 1;

  static {
    NativeLibrary.load();
  }

  private RowbridgeNative() {}

  /** The library version, a NUL-terminated string in static storage. */
  static native long versionAddress();

  /** An ArrowSchema release callback that does nothing, for the schemas Java writes. */
  static native long releaseSchemaNothingAddress();

  /** An ArrowArray release callback that does nothing, for the arrays Java writes. */
  static native long releaseArrayNothingAddress();

  /** Creates a converter for batches of the ArrowSchema at schemaAddress (borrowed). */
  static native long create(long schemaAddress, int validation, long maxChunkBytes);

  /** Frees a converter; 0 is accepted. */
  static native void free(long handle);

  /** The Spark schema of the rows (StructType.catalogString), NUL-terminated, owned by handle. */
  static native long sparkSchemaAddress(long handle);

  /** The converter-owned ArrowArray tree that Java fills once per batch. */
  static native long registeredBatch(long handle);

  /** Converts the first chunk of the registered batch with numRows rows. */
  static native long convert(long handle, long numRows);

  /**
   * Converts the first chunk of the ArrowArray at arrayAddress (borrowed), with its own schema
   * at schemaAddress when not 0 (a column whose encoding differs from the converter's schema).
   */
  static native long convertArray(long handle, long arrayAddress, long schemaAddress);

  /** Converts the next chunk of the current batch; the result has 0 rows after the last one. */
  static native long nextChunk(long handle);

  /** Creates a row decoder for rows decoding to the ArrowSchema at schemaAddress (borrowed). */
  static native long decoderCreate(long schemaAddress);

  /** Frees a row decoder; 0 is accepted. */
  static native void decoderFree(long handle);

  /** The number of DecodeTarget nodes of the decoder's output schema. */
  static native int decoderTargets(long handle);

  /**
   * Decodes numRows rows (int64 offsets at offsetsAddress) into the buffers of the DecodeTarget
   * table at targetsAddress; false when a buffer is too small (the table says how large each
   * must be), true once decoded.
   */
  static native boolean decodeInto(long handle, long dataAddress, long offsetsAddress,
      long numRows, long targetsAddress, int numTargets);

  /** Decodes numRows rows into the empty ArrowArray at arrayAddress, which the caller owns. */
  static native void decodeToArray(long handle, long dataAddress, long offsetsAddress,
      long numRows, long arrayAddress);
}
