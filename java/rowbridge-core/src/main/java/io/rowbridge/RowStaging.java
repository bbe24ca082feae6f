package io.rowbridge;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.Platform;

/**
 * A batch of Spark rows staged in native memory for the native decoder: the rows' bytes one after
 * another, and {@code numRows + 1} int64 offsets (row i spans {@code [offset[i], offset[i + 1])} of
 * the data), the layout {@code RowDecoder::Decode} reads.
 *
 * <p>An UnsafeRow is copied in one pass (a word loop for small rows, one bulk copy for larger); any
 * other InternalRow goes through an UnsafeProjection of the schema first. A batch holds at most
 * {@code maxRows} rows and, unless its first row alone is larger, {@code maxBytes} bytes: {@link
 * #add} refuses a row that would pass either cap, and the caller decodes the batch, {@link #clear}s
 * it and adds the row again.
 *
 * <p>The staging owns its native memory and frees it at {@link #close}; the row bytes and the
 * offsets grow as a batch needs them. The memory listener, when given, is told of every growth
 * (after it) and of the release at close. Nothing is allocated on the JVM per row or per batch once
 * the buffers have grown to the batches' size. One thread at a time.
 */
public final class RowStaging implements AutoCloseable {
  private static final long INITIAL_DATA_BYTES = 64L << 10;
  private static final int INITIAL_ROWS = 1024;

  /**
   * The largest row copied 8 bytes at a time rather than by one copyMemory (StagingBenchmark: the
   * loop takes about 0.88x copyMemory's time on 56-byte rows, no gain past a few hundred bytes).
   */
  static final int WORD_COPY_LIMIT = 256;

  private final StructType schema;
  private final int numFields;
  private final int maxRows;
  private final long maxBytes;
  private final NativeMemoryListener listener;
  private UnsafeProjection projection;

  private long data;
  private long dataCapacity;
  private long offsets;
  private int offsetsCapacity;
  private int numRows;
  private long dataBytes;
  private long reservedBytes;

  /** min(maxRows, offsetsCapacity), 0 once closed: below it a row needs no row check. */
  private int rowLimit;

  /** min(maxBytes, dataCapacity): a batch up to it needs no byte check. */
  private long byteLimit;

  /**
   * Staging for rows of {@code schema}, at most {@code maxRows} rows (>= 1) and {@code maxBytes}
   * bytes (>= 1) per batch; {@code listener} may be null.
   */
  public RowStaging(StructType schema, int maxRows, long maxBytes, NativeMemoryListener listener) {
    if (maxRows < 1 || maxBytes < 1) {
      throw new IllegalArgumentException(
          "rowbridge: a batch cap of "
              + maxRows
              + " rows and "
              + maxBytes
              + " bytes; both must be positive");
    }
    this.schema = schema;
    this.numFields = schema.fields().length;
    this.maxRows = maxRows;
    this.maxBytes = maxBytes;
    this.listener = listener;
    this.offsetsCapacity = Math.min(maxRows, INITIAL_ROWS);
    long offsetsBytes = 8L * (offsetsCapacity + 1L);
    this.offsets = Platform.allocateMemory(offsetsBytes);
    Platform.putLong(null, offsets, 0L);
    this.dataCapacity = Math.min(INITIAL_DATA_BYTES, maxBytes);
    try {
      this.data = Platform.allocateMemory(dataCapacity);
    } catch (RuntimeException | Error e) {
      Platform.freeMemory(offsets);
      throw e;
    }
    this.rowLimit = offsetsCapacity;
    this.byteLimit = dataCapacity;
    try {
      reserve(offsetsBytes + dataCapacity);
    } catch (RuntimeException | Error e) {
      reservedBytes = 0; // refused: nothing to release later
      Platform.freeMemory(data);
      Platform.freeMemory(offsets);
      throw e;
    }
  }

  /**
   * Stages {@code row} and returns true, or returns false (staging nothing) when the batch is full:
   * it holds {@code maxRows} rows, or the row would take it past {@code maxBytes}. An UnsafeRow
   * whose field count differs from the schema's is a RowbridgeException.
   */
  public boolean add(InternalRow row) {
    int n = numRows;
    if (n >= rowLimit) {
      if (data == 0) {
        throw new IllegalStateException("rowbridge: the row staging is closed");
      }
      if (n == maxRows) {
        return false;
      }
    }
    UnsafeRow unsafe = row instanceof UnsafeRow ? checkFields((UnsafeRow) row) : project(row);
    int size = unsafe.getSizeInBytes();
    long end = dataBytes + size;
    if (end > byteLimit) {
      if (n > 0 && end > maxBytes) {
        return false;
      }
      if (end > dataCapacity) {
        grow(end);
      }
    }
    if (n == offsetsCapacity) {
      growOffsets();
    }
    copy(unsafe.getBaseObject(), unsafe.getBaseOffset(), data + dataBytes, size);
    dataBytes = end;
    numRows = n + 1;
    Platform.putLong(null, offsets + 8L * (n + 1), end);
    return true;
  }

  private UnsafeRow checkFields(UnsafeRow row) {
    if (row.numFields() != numFields) {
      throw new RowbridgeException(
          "rowbridge: row "
              + numRows
              + " of the batch has "
              + row.numFields()
              + " fields; the schema "
              + schema.catalogString()
              + " has "
              + numFields);
    }
    return row;
  }

  private UnsafeRow project(InternalRow row) {
    if (projection == null) {
      projection = UnsafeProjection.create(schema);
    }
    return projection.apply(row);
  }

  /** Empties the batch, keeping the memory. */
  public void clear() {
    numRows = 0;
    dataBytes = 0;
  }

  public int numRows() {
    return numRows;
  }

  /** Whether another row would be refused for the row cap alone. */
  public boolean isFull() {
    return numRows == maxRows;
  }

  /** The address of the rows' bytes; valid until the next add or close. */
  public long dataAddress() {
    return data;
  }

  /** The address of the numRows() + 1 int64 row offsets; valid until the next add or close. */
  public long offsetsAddress() {
    return offsets;
  }

  /** The bytes of the staged rows. */
  public long dataBytes() {
    return dataBytes;
  }

  public int maxRows() {
    return maxRows;
  }

  public long maxBytes() {
    return maxBytes;
  }

  /** Native bytes held (and reported to the listener). */
  public long reservedBytes() {
    return reservedBytes;
  }

  /**
   * Copies {@code size} bytes from {@code base}/{@code offset} (a byte[] or, base null, an address)
   * to the address {@code to}: a row of at most {@link #WORD_COPY_LIMIT} bytes, a multiple of 8 as
   * UnsafeRows are, 8 bytes at a time in Java; any other in one {@code Platform.copyMemory}, whose
   * fixed cost per call outweighs the loop below that size.
   */
  private static void copy(Object base, long offset, long to, int size) {
    if (size <= WORD_COPY_LIMIT && (size & 7) == 0) {
      for (int i = 0; i < size; i += 8) {
        Platform.putLong(null, to + i, Platform.getLong(base, offset + i));
      }
    } else {
      Platform.copyMemory(base, offset, null, to, size);
    }
  }

  private void grow(long needed) {
    long capacity = Math.max(needed, Math.min(Math.max(maxBytes, needed), 2 * dataCapacity));
    capacity = (capacity + 7) & ~7L;
    long grown = Platform.reallocateMemory(data, dataCapacity, capacity);
    long added = capacity - dataCapacity;
    data = grown;
    dataCapacity = capacity;
    byteLimit = Math.min(maxBytes, capacity);
    reserve(added);
  }

  /** Room for twice the rows (at most maxRows), as the batch reaches the offsets' end. */
  private void growOffsets() {
    int capacity = (int) Math.min(maxRows, 2L * offsetsCapacity);
    offsets = Platform.reallocateMemory(offsets, 8L * (offsetsCapacity + 1L), 8L * (capacity + 1L));
    reserve(8L * (capacity - offsetsCapacity));
    offsetsCapacity = capacity;
    rowLimit = capacity;
  }

  private void reserve(long bytes) {
    reservedBytes += bytes;
    if (listener != null) {
      listener.acquire(bytes);
    }
  }

  @Override
  public void close() {
    if (data == 0) {
      return;
    }
    Platform.freeMemory(data);
    Platform.freeMemory(offsets);
    data = 0;
    rowLimit = 0;
    if (listener != null && reservedBytes > 0) {
      listener.release(reservedBytes);
    }
    reservedBytes = 0;
  }
}
