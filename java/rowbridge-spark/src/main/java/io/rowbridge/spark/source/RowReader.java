package io.rowbridge.spark.source;

import io.rowbridge.scan.NativeScan;
import io.rowbridge.scan.RowScan;
import io.rowbridge.scan.ScanOptions;
import io.rowbridge.spark.conf.RowbridgeConf;
import io.rowbridge.spark.memory.TaskMemoryAccounting;
import io.rowbridge.spark.transition.ConstantRuns;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.JoinedRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.vectorized.ColumnVectorUtils;
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;

/**
 * A task's row reader: one native RowScan over its range, whose workers decode each batch and
 * convert it to UnsafeRows, so rows are ready when the task asks. The row is reused: valid until
 * the next call to {@link #next()} (Spark's row reuse contract). Partition columns follow the
 * file's columns: the native conversion writes their values into each row (an UnsafeProjection
 * appends them instead for a type it does not take).
 *
 * <p>The native memory the scan holds (up to K + W + 1 decoded batches and converters' row buffers,
 * filled by the pool's workers) is accounted to the task's memory manager: at each batch the reader
 * acquires or releases the difference with what the stream reports ({@link RowScan#bytesHeld}), and
 * releases everything when the range ends (closing the stream at once) or the reader closes. A
 * refusal fails the task with an ENOMEM error naming what to lower.
 */
final class RowReader implements PartitionReader<InternalRow> {
  private final StreamTask task;
  private RowScan scan;

  /** Null outside a Spark task. */
  private final TaskMemoryAccounting memory;

  private boolean ended;
  private InternalRow row;
  private long rows;
  private final ScanMetrics.Totals totals = new ScanMetrics.Totals();

  /** The partition values the native stream holds (exported to it); closed after it. */
  private BufferAllocator constantsAllocator;

  /**
   * With partition columns of a type the native conversion does not take: the file's row joined
   * with the partition values, as one row.
   */
  private final UnsafeProjection withPartition;

  private final JoinedRow joined;

  RowReader(
      FileRange range,
      SourceConf conf,
      StructType dataSchema,
      int[] columns,
      InternalRow partitionValues,
      StructType partitionSchema) {
    this.task = new StreamTask(range, this);
    StructField[] partitionFields = partitionSchema.fields();
    boolean nativeConstants =
        Arrays.stream(partitionFields)
            .allMatch(f -> ConstantRuns.valueField(f.name(), f.dataType()) != null);
    if (partitionFields.length > 0 && !nativeConstants) {
      List<StructField> fields = new ArrayList<>();
      for (int column : columns) {
        fields.add(dataSchema.fields()[column]);
      }
      fields.addAll(Arrays.asList(partitionFields));
      withPartition = UnsafeProjection.create(new StructType(fields.toArray(new StructField[0])));
      joined = new JoinedRow();
      joined.withRight(partitionValues);
    } else {
      withPartition = null;
      joined = null;
    }
    ScanOptions options = task.options(conf).converterOptions(conf.converterOptions());
    if (partitionFields.length > 0 && nativeConstants) {
      constantsAllocator =
          ArrowUtils.rootAllocator()
              .newChildAllocator("rowbridge partition values " + range.path(), 0, Long.MAX_VALUE);
    }
    scan =
        task.open(
            conf,
            () -> openScan(range, options, partitionValues, partitionFields),
            this::closeConstants);
    memory =
        task.memory(
            "the row-mode scan's native batches and row buffers",
            conf,
            " or " + RowbridgeConf.MAX_CHUNK_BYTES + " (now " + conf.maxChunkBytes() + ")");
  }

  /** Opens the range's row scan, with the partition values the native conversion writes. */
  private RowScan openScan(
      FileRange range,
      ScanOptions options,
      InternalRow partitionValues,
      StructField[] partitionFields) {
    if (constantsAllocator == null) {
      return range.remote() == null
          ? NativeScan.openRows(range.path(), options)
          : NativeScan.openRows(range.remote().image(), options, null);
    }
    try (VectorSchemaRoot constants =
        partitionRow(partitionValues, partitionFields, constantsAllocator)) {
      return range.remote() == null
          ? NativeScan.openRows(range.path(), options, constants)
          : NativeScan.openRows(range.remote().image(), options, constants);
    }
  }

  private void closeConstants() {
    if (constantsAllocator != null) {
      constantsAllocator.close();
    }
  }

  @Override
  public boolean next() {
    if (scan == null || ended) {
      return false;
    }
    try {
      while (!scan.next()) {
        task.beforeBatch(scan);
        if (!scan.nextBatch()) {
          row = null;
          end();
          return false;
        }
        if (memory != null) {
          memory.hold(scan.bytesHeld());
        }
      }
    } catch (RuntimeException e) {
      throw task.failure(e);
    }
    row = withPartition == null ? scan.row() : withPartition.apply(joined.withLeft(scan.row()));
    rows++;
    return true;
  }

  /** One row of the partition values, in Arrow vectors the native stream can take. */
  private static VectorSchemaRoot partitionRow(
      InternalRow values, StructField[] fields, BufferAllocator allocator) {
    List<FieldVector> vectors = new ArrayList<>();
    try {
      for (int i = 0; i < fields.length; i++) {
        DataType type = fields[i].dataType();
        FieldVector vector =
            ConstantRuns.valueField(fields[i].name(), type).createVector(allocator);
        vectors.add(vector);
        ConstantColumnVector constant = new ConstantColumnVector(1, type);
        ColumnVectorUtils.populate(constant, values, i);
        ConstantRuns.setValue(vector, type, constant);
        vector.setValueCount(1);
      }
      VectorSchemaRoot root = new VectorSchemaRoot(vectors);
      root.setRowCount(1);
      return root;
    } catch (RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
  }

  @Override
  public InternalRow get() {
    return row;
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return totals.current(rows, scan);
  }

  @Override
  public void initMetricsValues(CustomTaskMetric[] metrics) {
    totals.carry(metrics);
  }

  /**
   * The range is read: frees the stream's batches and row buffers now rather than at the task's end
   * (the counters stay readable), and gives their memory back to the task.
   */
  private void end() {
    ended = true;
    task.stopFetching();
    try {
      scan.close();
    } finally {
      if (memory != null) {
        memory.releaseAll();
      }
    }
  }

  @Override
  public void close() {
    if (scan == null) {
      return;
    }
    currentMetricsValues(); // keeps the stream's final counters
    try {
      task.close(scan, memory);
    } finally {
      scan = null;
      row = null;
      closeConstants();
    }
  }
}
