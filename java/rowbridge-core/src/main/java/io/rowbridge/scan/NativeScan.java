package io.rowbridge.scan;

import io.rowbridge.ArrowCData;
import io.rowbridge.CStructs;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.unsafe.Platform;

/**
 * Scans of Arrow IPC files (file or stream format; uncompressed, LZ4_FRAME or ZSTD bodies) decoded
 * in parallel by the native library's worker pool, behind a bounded prefetch stream: at most K
 * decoded batches wait ahead of the consumer and at most W are decoded at once, whatever the number
 * of cores. Needs arrow-c-data on the class path (it imports the schema, and the batches of an
 * {@link ArrowScan}).
 */
public final class NativeScan {
  private NativeScan() {}

  /**
   * Sizes the process-wide worker pool. The pool is sized once: by this call, or by the first scan
   * (one thread per core). The same size again is a no-op; another size throws {@link
   * io.rowbridge.RowbridgeException}.
   */
  public static void initPool(int threads) {
    ScanNative.initPool(threads);
  }

  /**
   * The number of threads of the process-wide worker pool; starts it with one thread per core when
   * neither {@link #initPool} nor a scan has yet.
   */
  public static int poolSize() {
    return ScanNative.poolSize();
  }

  /**
   * The process-wide worker pool's threads decoding or converting a batch now (0 when no stream has
   * work in flight); starts the pool if it was not running.
   */
  public static int busyWorkers() {
    return ScanNative.poolBusy();
  }

  /** Reads the footer of the IPC input at {@code path}: schema, batches, their sizes and rows. */
  public static IpcFileInfo inspect(String path) {
    if (path == null) {
      throw new IllegalArgumentException("rowbridge inspect: no path (null)");
    }
    ArrowCData.require("reading the schema of " + path);
    BufferAllocator allocator = SchemaAllocator.get();
    long pathAddress = CStructs.allocateCString(path);
    ArrowSchema schema = ArrowSchema.allocateNew(allocator);
    long info = 0;
    try {
      info = ScanNative.inspect(pathAddress, schema.memoryAddress());
      Schema arrowSchema;
      try (CDataDictionaryProvider dictionaries = new CDataDictionaryProvider()) {
        arrowSchema = SchemaImportError.importSchema(allocator, schema, dictionaries, path);
      }
      boolean fileFormat = Platform.getLong(null, info) == 1;
      long inputBytes = Platform.getLong(null, info + 8);
      int count = Math.toIntExact(Platform.getLong(null, info + 16));
      long[] rows = new long[count];
      long[] body = new long[count];
      long[] uncompressed = new long[count];
      long[] offsets = new long[count];
      long[] messageBytes = new long[count];
      for (int i = 0; i < count; i++) {
        long at = info + 24 + 40L * i;
        rows[i] = Platform.getLong(null, at);
        body[i] = Platform.getLong(null, at + 8);
        uncompressed[i] = Platform.getLong(null, at + 16);
        offsets[i] = Platform.getLong(null, at + 24);
        messageBytes[i] = Platform.getLong(null, at + 32);
      }
      return new IpcFileInfo(
          arrowSchema, fileFormat, inputBytes, rows, body, uncompressed, offsets, messageBytes);
    } finally {
      schema.close();
      Platform.freeMemory(pathAddress);
      if (info != 0) {
        ScanNative.freeInspect(info);
      }
    }
  }

  /**
   * Opens a scan of {@code path} as Arrow record batches, imported into Arrow Java vectors
   * allocated from {@code allocator} (which also accounts for them).
   */
  public static ArrowScan openArrow(String path, ScanOptions options, BufferAllocator allocator) {
    return new ArrowScan(
        ScanInput.local(path), options == null ? ScanOptions.defaults() : options, allocator);
  }

  /**
   * Opens a scan of a file the caller fills, as {@link #openArrow(String, ScanOptions,
   * BufferAllocator)}. {@code options} must select the columns {@link FilledFile#open} did; a
   * file-format file's batches are decoded only as {@link ScanBase#batchesReady} allows.
   */
  public static ArrowScan openArrow(
      FilledFile file, ScanOptions options, BufferAllocator allocator) {
    return new ArrowScan(
        ScanInput.of(file), options == null ? ScanOptions.defaults() : options, allocator);
  }

  /**
   * Opens a row scan of a file the caller fills; see {@link #openArrow(FilledFile, ScanOptions,
   * BufferAllocator)}.
   */
  public static RowScan openRows(FilledFile file, ScanOptions options, VectorSchemaRoot constants) {
    return new RowScan(
        ScanInput.of(file), options == null ? ScanOptions.defaults() : options, constants);
  }

  /** Opens a scan of {@code path} whose batches the stream's workers convert to UnsafeRows. */
  public static RowScan openRows(String path, ScanOptions options) {
    return openRows(path, options, null);
  }

  /**
   * Opens a scan of {@code path} as UnsafeRows whose last columns are those of {@code constants}:
   * one row of values (a partition's), written into every row by the native conversion. The scan
   * exports them through the C Data Interface and holds their buffers until it closes; the caller
   * keeps (and closes) the root.
   */
  public static RowScan openRows(String path, ScanOptions options, VectorSchemaRoot constants) {
    return new RowScan(
        ScanInput.local(path), options == null ? ScanOptions.defaults() : options, constants);
  }

  /** The allocator of the schemas that inspect and row scans import (a few bytes, briefly). */
  static final class SchemaAllocator {
    private static final BufferAllocator ALLOCATOR = new RootAllocator();

    private SchemaAllocator() {}

    static BufferAllocator get() {
      return ALLOCATOR;
    }
  }
}
