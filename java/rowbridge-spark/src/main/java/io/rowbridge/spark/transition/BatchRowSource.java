package io.rowbridge.spark.transition;

import io.rowbridge.ConverterOptions;
import io.rowbridge.spark.engine.EngineInput;
import java.io.Serializable;
import org.apache.spark.sql.execution.metric.SQLMetric;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * What a task needs to turn its batches into rows: the schema, the converter's settings and the
 * operator's metrics. Built on the driver, shipped with the task (the iterator path's closure or
 * the generated code's references), and opened once per partition. With an engine named, the
 * batches are that engine's ({@link EngineInput}); otherwise Arrow Java's.
 */
public final class BatchRowSource implements Serializable {
  private static final long serialVersionUID = 1L;

  final StructType schema;
  final long maxChunkBytes;
  final ConverterOptions.Validation validation;
  final SQLMetric numOutputRows;
  final SQLMetric numInputBatches;
  final SQLMetric numSparkBatches;
  final SQLMetric convertTime;

  /** The {@link EngineInput#name()} whose batches this source reads; null for Arrow batches. */
  final String engine;

  public BatchRowSource(
      StructType schema,
      long maxChunkBytes,
      ConverterOptions.Validation validation,
      SQLMetric numOutputRows,
      SQLMetric numInputBatches,
      SQLMetric numSparkBatches,
      SQLMetric convertTime,
      String engine) {
    this.schema = schema;
    this.maxChunkBytes = maxChunkBytes;
    this.validation = validation;
    this.numOutputRows = numOutputRows;
    this.numInputBatches = numInputBatches;
    this.numSparkBatches = numSparkBatches;
    this.convertTime = convertTime;
    this.engine = engine;
  }

  /** The rows of one partition's batches (closed at the task's end). */
  public BatchRowIterator open(java.util.Iterator<ColumnarBatch> batches) {
    return new BatchRowIterator(batches, this);
  }

  /**
   * The same, from the generated code's input: an iterator of ColumnarBatch that Spark types as an
   * iterator of rows. (Wrapped by hand: Scala 2.12 and 2.13 have no converter in common.)
   */
  public BatchRowIterator openInput(scala.collection.Iterator<?> batches) {
    return open(
        new java.util.Iterator<ColumnarBatch>() {
          @Override
          public boolean hasNext() {
            return batches.hasNext();
          }

          @Override
          public ColumnarBatch next() {
            return (ColumnarBatch) batches.next();
          }
        });
  }
}
