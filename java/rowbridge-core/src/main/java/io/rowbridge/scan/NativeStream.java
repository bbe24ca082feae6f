package io.rowbridge.scan;

import io.rowbridge.ArrowCData;
import io.rowbridge.CStructs;
import io.rowbridge.ConverterOptions;
import io.rowbridge.Interruption;
import java.util.Arrays;
import java.util.function.BooleanSupplier;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.unsafe.Platform;

/**
 * The native handle of one scan, shared by {@link ArrowScan} and {@link RowScan}: opening,
 * interruption polling, cancellation from any thread, statistics that survive close, close.
 */
final class NativeStream {
  private final Object lock = new Object();
  private final String path;
  private final BooleanSupplier interrupted;

  /** Guarded by lock; 0 once closed. */
  private long handle;

  /** Guarded by lock: consumer calls inside native code, and a close waiting for them. */
  private int active;

  private boolean closing;

  /** The statistics at close. */
  private final long[] closedStats = new long[ScanNative.STAT_COUNT];

  /** The schema of the scan, imported with arrow-c-data. */
  private Schema schema;

  private NativeStream(String path, BooleanSupplier interrupted, long handle) {
    this.path = path;
    this.interrupted = interrupted;
    this.handle = handle;
  }

  /**
   * Opens a scan of {@code path} and imports its schema (dictionaries into {@code dictionaries},
   * with ids Arrow Java assigns: the C Data Interface carries none). On failure nothing stays open
   * and {@code dictionaries} is closed.
   */
  static NativeStream openImported(
      ScanInput input,
      ScanOptions options,
      boolean rows,
      BufferAllocator allocator,
      CDataDictionaryProvider dictionaries,
      VectorSchemaRoot constants) {
    ArrowCData.require("the data source's scan");
    ArrowSchema cSchema = ArrowSchema.allocateNew(allocator);
    NativeStream opened = null;
    try {
      opened = open(input, options, rows, cSchema.memoryAddress(), constants, allocator);
      // releases cSchema
      opened.schema = SchemaImportError.importSchema(allocator, cSchema, dictionaries, opened.path);
      return opened;
    } catch (RuntimeException | Error e) {
      dictionaries.close();
      if (opened != null) {
        opened.close();
      }
      throw e;
    } finally {
      cSchema.close();
    }
  }

  Schema schema() {
    return schema;
  }

  /**
   * Opens a scan of {@code input}; its schema goes to the ArrowSchema at schemaAddress. A row scan
   * appends the columns of {@code constants} (one row; may be null) to every row; they are exported
   * through the C Data Interface with their vectors' allocator, and the stream holds their buffers
   * until it closes.
   */
  static NativeStream open(
      ScanInput input,
      ScanOptions options,
      boolean rows,
      long schemaAddress,
      VectorSchemaRoot constants,
      BufferAllocator allocator) {
    String path = input.path();
    if (path == null) {
      throw new IllegalArgumentException("rowbridge scan: no path (null)");
    }
    FilledFile filled = input.filled();
    if (filled != null && !Arrays.equals(filled.columns(), options.columnsUnsafe())) {
      throw new IllegalArgumentException(
          "rowbridge scan of "
              + path
              + ": the scan's columns differ from those the filled file was opened with");
    }
    if (constants != null && constants.getRowCount() != 1) {
      throw new IllegalArgumentException(
          "rowbridge scan: constant columns are one row, not " + constants.getRowCount());
    }
    long pathAddress = CStructs.allocateCString(path);
    int[] columns = options.columnsUnsafe();
    long columnsAddress = 0;
    ArrowSchema constantsSchema = null;
    ArrowArray constantsArray = null;
    try {
      if (constants != null) {
        // Exported from the vectors' own allocator: Arrow Java moves buffers within one root.
        BufferAllocator owner =
            constants.getFieldVectors().isEmpty()
                ? allocator
                : constants.getVector(0).getAllocator();
        constantsSchema = ArrowSchema.allocateNew(owner);
        constantsArray = ArrowArray.allocateNew(owner);
        Data.exportVectorSchemaRoot(owner, constants, null, constantsArray, constantsSchema);
      }
      if (columns != null && columns.length > 0) {
        columnsAddress = Platform.allocateMemory(4L * columns.length);
        Platform.copyMemory(
            columns, Platform.INT_ARRAY_OFFSET, null, columnsAddress, 4L * columns.length);
      }
      ConverterOptions converter = options.converterOptions();
      int validation = converter.validation() == ConverterOptions.Validation.FULL ? 1 : 0;
      long constantsSchemaAddress = constantsSchema == null ? 0 : constantsSchema.memoryAddress();
      long constantsArrayAddress = constantsArray == null ? 0 : constantsArray.memoryAddress();
      long handle =
          filled != null
              ? ScanNative.openImage(
                  filled.handle(),
                  options.firstBatch(),
                  options.batchCount(),
                  options.prefetch(),
                  options.inFlight(),
                  options.wakePeriodMillis(),
                  rows,
                  validation,
                  converter.maxChunkBytes(),
                  converter.variants(),
                  schemaAddress,
                  constantsSchemaAddress,
                  constantsArrayAddress)
              : ScanNative.open(
                  pathAddress,
                  columnsAddress,
                  columns == null ? -1 : columns.length,
                  options.firstBatch(),
                  options.batchCount(),
                  options.validateValues(),
                  options.prefetch(),
                  options.inFlight(),
                  options.wakePeriodMillis(),
                  rows,
                  validation,
                  converter.maxChunkBytes(),
                  converter.variants(),
                  schemaAddress,
                  constantsSchemaAddress,
                  constantsArrayAddress);
      return new NativeStream(path, options.interrupted(), handle);
    } finally {
      if (constantsArray != null) {
        constantsArray.release(); // a no-op once the stream took it
        constantsArray.close();
      }
      if (constantsSchema != null) {
        constantsSchema.release();
        constantsSchema.close();
      }
      Platform.freeMemory(pathAddress);
      if (columnsAddress != 0) {
        Platform.freeMemory(columnsAddress);
      }
    }
  }

  String path() {
    return path;
  }

  /**
   * The handle, for a consumer call into native code, which must end with {@link #exit}; a close
   * from another thread waits for it. Throws once the scan is closed or closing.
   */
  long enter() {
    synchronized (lock) {
      if (handle == 0 || closing) {
        throw new IllegalStateException("rowbridge scan of " + path + ": the scan is closed");
      }
      active++;
      return handle;
    }
  }

  void exit() {
    synchronized (lock) {
      if (--active == 0 && closing) {
        lock.notifyAll();
      }
    }
  }

  /**
   * Called when a wait for a batch reached a wake-up without one: polls the interruption check, and
   * cancels (then throws) when it says so.
   */
  void checkInterrupted() {
    Interruption.check(
        interrupted,
        this::cancel,
        "rowbridge scan of " + path + ": interrupted while waiting for a batch");
  }

  /** Opens the gate of an image scan to its first {@code count} batches; thread-safe. */
  void ready(long count) {
    synchronized (lock) {
      if (handle != 0) {
        ScanNative.ready(handle, count);
      }
    }
  }

  /** Cancels the scan; thread-safe, also during or after close. */
  void cancel() {
    synchronized (lock) {
      if (handle != 0) {
        ScanNative.cancel(handle);
      }
    }
  }

  long stat(int which) {
    synchronized (lock) {
      return handle == 0 ? closedStats[which] : ScanNative.stat(handle, which);
    }
  }

  /**
   * Closes the native scan, waiting for batches being decoded; idempotent. From another thread than
   * the consumer's, it cancels the scan and waits for a consumer call inside native code to return
   * first (the consumer then gets a cancellation or IllegalStateException); rows or vectors the
   * consumer still reads are not protected: close on the consumer's thread.
   */
  void close() {
    long closed;
    synchronized (lock) {
      if (handle == 0 || closing) {
        return;
      }
      closing = true;
      if (active > 0) {
        ScanNative.cancel(handle); // wakes a consumer waiting for a batch
      }
      boolean interrupted = false;
      while (active > 0) {
        try {
          lock.wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      for (int i = 0; i < closedStats.length; i++) {
        closedStats[i] = ScanNative.stat(handle, i);
      }
      closedStats[ScanNative.STAT_BYTES_HELD] = 0; // the close frees them
      closedStats[ScanNative.STAT_CONVERTER_BYTES] = 0;
      closed = handle;
      handle = 0;
    }
    ScanNative.close(closed);
  }
}
