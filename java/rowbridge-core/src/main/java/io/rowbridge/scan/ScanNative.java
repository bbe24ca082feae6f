package io.rowbridge.scan;

import io.rowbridge.NativeLibrary;

/**
 * The scan entry points of librowbridge_jni.so (src/jni/scan_jni.cpp). The Maven build compiles
 * this class with {@code javac -h}, so the C signatures cannot drift. Primitives only: a path or
 * an index list is written into native memory by Java and passed as an address; results are read
 * from native memory at the RESULT_* offsets. Failures throw {@link io.rowbridge.RowbridgeException}
 * with the native message.
 */
final class ScanNative {
  /** What nextArray and nextRows return. */
  static final int END = 0;
  static final int BATCH = 1;
  static final int NOT_YET = 2;

  /** Offsets of the fields of the rows result (result(handle)). */
  static final int RESULT_DATA = 0;
  static final int RESULT_ROW_OFFSETS = 8;
  static final int RESULT_NUM_ROWS = 16;

  /** The statistics of stat(handle, which). */
  static final int STAT_BATCHES = 0;
  static final int STAT_INPUT_BYTES = 1;
  static final int STAT_WAIT_NANOS = 2;
  static final int STAT_PRODUCE_NANOS = 3;
  static final int STAT_MAX_BATCHES_HELD = 4;
  /** Native bytes the stream holds now (an atomic read, no lock); 0 once closed. */
  static final int STAT_BYTES_HELD = 5;
  /** What the converter of the batch in hand holds (row scans; the consumer's thread). */
  static final int STAT_CONVERTER_BYTES = 6;
  static final int STAT_COUNT = 7;

  static {
    NativeLibrary.load();
  }

  private ScanNative() {}

  /** Sizes the process-wide worker pool (once; the same size again is a no-op). */
  static native void initPool(int threads);

  /** The size of the process-wide worker pool, starting it (one thread per core) if needed. */
  static native int poolSize();

  /** The process-wide pool's workers running a batch now. */
  static native int poolBusy();

  /**
   * Reads the footer of the IPC input at the NUL-terminated UTF-8 path at pathAddress; exports
   * its schema into the ArrowSchema at schemaAddress (0: not wanted). Returns the address of
   * longs [format, input bytes, batches, then per batch: rows, body bytes, uncompressed bytes,
   * message offset, message bytes], freed by freeInspect.
   */
  static native long inspect(long pathAddress, long schemaAddress);

  static native void freeInspect(long address);

  /**
   * Opens a scan: numColumns -1 for every column, else the int32 indices at columnsAddress; the
   * batches [firstBatch, firstBatch + batchCount) (batchCount -1: to the end). rows: convert to
   * UnsafeRows in the workers (validation and maxChunkBytes as the converter's). Exports the
   * schema of the scan (after projection) into the ArrowSchema at schemaAddress. A row scan
   * given the ArrowSchema and ArrowArray of a struct of one row (constantsSchemaAddress and
   * constantsArrayAddress, else 0) appends its columns to every row; it moves both (leaving them
   * released), also when it fails. Returns the handle, freed by close.
   */
  static native long open(long pathAddress, long columnsAddress, int numColumns, long firstBatch,
      long batchCount, boolean validateValues, int prefetch, int inFlight, int wakeMillis,
      boolean rows, int validation, long maxChunkBytes, long schemaAddress,
      long constantsSchemaAddress, long constantsArrayAddress);

  /**
   * Moves the next batch into the ArrowArray at arrayAddress (uninitialized): BATCH, END, or
   * NOT_YET when none was ready within one wake period.
   */
  static native int nextArray(long handle, long arrayAddress);

  /** Takes the next batch of rows (its first chunk, at result(handle)): BATCH, END or NOT_YET. */
  static native int nextRows(long handle);

  /** Converts the next chunk of the current batch on this thread; returns its rows (0: none). */
  static native long nextChunk(long handle);

  /** The address of the rows result, stable for the handle's life. */
  static native long result(long handle);

  static native long stat(long handle, int which);

  /** Cancels the scan; thread-safe, must not race with close. */
  static native void cancel(long handle);

  /** Closes the scan (waits for batches being produced) and frees the handle. */
  static native void close(long handle);
}
