package io.rowbridge.scan;

import io.rowbridge.ArrowCData;
import io.rowbridge.CStructs;
import io.rowbridge.RowbridgeException;
import java.nio.ByteBuffer;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.unsafe.Platform;

/**
 * An Arrow IPC file that the caller reads itself (through Hadoop's FileSystem, say) into native
 * memory the scan decodes in place: an image of the whole file, whose pages are committed only as
 * ranges are written into it. The caller writes the file's head and footer, {@link #open}s it to
 * learn its layout, then writes each record batch's ranges ({@link #batchRanges}: its metadata and
 * only the selected columns' buffers) and tells the scan ({@link ScanBase#batchesReady}); the scan
 * gives a batch's pages back once the batch is released.
 *
 * <p>Thread-safe: one thread may write while another consumes the scan. {@link #write} copies under
 * this object's lock; a read straight into the image ({@link #beginWrite}) holds the image until
 * {@link #endWrite}, even across {@link #close}. The image itself lives until its scan and every
 * batch imported from it are closed.
 */
public final class FilledFile implements AutoCloseable {
  private final String name;
  private final long size;

  /** Guarded by this; 0 once freed. */
  private long handle;

  /** Guarded by this: writes in progress through beginWrite, and a close waiting for them. */
  private int writers;

  private boolean closing;
  private int[] columns;

  private FilledFile(String name, long size, long handle) {
    this.name = name;
    this.size = size;
    this.handle = handle;
  }

  /** Reserves the image of the file {@code name} (for errors) of {@code size} bytes. */
  public static FilledFile create(String name, long size) {
    if (size <= 0) {
      throw new RowbridgeException(
          "rowbridge: " + name + " is empty (" + size + " bytes), not an Arrow IPC file",
          RowbridgeException.EINVAL);
    }
    return new FilledFile(name, size, ScanNative.imageCreate(size));
  }

  public String name() {
    return name;
  }

  public long size() {
    return size;
  }

  /**
   * Copies {@code data} (from its position to its limit) to {@code offset} of the image. Returns
   * false, writing nothing, once the file is closed.
   */
  public synchronized boolean write(long offset, ByteBuffer data) {
    if (handle == 0 || closing) {
      return false;
    }
    ByteBuffer target = ScanNative.imageBuffer(handle, offset, data.remaining());
    target.put(data.duplicate());
    return true;
  }

  /**
   * A direct buffer over {@code [offset, offset + length)} of the image, for a read straight into
   * it (no copy); null once the file is closed. The image stays mapped until {@link #endWrite},
   * which the caller must call after, also when the read fails.
   */
  public synchronized ByteBuffer beginWrite(long offset, int length) {
    if (handle == 0 || closing) {
      return null;
    }
    ByteBuffer target = ScanNative.imageBuffer(handle, offset, length);
    writers++;
    return target;
  }

  /** Ends a {@link #beginWrite}; frees the handle if a close waited for it. */
  public synchronized void endWrite() {
    if (--writers == 0 && closing) {
      free();
    }
  }

  /**
   * Counts {@code bytes} written for record batch {@code batch} (-1: head, footer, dictionaries).
   */
  public synchronized void filled(long batch, long bytes) {
    ScanNative.imageFilled(checked(), batch, bytes);
  }

  /** Bytes written and not yet given back: what the image holds in memory now. */
  public synchronized long residentBytes() {
    return handle == 0 || closing ? 0 : ScanNative.imageResident(handle);
  }

  /**
   * Opens the written head and footer (a stream-format file: the whole file) as an IPC input whose
   * scans read {@code columns} (null: all). Returns the layout and the whole file's schema.
   */
  public synchronized FileLayout open(int[] columns, boolean validateValues) {
    ArrowCData.require("reading the schema of " + name);
    long address = 0;
    long pathAddress = CStructs.allocateCString(name);
    BufferAllocator allocator = NativeScan.SchemaAllocator.get();
    ArrowSchema schema = ArrowSchema.allocateNew(allocator);
    try {
      if (columns != null && columns.length > 0) {
        address = Platform.allocateMemory(4L * columns.length);
        Platform.copyMemory(columns, Platform.INT_ARRAY_OFFSET, null, address, 4L * columns.length);
      }
      long[] layout =
          ScanNative.imageOpen(
              checked(),
              pathAddress,
              address,
              columns == null ? -1 : columns.length,
              validateValues,
              schema.memoryAddress());
      Schema arrowSchema;
      try (CDataDictionaryProvider dictionaries = new CDataDictionaryProvider()) {
        arrowSchema = SchemaImportError.importSchema(allocator, schema, dictionaries, name);
      }
      this.columns = columns == null ? null : columns.clone();
      return FileLayout.of(layout, arrowSchema, size);
    } finally {
      schema.close();
      Platform.freeMemory(pathAddress);
      if (address != 0) {
        Platform.freeMemory(address);
      }
    }
  }

  /**
   * The byte ranges record batch {@code batch} needs, as {offset, length} pairs in file order: its
   * metadata, which must be written already, and the selected columns' buffers.
   */
  public synchronized long[] batchRanges(int batch) {
    return ScanNative.imageBatchRanges(checked(), batch);
  }

  /** The columns {@link #open} selected (null: all). */
  synchronized int[] columns() {
    return columns;
  }

  synchronized long handle() {
    return checked();
  }

  private long checked() {
    if (handle == 0 || closing) {
      throw new IllegalStateException("rowbridge: the image of " + name + " is closed");
    }
    return handle;
  }

  /**
   * Frees the handle (after the reads still writing into the image end); a scan of the file keeps
   * the image until it closes. Idempotent.
   */
  @Override
  public synchronized void close() {
    closing = true;
    if (writers == 0) {
      free();
    }
  }

  private void free() {
    if (handle != 0) {
      ScanNative.imageFree(handle);
      handle = 0;
    }
  }
}
