package io.rowbridge.spark.source;

import org.apache.arrow.vector.ValueVector;
import org.apache.spark.sql.vectorized.ArrowColumnVector;

/**
 * An ArrowColumnVector over a vector the native scan owns and reuses for the next batch. Spark's
 * consumers close the columns of each batch they finish (ColumnarToRow calls
 * {@code closeIfFreeable()} after every batch, {@code close()} when stopping early), which on a
 * plain ArrowColumnVector would free the scan's vectors; here both do nothing, and the scan frees
 * its vectors when the task's stream closes.
 */
final class ScanColumnVector extends ArrowColumnVector {
  ScanColumnVector(ValueVector vector) {
    super(vector);
  }

  @Override
  public void closeIfFreeable() {}

  @Override
  public void close() {}
}
