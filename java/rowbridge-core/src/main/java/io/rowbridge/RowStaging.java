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
 * <p>An UnsafeRow is copied in one bulk copy; any other InternalRow goes through an
 * UnsafeProjection of the schema first. A batch holds at most {@code maxRows} rows and, unless its
 * first row alone is larger, {@code maxBytes} bytes: {@link #add} refuses a row that would pass
 * either cap, and the caller decodes the batch, {@link #clear}s it and adds the row again.
 *
 * <p>The staging owns its native memory and frees it at {@link #close}; the row bytes and the
 * offsets grow as a batch needs them. The memory listener, when given, is told of every growth
 * (after it) and of the release at close. Nothing is allocated on the JVM per row or per batch once
 * the buffers have grown to the batches' size. One thread at a time.
 */
public final class RowStaging implements AutoCloseable {
  private static final long INITIAL_DATA_BYTES = 64L << 10;
  private static final int INITIAL_ROWS = 1024;

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
    if (data == 0) {
      throw new IllegalStateException("rowbridge: the row staging is closed");
    }
    if (numRows == maxRows) {
      return false;
    }
    UnsafeRow unsafe;
    if (row instanceof UnsafeRow) {
      unsafe = (UnsafeRow) row;
      if (unsafe.numFields() != numFields) {
        throw new RowbridgeException(
            "rowbridge: row "
                + numRows
                + " of the batch has "
                + unsafe.numFields()
                + " fields; the schema "
                + schema.catalogString()
                + " has "
                + numFields);
      }
    } else {
      if (projection == null) {
        projection = UnsafeProjection.create(schema);
      }
      unsafe = projection.apply(row);
    }
    long size = unsafe.getSizeInBytes();
    if (numRows > 0 && dataBytes + size > maxBytes) {
      return false;
    }
    if (dataBytes + size > dataCapacity) {
      grow(dataBytes + size);
    }
    if (numRows == offsetsCapacity) {
      growOffsets();
    }
    Platform.copyMemory(
        unsafe.getBaseObject(), unsafe.getBaseOffset(), null, data + dataBytes, size);
    dataBytes += size;
    numRows++;
    Platform.putLong(null, offsets + 8L * numRows, dataBytes);
    return true;
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

  private void grow(long needed) {
    long capacity = Math.max(needed, Math.min(Math.max(maxBytes, needed), 2 * dataCapacity));
    capacity = (capacity + 7) & ~7L;
    long grown = Platform.reallocateMemory(data, dataCapacity, capacity);
    long added = capacity - dataCapacity;
    data = grown;
    dataCapacity = capacity;
    reserve(added);
  }

  /** Room for twice the rows (at most maxRows), as the batch reaches the offsets' end. */
  private void growOffsets() {
    int capacity = (int) Math.min(maxRows, 2L * offsetsCapacity);
    offsets = Platform.reallocateMemory(offsets, 8L * (offsetsCapacity + 1L), 8L * (capacity + 1L));
    reserve(8L * (capacity - offsetsCapacity));
    offsetsCapacity = capacity;
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
    if (listener != null && reservedBytes > 0) {
      listener.release(reservedBytes);
    }
    reservedBytes = 0;
  }
}
