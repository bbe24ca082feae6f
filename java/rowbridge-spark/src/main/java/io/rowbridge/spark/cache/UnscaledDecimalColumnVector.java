package io.rowbridge.spark.cache;

import io.rowbridge.spark.arrow.ReusedArrowColumnVector;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.DecimalVector;
import org.apache.spark.sql.types.Decimal;

/**
 * The column of a compact decimal ({@link CompactDecimals}) as Spark's generated code reads it: an
 * ArrowColumnVector over the widened decimal128 vector (which rowbridge's converter reads), whose
 * {@code getDecimal} takes the unscaled long from the low 8 bytes of the value instead of making a
 * BigDecimal, as ArrowColumnVector's own does. Reused as {@link ReusedArrowColumnVector} is.
 */
final class UnscaledDecimalColumnVector extends ReusedArrowColumnVector {
  private final DecimalVector vector;

  UnscaledDecimalColumnVector(DecimalVector vector) {
    super(vector);
    this.vector = vector;
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    if (isNullAt(rowId)) {
      return null;
    }
    ArrowBuf data = vector.getDataBuffer();
    return Decimal.createUnsafe(
        data.getLong((long) rowId * DecimalVector.TYPE_WIDTH), precision, scale);
  }
}
