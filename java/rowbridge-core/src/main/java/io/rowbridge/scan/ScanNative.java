package io.rowbridge.scan;

import io.rowbridge.NativeLibrary;

/**
 * The scan entry points of librowbridge_jni.so (src/jni/scan_jni.cpp). The Maven build compiles
 * this class with {@code javac -h}, so the C signatures cannot drift. Primitives only: a path or an
 * index list is written into native memory by Java and passed as an address; results are read from
 * native memory at the RESULT_* offsets. Failures throw {@link io.rowbridge.RowbridgeException}
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
   * Reads the footer of the IPC input at the NUL-terminated UTF-8 path at pathAddress; exports its
   * schema into the ArrowSchema at schemaAddress (0: not wanted). Returns the address of longs
   * [format, input bytes, batches, then per batch: rows, body bytes, uncompressed bytes, message
   * offset, message bytes], freed by freeInspect.
   */
  static native long inspect(long pathAddress, long schemaAddress);

  static native void freeInspect(long address);

  /**
   * Opens a scan: numColumns -1 for every column, else the int32 indices at columnsAddress; the
   * batches [firstBatch, firstBatch + batchCount) (batchCount -1: to the end). rows: convert to
   * UnsafeRows in the workers (validation, maxChunkBytes and variants as the converter's). Exports
   * the schema of the scan (after projection) into the ArrowSchema at schemaAddress. A row scan
   * given the ArrowSchema and ArrowArray of a struct of one row (constantsSchemaAddress and
   * constantsArrayAddress, else 0) appends its columns to every row; it moves both (leaving them
   * released), also when it fails. Returns the handle, freed by close.
   */
  static native long open(
      long pathAddress,
      long columnsAddress,
      int numColumns,
      long firstBatch,
      long batchCount,
      boolean validateValues,
      int prefetch,
      int inFlight,
      int wakeMillis,
      boolean rows,
      int validation,
      long maxChunkBytes,
      boolean variants,
      long schemaAddress,
      long constantsSchemaAddress,
      long constantsArrayAddress);

  /**
   * Reserves the image of a file of {@code size} bytes that Java fills with what it reads (through
   * Hadoop); unwritten bytes read as zeros. Returns its handle, freed by imageFree.
   */
  static native long imageCreate(long size);

  /** A direct buffer over {@code [offset, offset + length)} of the image, to write into. */
  static native java.nio.ByteBuffer imageBuffer(long image, long offset, int length);

  /**
   * Counts {@code bytes} written for record batch {@code batch} (-1: head, footer, dictionaries).
   */
  static native void imageFilled(long image, long batch, long bytes);

  /** The bytes written into the image and not yet given back (batches released). */
  static native long imageResident(long image);

  /**
   * Opens the image, whose first 8 bytes and footer (a stream: all of it) are written, as an IPC
   * input named by the path at pathAddress, reading the columns at columnsAddress (numColumns -1:
   * all). Exports the whole file's schema into schemaAddress (0: not wanted). Returns {format (1
   * file, 2 stream)} and, for a file: {footer offset, dictionaries, (offset, bytes) of each,
   * batches, (offset, metadata bytes, body bytes) of each}.
   */
  static native long[] imageOpen(
      long image,
      long pathAddress,
      long columnsAddress,
      int numColumns,
      boolean validateValues,
      long schemaAddress);

  /**
   * The byte ranges record batch {@code batch} needs, as {offset, length} pairs, sorted: its
   * metadata (which must be written already) and its selected columns' buffers.
   */
  static native long[] imageBatchRanges(long image, long batch);

  /** Frees the handle; the image lives on while a scan or an imported array points into it. */
  static native void imageFree(long image);

  /**
   * As open, over an image imageOpen opened (its column selection applies). A file's batches are
   * produced only as ready() allows; a stream must be written whole.
   */
  static native long openImage(
      long image,
      long firstBatch,
      long batchCount,
      int prefetch,
      int inFlight,
      int wakeMillis,
      boolean rows,
      int validation,
      long maxChunkBytes,
      boolean variants,
      long schemaAddress,
      long constantsSchemaAddress,
      long constantsArrayAddress);

  /** The first {@code count} batches of an image scan (from its first batch) are written. */
  static native void ready(long handle, long count);

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
