package io.rowbridge;

import org.apache.arrow.vector.ValueVector;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Spark's ColumnarBatch as converter input: a batch whose every column is an {@link
 * ArrowColumnVector} is converted from the Arrow Java vectors those columns wrap, by the {@link
 * VectorInput} path. The batch and its vectors stay the caller's.
 */
final class ColumnarBatchInput {
  private ColumnarBatchInput() {}

  /** True when every column of {@code batch} is an ArrowColumnVector. */
  static boolean isArrowBacked(ColumnarBatch batch) {
    for (int i = 0; i < batch.numCols(); i++) {
      if (!(batch.column(i) instanceof ArrowColumnVector)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Writes the vectors of {@code batch}'s first {@code vectors.length} columns into {@code
   * vectors}; a column that is not an ArrowColumnVector is an IllegalArgumentException (the columns
   * before it are written).
   */
  static void unwrap(ColumnarBatch batch, ValueVector[] vectors) {
    for (int i = 0; i < vectors.length; i++) {
      ColumnVector column = batch.column(i);
      if (!(column instanceof ArrowColumnVector)) {
        throw new IllegalArgumentException(
            "rowbridge: column "
                + i
                + " is a "
                + column.getClass().getName()
                + ", not an ArrowColumnVector");
      }
      vectors[i] = ((ArrowColumnVector) column).getValueVector();
    }
  }
}
