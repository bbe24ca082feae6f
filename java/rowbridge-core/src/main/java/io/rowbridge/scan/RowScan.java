package io.rowbridge.scan;

import io.rowbridge.SparkTypes;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.Platform;

/**
 * A scan of an Arrow IPC file as Spark UnsafeRows, for one consumer thread. The stream's native
 * workers decode each batch and convert it to rows (byte for byte what Spark's UnsafeProjection
 * writes), so a batch's rows are ready when the consumer asks. A batch whose rows exceed the
 * converter's maxChunkBytes comes in several chunks: the first converted by the worker, the others
 * by the consumer's thread when it asks for them.
 *
 * <p>{@link #nextBatch} moves to the next chunk, {@link #next}/{@link #row} walk its rows. The row
 * is one reused UnsafeRow pointing into native memory, valid until the next row, chunk or close
 * (Spark's contract; {@code ConverterOptions.copyRows(true)} hands out copies); after close it
 * points at zeroed heap memory. Errors, cancellation and close behave as {@link ArrowScan}'s.
 */
public final class RowScan extends ScanBase {
  private final StructType sparkSchema;
  private final Schema arrowSchema;
  private final boolean copyRows;
  private final UnsafeRow row;
  private final byte[] closedRow;
  private final long result;

  private boolean inBatch;
  private long dataAddress;
  private long offsetsAddress;
  private int chunkRows;
  private int index;

  RowScan(ScanInput input, ScanOptions options, VectorSchemaRoot constants) {
    this(input, options, new CDataDictionaryProvider(), constants);
  }

  private RowScan(
      ScanInput input,
      ScanOptions options,
      CDataDictionaryProvider dictionaries,
      VectorSchemaRoot constants) {
    super(
        NativeStream.openImported(
            input, options, true, NativeScan.SchemaAllocator.get(), dictionaries, constants));
    StructType spark;
    try {
      spark = SparkTypes.of(stream.schema().getFields(), dictionaries);
      if (constants != null) {
        for (StructField field : SparkTypes.of(constants.getSchema().getFields(), null).fields()) {
          spark = spark.add(field);
        }
      }
    } catch (RuntimeException | Error e) {
      stream.close();
      throw e;
    } finally {
      dictionaries.close();
    }
    this.arrowSchema = stream.schema();
    this.sparkSchema = spark;
    this.copyRows = options.converterOptions().copyRows();
    int columns = spark.size();
    this.row = new UnsafeRow(columns);
    this.closedRow = new byte[UnsafeRow.calculateBitSetWidthInBytes(columns) + 8 * columns + 8];
    long handle = stream.enter();
    try {
      this.result = ScanNative.result(handle);
    } finally {
      stream.exit();
    }
    pointAtClosedRow();
  }

  /** The Spark schema of the rows (CONTRACTS.md §2 of the Arrow schema, after projection). */
  public StructType sparkSchema() {
    return sparkSchema;
  }

  /** The Arrow schema the rows come from (after projection). */
  public Schema arrowSchema() {
    return arrowSchema;
  }

  /**
   * Moves to the next chunk of rows: the next chunk of the current batch when it has more, else the
   * first chunk of the next batch (waiting for it if needed, polling the interruption check at
   * every wake-up). False at the end.
   */
  public boolean nextBatch() {
    return advance();
  }

  @Override
  boolean nextInBatch(long handle) {
    if (!inBatch) {
      return false;
    }
    if (ScanNative.nextChunk(handle) > 0) {
      readResult();
      return true;
    }
    inBatch = false;
    return false;
  }

  @Override
  int pollNext(long handle) {
    int status = ScanNative.nextRows(handle);
    if (status == ScanNative.BATCH) {
      inBatch = true;
      readResult();
    }
    return status;
  }

  @Override
  void onEnd() {
    chunkRows = 0;
    index = 0;
  }

  private void readResult() {
    dataAddress = Platform.getLong(null, result + ScanNative.RESULT_DATA);
    offsetsAddress = Platform.getLong(null, result + ScanNative.RESULT_ROW_OFFSETS);
    chunkRows = (int) Platform.getLong(null, result + ScanNative.RESULT_NUM_ROWS);
    index = -1;
  }

  /**
   * Native bytes the converter of the current batch holds (its row buffers and scratch, kept for
   * reuse), also after a chunk made it grow: part of {@link #bytesHeld()}; 0 before the first batch
   * and after close. On the consumer's thread.
   */
  public long converterBytes() {
    return stream.stat(ScanNative.STAT_CONVERTER_BYTES);
  }

  /** The rows of the current chunk. */
  public int numRows() {
    return chunkRows;
  }

  /** Moves to the next row of the current chunk; false after its last. */
  public boolean next() {
    if (index + 1 >= chunkRows) {
      index = chunkRows;
      return false;
    }
    index++;
    long start = Platform.getLong(null, offsetsAddress + 8L * index);
    long end = Platform.getLong(null, offsetsAddress + 8L * index + 8);
    row.pointTo(null, dataAddress + start, (int) (end - start));
    return true;
  }

  /** The current row (reused; a copy in copying mode). */
  public UnsafeRow row() {
    return copyRows ? row.copy() : row;
  }

  private void pointAtClosedRow() {
    row.pointTo(closedRow, Platform.BYTE_ARRAY_OFFSET, closedRow.length - 8);
  }

  /** Closes the scan and frees everything; the reused row then reads zeros. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    pointAtClosedRow();
    chunkRows = 0;
    stream.close();
  }
}
