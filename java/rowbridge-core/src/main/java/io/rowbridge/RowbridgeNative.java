package io.rowbridge;

/**
 * The entry points of librowbridge_jni.so. The Maven build compiles this class with {@code javac
 * -h}; src/jni implements the generated header. Every method takes and returns primitives only:
 * addresses are longs, and results are read from native memory at the RESULT_* offsets. Failures
 * throw {@link RowbridgeException}.
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
  static native long create(
      long schemaAddress,
      int validation,
      long maxChunkBytes,
      boolean variants,
      int kernels,
      int nestedWriter);

  /** Frees a converter; 0 is accepted. */
  static native void free(long handle);

  /** The Spark schema of the rows (StructType.catalogString), NUL-terminated, owned by handle. */
  static native long sparkSchemaAddress(long handle);

  /** The converter-owned ArrowArray tree that Java fills once per batch. */
  static native long registeredBatch(long handle);

  /** Converts the first chunk of the registered batch with numRows rows. */
  static native long convert(long handle, long numRows);

  /**
   * Converts the first chunk of the ArrowArray at arrayAddress (borrowed), with its own schema at
   * schemaAddress when not 0 (a column whose encoding differs from the converter's schema).
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
   * table at targetsAddress; false when a buffer is too small (the table says how large each must
   * be), true once decoded.
   */
  static native boolean decodeInto(
      long handle,
      long dataAddress,
      long offsetsAddress,
      long numRows,
      long targetsAddress,
      int numTargets);

  /** Decodes numRows rows into the empty ArrowArray at arrayAddress, which the caller owns. */
  static native void decodeToArray(
      long handle, long dataAddress, long offsetsAddress, long numRows, long arrayAddress);

  // The writer (src/jni/write_jni.cpp): the output comes as pieces (the start bytes, each
  // batch's message, the end bytes); writerStart, writerNext and writerFinish return the size of
  // the piece now in hand, which writerCopy moves into a Java array part by part.

  /**
   * A writer of batches of rows decoding to the ArrowSchema at schemaAddress (borrowed): codec 0
   * none, 1 LZ4_FRAME, 2 ZSTD; at most maxAhead batches submitted and not taken. With
   * rowsInOneColumn the schema has one struct column, whose fields the rows decode to, and each
   * batch is written as that one column.
   */
  static native long writerCreate(
      long schemaAddress,
      int codec,
      int zstdLevel,
      int maxAhead,
      boolean streamFormat,
      boolean rowsInOneColumn);

  /** Frees a writer after waiting for its workers to leave the rows; 0 is accepted. */
  static native void writerFree(long handle);

  /** Makes the bytes that open the output the piece in hand; returns its size. */
  static native long writerStart(long handle);

  /** Hands over a batch of rows, borrowed until its message was taken (next) or free. */
  static native void writerSubmit(long handle, long dataAddress, long offsetsAddress, long numRows);

  /**
   * Makes the oldest batch's message the piece in hand and returns its size, or -1 when it is not
   * ready (waiting up to one wake period with wait) or nothing is pending. Throws the batch's
   * error.
   */
  static native long writerNext(long handle, boolean wait);

  /** Makes the bytes that close the output the piece in hand; returns its size. */
  static native long writerFinish(long handle);

  /** Copies bytes [offset, offset + length) of the piece in hand to target[0, length). */
  static native void writerCopy(long handle, long offset, byte[] target, int length);

  /** Batches submitted and not yet taken. */
  static native long writerPending(long handle);

  /** Native bytes of encoded messages the writer holds now. */
  static native long writerBytesHeld(long handle);

  /** Stops the workers at their next batch boundary; thread-safe. */
  static native void writerCancel(long handle);
}
