package io.rowbridge.spark.cache;

import io.rowbridge.RowbridgeException;
import java.util.Collections;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DecimalType;

/**
 * Top-level decimal columns of precision 18 or less are cached as Spark keeps them: their unscaled
 * values as int64 (8 bytes a value, not Arrow decimal128's 16), the column's field marked with
 * {@link #METADATA} = "precision,scale". A read widens them back into a decimal128 vector, in the
 * same pass that copies them off-heap.
 *
 * <p>The narrowing and widening vectors belong to the instance, reused batch after batch and freed
 * by {@link #close}. One thread at a time.
 */
final class CompactDecimals implements AutoCloseable {
  /** The field metadata key that marks a compact decimal column. */
  static final String METADATA = "rowbridge.cache.decimal";

  private static final int WIDE = DecimalVector.TYPE_WIDTH;

  private final BigIntVector narrow;

  private CompactDecimals(BigIntVector narrow) {
    this.narrow = narrow;
  }

  /** Whether a column of {@code type} is kept compact. */
  static boolean applies(DataType type) {
    return type instanceof DecimalType && ((DecimalType) type).precision() <= 18;
  }

  /** The int64 field a compact column of {@code decimal}'s type is cached as. */
  static Field compactField(Field decimal) {
    ArrowType.Decimal type = (ArrowType.Decimal) decimal.getType();
    Map<String, String> metadata =
        Collections.singletonMap(METADATA, type.getPrecision() + "," + type.getScale());
    return new Field(
        decimal.getName(),
        new FieldType(decimal.isNullable(), new ArrowType.Int(64, true), null, metadata),
        null);
  }

  /** The decimal128 field a compact column reads back as; null when {@code field} is not one. */
  static Field wideField(Field field) {
    String mark = field.getMetadata() == null ? null : field.getMetadata().get(METADATA);
    if (mark == null) {
      return null;
    }
    String[] parts = mark.split(",");
    return new Field(
        field.getName(),
        new FieldType(
            field.isNullable(),
            new ArrowType.Decimal(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), 128),
            null),
        null);
  }

  /** A narrower of decimal columns into an int64 vector of {@code allocator}. */
  static CompactDecimals narrower(BufferAllocator allocator, Field decimal) {
    return new CompactDecimals((BigIntVector) compactField(decimal).createVector(allocator));
  }

  /**
   * The first {@code rows} values of {@code decimal} as unscaled longs, in this instance's vector
   * (valid until the next call). Values of precision 18 or less fit: the low 8 bytes of each
   * little-endian 16-byte value are the value.
   */
  BigIntVector narrow(FieldVector decimal, int rows) {
    if (!(decimal instanceof DecimalVector)) {
      throw new RowbridgeException(
          "rowbridge: a decimal column to cache is a " + decimal.getClass().getSimpleName());
    }
    if (narrow.getValueCapacity() < rows) {
      narrow.clear();
      narrow.setInitialCapacity(rows);
      narrow.allocateNew();
    }
    copyValidity(decimal, narrow, rows);
    ArrowBuf from = decimal.getDataBuffer();
    ArrowBuf to = narrow.getDataBuffer();
    for (int i = 0; i < rows; i++) {
      to.setLong((long) i * Long.BYTES, from.getLong((long) i * WIDE));
    }
    narrow.setValueCount(rows);
    return narrow;
  }

  /** Widens the {@code rows} unscaled longs of {@code compact} into {@code wide}. */
  static void widen(BigIntVector compact, DecimalVector wide, int rows) {
    if (wide.getValueCapacity() < rows) {
      wide.clear();
      wide.setInitialCapacity(rows);
      wide.allocateNew();
    }
    copyValidity(compact, wide, rows);
    ArrowBuf from = compact.getDataBuffer();
    ArrowBuf to = wide.getDataBuffer();
    for (int i = 0; i < rows; i++) {
      long value = from.getLong((long) i * Long.BYTES);
      to.setLong((long) i * WIDE, value);
      to.setLong((long) i * WIDE + Long.BYTES, value >> 63);
    }
    wide.setValueCount(rows);
  }

  private static void copyValidity(FieldVector from, FieldVector to, int rows) {
    long bytes = (rows + 7L) / 8;
    ArrowBuf source = from.getValidityBuffer();
    ArrowBuf target = to.getValidityBuffer();
    if (source.capacity() >= bytes) {
      target.setBytes(0, source, 0, bytes);
    } else {
      for (int i = 0; i < rows; i++) {
        org.apache.arrow.vector.BitVectorHelper.setValidityBit(target, i, from.isNull(i) ? 0 : 1);
      }
    }
  }

  @Override
  public void close() {
    narrow.close();
  }
}
