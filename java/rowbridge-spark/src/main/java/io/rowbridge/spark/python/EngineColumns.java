package io.rowbridge.spark.python;

import io.rowbridge.ColumnBuffers;
import io.rowbridge.RowbridgeException;
import io.rowbridge.spark.engine.EngineInput;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.Types.MinorType;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.Platform;

/**
 * Another engine's batches ({@link EngineInput}, such as Apache Comet's) as flat columns that a
 * {@link RecordBatchBuilder} appends from: each batch's columns are read by the engine's reader
 * into {@link ColumnBuffers}, matched against the stream's target fields, and checked before any
 * address is read, so that a vector that says more than it holds gives a {@link RowbridgeException}
 * naming the column, never a read outside its memory. A dictionary-encoded column is decoded into
 * buffers of this object's own, so the builder sees only plain columns.
 *
 * <p>The engine's addresses are borrowed from the batch, which must stay open while its rows are
 * appended. The decoded buffers belong to this object (allocated from the allocator it is given,
 * kept and grown from batch to batch) until {@link #close}. One thread at a time.
 */
public final class EngineColumns implements AutoCloseable {
  private final EngineInput.BatchReader reader;
  private final List<Field> targets;
  private final String engine;

  /** The columns handed to the builder: the reader's own, or the decoded ones. */
  private final ColumnBuffers[] plain;

  private final ColumnBuffers[] decoded;
  private final BatchBuffer[][] decodedBuffers;

  /**
   * @param engine the engine's name, for errors
   * @param reader the engine's reader for batches of {@code targets.size()} columns
   * @param targets the stream's flat and nested target fields, one per column
   */
  public EngineColumns(
      String engine,
      EngineInput.BatchReader reader,
      List<Field> targets,
      BufferAllocator allocator) {
    this.engine = engine;
    this.reader = reader;
    this.targets = targets;
    int columns = targets.size();
    plain = new ColumnBuffers[columns];
    decoded = new ColumnBuffers[columns];
    decodedBuffers = new BatchBuffer[columns][];
    for (int i = 0; i < columns; i++) {
      decoded[i] = new ColumnBuffers();
      decodedBuffers[i] =
          new BatchBuffer[] {
            new BatchBuffer(allocator), new BatchBuffer(allocator), new BatchBuffer(allocator)
          };
    }
  }

  /**
   * {@code batch}'s columns as plain flat columns of their target fields (valid while the batch is
   * open and until the next call); null when a column is not one the engine's reader reads, or its
   * type is not its target's (the batch then goes to rows).
   *
   * @throws RowbridgeException when a column's buffers are too small for its values, its offsets
   *     decrease or leave its data, or a dictionary index is out of range
   */
  public ColumnBuffers[] read(ColumnarBatch batch) {
    if (batch.numCols() != targets.size() || !reader.read(batch)) {
      return null;
    }
    ColumnBuffers[] columns = reader.columns();
    int rows = batch.numRows();
    for (int i = 0; i < columns.length; i++) {
      ColumnBuffers column = columns[i];
      ColumnBuffers values = column.dictionary != null ? column.dictionary : column;
      if (values.dictionary != null || !fits(targets.get(i).getType(), values)) {
        return null;
      }
      String label =
          "column " + i + " (" + targets.get(i).getName() + ") of " + engine + "'s batch";
      if (column.valueCount < rows) {
        throw new RowbridgeException(
            "rowbridge: " + label + " has " + column.valueCount + " values for " + rows + " rows");
      }
      if (column.dictionary == null) {
        check(column, label);
        plain[i] = column;
      } else {
        if (column.minorType != MinorType.INT) {
          throw new RowbridgeException(
              "rowbridge: " + label + " has dictionary indices of " + column.minorType);
        }
        check(column, label + " (dictionary indices)");
        check(values, label + " (dictionary)");
        plain[i] = decode(column, rows, i, label);
      }
    }
    return plain;
  }

  /** Bytes of the decoded buffers. */
  long capacity() {
    long bytes = 0;
    for (BatchBuffer[] buffers : decodedBuffers) {
      for (BatchBuffer buffer : buffers) {
        bytes += buffer.capacity();
      }
    }
    return bytes;
  }

  /** Frees the decoded buffers and closes the reader. */
  @Override
  public void close() {
    reader.close();
    for (BatchBuffer[] buffers : decodedBuffers) {
      for (BatchBuffer buffer : buffers) {
        buffer.close();
      }
    }
  }

  /** The bytes of one value of a fixed-width minor type. */
  static long fixedWidth(MinorType type) {
    return switch (type) {
      case TINYINT -> 1;
      case SMALLINT -> 2;
      case INT, FLOAT4, DATEDAY -> 4;
      case DECIMAL -> 16;
      default -> 8;
    };
  }

  /** Whether a column of {@code column}'s layout and type is one of {@code target}'s values. */
  static boolean fits(ArrowType target, ColumnBuffers column) {
    if (column.minorType == null) {
      return false;
    }
    return switch (column.minorType) {
      case BIT -> target instanceof ArrowType.Bool;
      case TINYINT -> isInt(target, 8);
      case SMALLINT -> isInt(target, 16);
      case INT -> isInt(target, 32);
      case BIGINT -> isInt(target, 64);
      case FLOAT4 -> isFloat(target, FloatingPointPrecision.SINGLE);
      case FLOAT8 -> isFloat(target, FloatingPointPrecision.DOUBLE);
      case DATEDAY ->
          target instanceof ArrowType.Date date
              && date.getUnit() == org.apache.arrow.vector.types.DateUnit.DAY;
      case TIMESTAMPMICRO -> isMicros(target, false);
      case TIMESTAMPMICROTZ -> isMicros(target, true);
      case DECIMAL ->
          target instanceof ArrowType.Decimal decimal
              && decimal.getBitWidth() == 128
              && decimal.getPrecision() == column.precision
              && decimal.getScale() == column.scale;
      case VARCHAR -> target instanceof ArrowType.Utf8;
      case VARBINARY -> target instanceof ArrowType.Binary;
      case LARGEVARCHAR -> target instanceof ArrowType.LargeUtf8;
      case LARGEVARBINARY -> target instanceof ArrowType.LargeBinary;
      default -> false;
    };
  }

  private static boolean isInt(ArrowType target, int bits) {
    return target instanceof ArrowType.Int type && type.getBitWidth() == bits && type.getIsSigned();
  }

  private static boolean isFloat(ArrowType target, FloatingPointPrecision precision) {
    return target instanceof ArrowType.FloatingPoint type && type.getPrecision() == precision;
  }

  private static boolean isMicros(ArrowType target, boolean zoned) {
    return target instanceof ArrowType.Timestamp type
        && type.getUnit() == TimeUnit.MICROSECOND
        && (type.getTimezone() != null) == zoned;
  }

  private static boolean isVariable(MinorType type) {
    return type == MinorType.VARCHAR
        || type == MinorType.VARBINARY
        || type == MinorType.LARGEVARCHAR
        || type == MinorType.LARGEVARBINARY;
  }

  private static int offsetWidth(MinorType type) {
    return type == MinorType.LARGEVARCHAR || type == MinorType.LARGEVARBINARY ? 8 : 4;
  }

  /**
   * Checks that {@code column}'s buffers hold its values: the validity bitmap (or no nulls without
   * one), the values, and for utf8 and binary offsets that start at or after 0, never decrease and
   * end inside the data.
   */
  private static void check(ColumnBuffers column, String label) {
    int count = column.valueCount;
    if (count < 0 || column.nullCount < 0) {
      throw new RowbridgeException("rowbridge: " + label + " has a negative value or null count");
    }
    if (column.validityAddress == 0
        ? column.nullCount != 0
        : column.validityCapacity < BatchBuffer.bitBytes(count)) {
      throw tooSmall(label, "validity bitmap", column.validityCapacity);
    }
    if (column.dataAddress == 0 && count > 0 && !isVariable(column.minorType)) {
      throw tooSmall(label, "values", 0);
    }
    if (column.minorType == MinorType.BIT) {
      if (column.dataCapacity < BatchBuffer.bitBytes(count)) {
        throw tooSmall(label, "values", column.dataCapacity);
      }
    } else if (!isVariable(column.minorType)) {
      if (column.dataCapacity < fixedWidth(column.minorType) * (long) count) {
        throw tooSmall(label, "values", column.dataCapacity);
      }
    } else {
      int width = offsetWidth(column.minorType);
      if (column.offsetsAddress == 0 || column.offsetsCapacity < width * (count + 1L)) {
        throw tooSmall(label, "offsets", column.offsetsCapacity);
      }
      long previous = 0;
      for (int i = 0; i <= count; i++) {
        long offset = AppendedColumn.getOffset(column.offsetsAddress, i, width);
        if (offset < previous || offset > column.dataCapacity) {
          throw new RowbridgeException(
              "rowbridge: "
                  + label
                  + " has offset "
                  + offset
                  + " at "
                  + i
                  + " (after "
                  + previous
                  + ", data of "
                  + column.dataCapacity
                  + " bytes)");
        }
        previous = offset;
      }
      if (previous > 0 && column.dataAddress == 0) {
        throw tooSmall(label, "values", 0);
      }
    }
  }

  private static RowbridgeException tooSmall(String label, String buffer, long capacity) {
    return new RowbridgeException(
        "rowbridge: " + label + "'s " + buffer + " (" + capacity + " bytes) is too small");
  }

  /** Rows {@code [0, rows)} of a dictionary-encoded column as a plain column of its values. */
  private ColumnBuffers decode(ColumnBuffers indices, int rows, int column, String label) {
    ColumnBuffers values = indices.dictionary;
    BatchBuffer[] buffers = decodedBuffers[column];
    BatchBuffer validity = buffers[0];
    validity.ensure(Math.max(1, BatchBuffer.bitBytes(rows)));
    Platform.setMemory(validity.address(), (byte) 0, BatchBuffer.bitBytes(rows));
    boolean bits = values.minorType == MinorType.BIT;
    boolean variable = isVariable(values.minorType);
    long width = bits || variable ? 0 : fixedWidth(values.minorType);
    int offsetWidth = offsetWidth(values.minorType);
    BatchBuffer offsets = buffers[1];
    BatchBuffer data = buffers[2];
    if (variable) {
      offsets.ensure(offsetWidth * (rows + 1L));
      data.reset();
    } else {
      data.ensure(Math.max(1, bits ? BatchBuffer.bitBytes(rows) : width * rows));
      Platform.setMemory(
          data.address(), (byte) 0, bits ? BatchBuffer.bitBytes(rows) : width * rows);
    }
    int nulls = 0;
    long end = 0;
    for (int row = 0; row < rows; row++) {
      boolean valid = isSet(indices.validityAddress, row);
      int index = 0;
      if (valid) {
        index = Platform.getInt(null, indices.dataAddress + 4L * row);
        if (index < 0 || index >= values.valueCount) {
          throw new RowbridgeException(
              "rowbridge: "
                  + label
                  + " has dictionary index "
                  + index
                  + " at row "
                  + row
                  + " (dictionary of "
                  + values.valueCount
                  + " values)");
        }
        valid = isSet(values.validityAddress, index);
      }
      if (valid) {
        setBit(validity.address(), row);
        if (bits) {
          if (isSet(values.dataAddress, index)) {
            setBit(data.address(), row);
          }
        } else if (!variable) {
          Platform.copyMemory(
              null, values.dataAddress + width * index, null, data.address() + width * row, width);
        } else {
          long first = AppendedColumn.getOffset(values.offsetsAddress, index, offsetWidth);
          long bytes =
              AppendedColumn.getOffset(values.offsetsAddress, index + 1, offsetWidth) - first;
          data.ensure(end + bytes);
          Platform.copyMemory(null, values.dataAddress + first, null, data.address() + end, bytes);
          end += bytes;
          data.used = end; // kept when the buffer grows
        }
      } else {
        nulls++;
      }
      if (variable) {
        AppendedColumn.putOffset(offsets.address(), row + 1, offsetWidth, end);
      }
    }
    if (variable) {
      AppendedColumn.putOffset(offsets.address(), 0, offsetWidth, 0);
      data.ensure(Math.max(1, end));
    }
    ColumnBuffers plainColumn = decoded[column];
    plainColumn.layout(values.minorType, rows, nulls);
    plainColumn.precision = values.precision;
    plainColumn.scale = values.scale;
    plainColumn.dictionary = null;
    plainColumn.buffers(
        validity.address(),
        validity.capacity(),
        variable ? offsets.address() : 0,
        variable ? offsets.capacity() : 0,
        data.address(),
        data.capacity());
    return plainColumn;
  }

  private static boolean isSet(long bitmap, int index) {
    return bitmap == 0
        || (Platform.getByte(null, bitmap + (index >>> 3)) & (1 << (index & 7))) != 0;
  }

  private static void setBit(long bitmap, int index) {
    long at = bitmap + (index >>> 3);
    Platform.putByte(null, at, (byte) (Platform.getByte(null, at) | (1 << (index & 7))));
  }
}
