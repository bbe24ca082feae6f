package io.rowbridge;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes batches of Spark UnsafeRows (in native memory) as Arrow IPC, encoded by native workers:
 * each submitted batch is decoded to Arrow and encoded as a record batch message in the background,
 * at most {@code maxAhead} batches ahead of the thread that writes the messages out, whatever the
 * core count. Messages come out in submission order; a batch's error (a damaged row, naming the
 * field and the row) is thrown by the call that would have written it.
 *
 * <p>Ownership: the rows of a submitted batch are borrowed until its message was written (or
 * taken), or until {@link #close}; the caller keeps them unchanged until then. Used by one thread
 * at a time; {@link #cancel} from any thread.
 */
public final class NativeIpcWriter implements AutoCloseable {
  /** How record batch bodies are compressed. */
  public enum Codec {
    NONE(0),
    LZ4_FRAME(1),
    ZSTD(2);

    final int id;

    Codec(int id) {
      this.id = id;
    }

    /** The codec named none (or uncompressed), lz4 (or lz4_frame) or zstd, in any case. */
    public static Codec of(String name) {
      switch (name.trim().toLowerCase(Locale.ROOT)) {
        case "none":
        case "uncompressed":
          return NONE;
        case "lz4":
        case "lz4_frame":
          return LZ4_FRAME;
        case "zstd":
          return ZSTD;
        default:
          throw new IllegalArgumentException(
              "rowbridge: unknown compression '" + name + "' (none, lz4 or zstd)");
      }
    }
  }

  private static final int CHUNK = 1 << 20;

  private final NativeArena arena = new NativeArena();
  private final byte[] chunk = new byte[CHUNK];
  private long handle;
  private BooleanSupplier interrupted = () -> Thread.currentThread().isInterrupted();
  private boolean started;

  private NativeIpcWriter(
      Schema schema,
      Codec codec,
      int zstdLevel,
      int maxAhead,
      boolean streamFormat,
      boolean rowsInOneColumn) {
    if (maxAhead < 1) {
      throw new IllegalArgumentException("rowbridge: maxAhead must be at least 1, not " + maxAhead);
    }
    try {
      long schemaAddress = SchemaExporter.export(schema.getFields(), null, arena);
      handle =
          RowbridgeNative.writerCreate(
              schemaAddress, codec.id, zstdLevel, maxAhead, streamFormat, rowsInOneColumn);
    } catch (RuntimeException | Error e) {
      arena.close();
      throw e;
    }
  }

  /** A writer of an Arrow IPC file of batches of {@code schema}. */
  public static NativeIpcWriter create(Schema schema, Codec codec, int zstdLevel, int maxAhead) {
    return new NativeIpcWriter(schema, codec, zstdLevel, maxAhead, false, false);
  }

  /** A writer of an Arrow IPC stream (schema message, batches, end marker). */
  public static NativeIpcWriter createStream(
      Schema schema, Codec codec, int zstdLevel, int maxAhead) {
    return new NativeIpcWriter(schema, codec, zstdLevel, maxAhead, true, false);
  }

  /**
   * A writer of an Arrow IPC stream whose {@code schema} has one struct column: the rows are of
   * that column's fields, and each batch is written as the one column, without nulls (the layout in
   * which PySpark's map and grouped UDFs take a DataFrame).
   */
  public static NativeIpcWriter createStreamInOneColumn(
      Schema schema, Codec codec, int zstdLevel, int maxAhead) {
    return new NativeIpcWriter(schema, codec, zstdLevel, maxAhead, true, true);
  }

  /**
   * Sets the check a waiting call polls about every 100 ms; when it returns true the writer is
   * cancelled and the call throws a RowbridgeException (ECANCELED). Default: the thread's interrupt
   * flag.
   */
  public NativeIpcWriter interrupted(BooleanSupplier check) {
    this.interrupted = check;
    return this;
  }

  /**
   * Hands over the next batch: {@code numRows} rows, row i spanning [data + offsets[i], data +
   * offsets[i + 1]) with int64 offsets. Throws when {@code maxAhead} batches are pending: write one
   * out first.
   */
  public void submit(long dataAddress, long offsetsAddress, long numRows) {
    RowbridgeNative.writerSubmit(open(), dataAddress, offsetsAddress, numRows);
  }

  /** Batches submitted and not yet written out. */
  public long pending() {
    return RowbridgeNative.writerPending(open());
  }

  /**
   * Writes the encoded batches to {@code out} in order: those ready now, and with {@code wait} at
   * least one when any is pending. Writes the start of the output first on the first call. Returns
   * the number of batches written.
   */
  public int drainTo(OutputStream out, boolean wait) throws IOException {
    long h = open();
    writeStart(out);
    int written = 0;
    for (; ; ) {
      long size = RowbridgeNative.writerNext(h, wait && written == 0);
      if (size < 0) {
        if (!wait || written > 0 || RowbridgeNative.writerPending(h) == 0) {
          return written;
        }
        checkInterrupted();
        continue;
      }
      copyPiece(h, size, out);
      written++;
    }
  }

  /**
   * Writes the next batch's message to {@code out}, waiting for it, and nothing else (not the start
   * of the output); returns false, writing nothing, when no batch is pending.
   */
  public boolean writeOne(OutputStream out) throws IOException {
    long h = open();
    for (; ; ) {
      long size = RowbridgeNative.writerNext(h, true);
      if (size >= 0) {
        copyPiece(h, size, out);
        return true;
      }
      if (RowbridgeNative.writerPending(h) == 0) {
        return false;
      }
      checkInterrupted();
    }
  }

  /** Writes every pending batch, then the end of the output (a file's footer) to {@code out}. */
  public void finish(OutputStream out) throws IOException {
    long h = open();
    while (RowbridgeNative.writerPending(h) > 0) {
      drainTo(out, true);
    }
    writeStart(out);
    copyPiece(h, RowbridgeNative.writerFinish(h), out);
  }

  /** The start of the output (the schema message, after the magic for a file), as bytes. */
  public byte[] startBytes() {
    long h = open();
    started = true;
    return pieceBytes(h, RowbridgeNative.writerStart(h));
  }

  /**
   * The next batch's message as bytes (waiting for it when {@code wait}), or null when none is
   * ready or pending. For outputs whose messages travel apart (an RDD of record batches).
   */
  public byte[] takeMessage(boolean wait) {
    long h = open();
    for (; ; ) {
      long size = RowbridgeNative.writerNext(h, wait);
      if (size >= 0) {
        return pieceBytes(h, size);
      }
      if (!wait || RowbridgeNative.writerPending(h) == 0) {
        return null;
      }
      checkInterrupted();
    }
  }

  /** Native bytes of encoded messages the writer holds now. */
  public long bytesHeld() {
    return handle == 0 ? 0 : RowbridgeNative.writerBytesHeld(handle);
  }

  /** Stops the native workers at their next batch boundary. */
  public void cancel() {
    long h = handle;
    if (h != 0) {
      RowbridgeNative.writerCancel(h);
    }
  }

  /** Waits for the workers to leave every batch (the rows are then free) and frees the writer. */
  @Override
  public void close() {
    if (handle == 0) {
      return;
    }
    long h = handle;
    handle = 0;
    try {
      RowbridgeNative.writerFree(h);
    } finally {
      arena.close();
    }
  }

  private long open() {
    if (handle == 0) {
      throw new IllegalStateException("rowbridge: the writer is closed");
    }
    return handle;
  }

  private void writeStart(OutputStream out) throws IOException {
    if (!started) {
      started = true;
      copyPiece(handle, RowbridgeNative.writerStart(handle), out);
    }
  }

  private void checkInterrupted() {
    Interruption.check(
        interrupted, this::cancel, "rowbridge writer: interrupted while waiting for a batch");
  }

  private void copyPiece(long h, long size, OutputStream out) throws IOException {
    for (long offset = 0; offset < size; offset += CHUNK) {
      int length = (int) Math.min(CHUNK, size - offset);
      RowbridgeNative.writerCopy(h, offset, chunk, length);
      out.write(chunk, 0, length);
    }
  }

  private static byte[] pieceBytes(long h, long size) {
    if (size > Integer.MAX_VALUE - 8) {
      throw new RowbridgeException(
          "rowbridge writer: a message of " + size + " bytes does not fit a Java array",
          RowbridgeException.E2BIG);
    }
    byte[] bytes = new byte[(int) size];
    RowbridgeNative.writerCopy(h, 0, bytes, bytes.length);
    return bytes;
  }
}
