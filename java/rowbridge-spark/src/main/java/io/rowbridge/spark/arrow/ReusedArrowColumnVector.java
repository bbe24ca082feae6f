package io.rowbridge.spark.arrow;

import org.apache.arrow.vector.ValueVector;
import org.apache.spark.sql.vectorized.ArrowColumnVector;

/**
 * An ArrowColumnVector over a vector that rowbridge owns and reuses for the next batch (the native
 * scan's, the row decoder's). Spark's consumers close the columns of each batch they finish
 * (ColumnarToRow calls {@code closeIfFreeable()} after every batch, {@code close()} when stopping
 * early), which on a plain ArrowColumnVector would free the reused vectors; here both do nothing,
 * and the owner frees its vectors when the task's stream closes.
 */
public class ReusedArrowColumnVector extends ArrowColumnVector {
  public ReusedArrowColumnVector(ValueVector vector) {
    super(vector);
  }

  @Override
  public void closeIfFreeable() {}

  @Override
  public void close() {}
}
