package io.rowbridge.comet;

import io.rowbridge.ColumnBuffers;
import io.rowbridge.RowbridgeException;
import org.apache.arrow.vector.types.Types.MinorType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.unsafe.Platform;

/**
 * One column of a task's Comet batches for when Comet gives it as a fixed-size binary vector: the
 * values laid out as the utf8 or binary column Spark reads from that vector, so that rowbridge's
 * converter reads them natively.
 *
 * <p>Comet's CometPlainVector reads a fixed-size binary vector's value as its bytes, through {@code
 * getBinary} for a BinaryType column and {@code getUTF8String} for a StringType one; when the
 * vector is flagged as a UUID (Comet's {@code isUuid}, set by Iceberg's Comet reader), {@code
 * getUTF8String} gives the 16 bytes as the 36-character text of {@link java.util.UUID#toString()}.
 * The same values here:
 *
 * <ul>
 *   <li>bytes: the vector's validity and data buffers (borrowed) with offsets of this column's own
 *       (every value {@code width} bytes long);
 *   <li>UUID text: offsets and text of this column's own, 36 bytes per value, written from the
 *       vector's data.
 * </ul>
 *
 * <p>The offsets and text are native memory that this column owns, kept and grown from batch to
 * batch, and freed by {@link #close}. One thread at a time.
 */
final class FixedSizeBinaryColumn implements AutoCloseable {
  /** The characters of a UUID's text. */
  static final int UUID_TEXT = 36;

  private static final byte[] HEX =
      "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /** VARCHAR for a StringType column, VARBINARY for a BinaryType one, null for any other. */
  private final MinorType layout;

  /** The column's name, for errors. */
  private final String name;

  private long offsets;
  private long offsetsBytes;

  /** The step of the offsets written, and the last index written with it (-1: none). */
  private int offsetsStep;

  private int offsetsWritten = -1;
  private long text;
  private long textBytes;

  /** For the column {@code field} of the rows' schema. */
  FixedSizeBinaryColumn(StructField field) {
    DataType type = field.dataType();
    name = field.name();
    layout =
        type instanceof StringType
            ? MinorType.VARCHAR
            : type instanceof BinaryType ? MinorType.VARBINARY : null;
  }

  /**
   * Describes a fixed-size binary vector's values in {@code into}; false when they are not read
   * here (a column of another Spark type, or a UUID of other than 16 bytes or outside a StringType
   * column: Comet's own getters then read them, with Comet's answer or error).
   *
   * @throws RowbridgeException when the data buffer is smaller than {@code valueCount * width}
   */
  boolean describe(
      ColumnBuffers into,
      int valueCount,
      int nullCount,
      int width,
      boolean uuid,
      long validityAddress,
      long validityCapacity,
      long dataAddress,
      long dataCapacity) {
    // Comet's getBinary gives a UUID's bytes; only getUTF8String makes its text.
    boolean asText = uuid && layout == MinorType.VARCHAR;
    if (layout == null || width < 0 || (asText && width != 16)) {
      return false;
    }
    long bytes = (long) valueCount * width;
    if (valueCount < 0 || dataCapacity < bytes || (bytes > 0 && dataAddress == 0)) {
      throw new RowbridgeException(
          "rowbridge: column '"
              + name
              + "': Comet's fixed-size binary vector holds "
              + dataCapacity
              + " bytes of data for "
              + valueCount
              + " values of "
              + width
              + " bytes");
    }
    int step = asText ? UUID_TEXT : width;
    if ((long) valueCount * step > Integer.MAX_VALUE) {
      return false;
    }
    writeOffsets(valueCount, step);
    into.layout(layout, valueCount, nullCount);
    long values = 0;
    long valuesBytes = 0;
    if (asText) {
      writeUuidText(dataAddress, valueCount);
      valuesBytes = (long) valueCount * UUID_TEXT;
      values = valuesBytes == 0 ? 0 : text;
    } else if (bytes > 0) {
      values = dataAddress;
      valuesBytes = dataCapacity;
    }
    into.buffers(
        validityAddress, validityCapacity, offsets, 4L * (valueCount + 1), values, valuesBytes);
    return true;
  }

  /**
   * Offsets 0, step, 2 * step, ... for {@code valueCount} values; those an earlier batch wrote with
   * the same step stay as they are.
   */
  private void writeOffsets(int valueCount, int step) {
    long needed = 4L * (valueCount + 1);
    if (offsetsBytes < needed) {
      offsets = grow(offsets, needed);
      offsetsBytes = needed;
      offsetsWritten = -1;
    }
    if (step != offsetsStep) {
      offsetsStep = step;
      offsetsWritten = -1;
    }
    for (int i = offsetsWritten + 1; i <= valueCount; i++) {
      Platform.putInt(null, offsets + 4L * i, i * step);
    }
    offsetsWritten = Math.max(offsetsWritten, valueCount);
  }

  /**
   * Each 16-byte value as UUID text: its bytes, most significant first, as lower-case hexadecimal
   * in groups of 8, 4, 4, 4 and 12 digits joined by '-' (null rows' bytes too; their text is not
   * read).
   */
  private void writeUuidText(long data, int valueCount) {
    long needed = (long) valueCount * UUID_TEXT;
    if (textBytes < needed) {
      text = grow(text, needed);
      textBytes = needed;
    }
    long out = text;
    for (int i = 0; i < valueCount; i++) {
      long in = data + 16L * i;
      for (int b = 0; b < 16; b++) {
        if (b == 4 || b == 6 || b == 8 || b == 10) {
          Platform.putByte(null, out++, (byte) '-');
        }
        int value = Platform.getByte(null, in + b) & 0xff;
        Platform.putByte(null, out++, HEX[value >>> 4]);
        Platform.putByte(null, out++, HEX[value & 0xf]);
      }
    }
  }

  private static long grow(long address, long bytes) {
    long size = Math.max(bytes, 64);
    return address == 0
        ? Platform.allocateMemory(size)
        : Platform.reallocateMemory(address, 0, size);
  }

  @Override
  public void close() {
    if (offsets != 0) {
      Platform.freeMemory(offsets);
      offsets = 0;
      offsetsBytes = 0;
      offsetsWritten = -1;
    }
    if (text != 0) {
      Platform.freeMemory(text);
      text = 0;
      textBytes = 0;
    }
  }
}
