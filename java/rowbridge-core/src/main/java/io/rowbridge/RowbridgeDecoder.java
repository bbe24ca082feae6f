package io.rowbridge;

import java.util.Iterator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;

/**
 * Decodes Spark rows into Arrow Java vectors with the native row decoder.
 *
 * <p>Created once per schema. Rows are staged in native memory ({@link RowStaging}: one copy per
 * UnsafeRow, an UnsafeProjection for any other InternalRow) up to the batch caps of {@link
 * DecoderOptions}, then decoded by one JNI call with primitive arguments into one VectorSchemaRoot
 * that is reused batch after batch: {@link #root}. Its vectors' buffers grow when a batch needs
 * more and are otherwise reused, so in steady state nothing is allocated on the JVM per batch or
 * per row. A batch's vectors are valid until the next decode or close; {@link #decodeToNewRoot}
 * instead hands out a root of the caller's, at the cost of a few objects per batch.
 *
 * <p>The Arrow schema is {@link ArrowSchemas#of}: Spark's own {@code ArrowUtils.toArrowSchema},
 * timestamps carrying the session time zone. Every row is checked before any value is copied; a
 * damaged row is a {@link RowbridgeException} naming the field and the row in the batch, never a
 * read outside the rows. One thread at a time.
 */
public final class RowbridgeDecoder implements AutoCloseable {
  private final StructType sparkSchema;
  private final Schema arrowSchema;
  private final BufferAllocator allocator;
  private final NativeMemoryListener listener;
  private final NativeArena arena = new NativeArena();
  private final RowStaging staging;
  private final VectorSchemaRoot root;
  private final DecoderTargets targets;
  private long handle;
  private long vectorBytes;
  private InternalRow pending;

  private RowbridgeDecoder(
      StructType sparkSchema,
      String timeZoneId,
      BufferAllocator allocator,
      DecoderOptions options) {
    this.sparkSchema = sparkSchema;
    this.arrowSchema = ArrowSchemas.of(sparkSchema, timeZoneId);
    this.allocator = allocator;
    this.listener = options.memoryListener();
    VectorSchemaRoot created = null;
    RowStaging stagingCreated = null;
    try {
      long schema = SchemaExporter.export(arrowSchema.getFields(), null, arena);
      handle = RowbridgeNative.decoderCreate(schema);
      created = VectorSchemaRoot.create(arrowSchema, allocator);
      targets = new DecoderTargets(created, arena);
      int expected = RowbridgeNative.decoderTargets(handle);
      if (expected != targets.size()) {
        throw new RowbridgeException(
            "rowbridge: the decoder of "
                + sparkSchema.catalogString()
                + " has "
                + expected
                + " nodes, its vectors "
                + targets.size());
      }
      stagingCreated = new RowStaging(sparkSchema, options.maxRows(), options.maxBytes(), listener);
    } catch (RuntimeException | Error e) {
      if (created != null) {
        created.close();
      }
      RowbridgeNative.decoderFree(handle);
      handle = 0;
      arena.close();
      throw e;
    }
    this.root = created;
    this.staging = stagingCreated;
  }

  /**
   * A decoder of rows of {@code sparkSchema} into vectors allocated from {@code allocator}. {@code
   * timeZoneId} is the session time zone ({@code spark.sql.session.timeZone}), which TimestampType
   * columns carry.
   */
  public static RowbridgeDecoder create(
      StructType sparkSchema,
      String timeZoneId,
      BufferAllocator allocator,
      DecoderOptions options) {
    return new RowbridgeDecoder(sparkSchema, timeZoneId, allocator, options);
  }

  public StructType sparkSchema() {
    return sparkSchema;
  }

  public Schema arrowSchema() {
    return arrowSchema;
  }

  /** The reused root every decode fills; owned by the decoder, closed with it. */
  public VectorSchemaRoot root() {
    return root;
  }

  /** The staging buffer rows are added to (for callers that hand the rows on themselves). */
  public RowStaging staging() {
    return staging;
  }

  /**
   * Stages {@code row}; returns false (staging nothing) when the batch is full, after which the
   * caller decodes the batch and adds the row again.
   */
  public boolean add(InternalRow row) {
    checkOpen();
    return staging.add(row);
  }

  /** Rows staged and not yet decoded. */
  public int stagedRows() {
    return staging.numRows();
  }

  /** Decodes the staged rows into {@link #root} and empties the staging; returns the root. */
  public VectorSchemaRoot decode() {
    try {
      return decode(staging.dataAddress(), staging.offsetsAddress(), staging.numRows());
    } finally {
      staging.clear();
    }
  }

  /**
   * Decodes the next batch of {@code rows}: stages rows until a cap is reached or the rows end, and
   * decodes them into {@link #root}, whose row count is 0 once the rows are exhausted. A row that
   * did not fit is kept, unread, as the first of the next batch: pass the same iterator again, and
   * do not advance it in between.
   */
  public VectorSchemaRoot decodeNext(Iterator<? extends InternalRow> rows) {
    checkOpen();
    staging.clear();
    if (pending != null) {
      InternalRow first = pending;
      pending = null;
      staging.add(first); // an empty batch takes any one row
    }
    while (rows.hasNext()) {
      InternalRow row = rows.next();
      if (!staging.add(row)) {
        pending = row;
        break;
      }
    }
    return decode();
  }

  /**
   * Decodes {@code numRows} rows already in native memory, row i spanning {@code [data + offset[i],
   * data + offset[i + 1])} with int64 offsets at {@code offsetsAddress} (as the converter lays out
   * its rows), into {@link #root}. Borrows the rows for the call.
   */
  public VectorSchemaRoot decode(long dataAddress, long offsetsAddress, int numRows) {
    checkOpen();
    targets.lend();
    if (!RowbridgeNative.decodeInto(
        handle, dataAddress, offsetsAddress, numRows, targets.address(), targets.size())) {
      targets.grow();
      account();
      targets.lend();
      if (!RowbridgeNative.decodeInto(
          handle, dataAddress, offsetsAddress, numRows, targets.address(), targets.size())) {
        throw new RowbridgeException(
            "rowbridge: the vectors did not grow to the batch's size", RowbridgeException.ENOMEM);
      }
    }
    targets.publish(numRows);
    return root;
  }

  /**
   * Decodes the staged rows into a new root allocated from {@code into}, which the caller owns and
   * closes (the native buffers are then released through Arrow Java's allocator), and empties the
   * staging. Allocates the root, its vectors and the imported buffers' objects per batch; needs
   * arrow-c-data on the class path.
   */
  public VectorSchemaRoot decodeToNewRoot(BufferAllocator into) {
    checkOpen();
    try {
      return CDataImport.decode(
          into,
          arrowSchema,
          array ->
              RowbridgeNative.decodeToArray(
                  handle,
                  staging.dataAddress(),
                  staging.offsetsAddress(),
                  staging.numRows(),
                  array));
    } finally {
      staging.clear();
    }
  }

  /** Native bytes held: the staging buffer and the root's buffers. */
  public long reservedBytes() {
    return staging.reservedBytes() + vectorBytes;
  }

  private void account() {
    long held = targets.heldBytes();
    long grown = held - vectorBytes;
    vectorBytes = held;
    if (listener != null && grown > 0) {
      listener.acquire(grown);
    }
  }

  private void checkOpen() {
    if (handle == 0) {
      throw new IllegalStateException("rowbridge: the decoder is closed");
    }
  }

  @Override
  public void close() {
    if (handle == 0) {
      return;
    }
    RowbridgeNative.decoderFree(handle);
    handle = 0;
    pending = null;
    staging.close();
    root.close();
    arena.close();
    if (listener != null && vectorBytes > 0) {
      listener.release(vectorBytes);
    }
    vectorBytes = 0;
  }
}
