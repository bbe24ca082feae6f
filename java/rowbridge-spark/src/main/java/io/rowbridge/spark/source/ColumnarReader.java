package io.rowbridge.spark.source;

import io.rowbridge.scan.ArrowScan;
import io.rowbridge.scan.NativeScan;
import io.rowbridge.spark.arrow.ReusedArrowColumnVector;
import io.rowbridge.spark.memory.TaskMemoryAccounting;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.vectorized.ColumnVectorUtils;
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * A task's columnar reader: one native ArrowScan over its range, each batch handed to Spark as a
 * ColumnarBatch of ArrowColumnVectors over the scan's reused VectorSchemaRoot (valid until the next
 * batch, as Spark expects of a PartitionReader), followed by the partition columns as
 * ConstantColumnVectors (one value each, never materialised). Rowbridge's columnar-to-row operator,
 * when the extension is on, converts these batches natively wherever Spark needs rows.
 *
 * <p>The native memory of the batches the scan's workers decode ahead of the task (up to K + W:
 * buffers allocated for them, such as decompressed bodies; not the memory-mapped file) is accounted
 * to the task's memory manager, as in {@link RowReader}: at each batch the reader acquires or
 * releases the difference with {@link ArrowScan#bytesHeld}, and releases everything when the range
 * ends or the reader closes. The batch in hand belongs to Arrow Java's vectors.
 */
final class ColumnarReader implements PartitionReader<ColumnarBatch> {
  private final StreamTask task;
  private final BufferAllocator allocator;

  /** Null outside a Spark task. */
  private final TaskMemoryAccounting memory;

  private ArrowScan scan;
  private ColumnarBatch batch;
  private int constantRows = -1;
  private List<FieldVector> wrapped;
  private long rows;
  private final ScanMetrics.Totals totals = new ScanMetrics.Totals();
  private final InternalRow partitionValues;
  private final StructType partitionSchema;

  /** The partition columns after the file's, one value each (rebuilt when the row count moves). */
  private final ConstantColumnVector[] constants;

  ColumnarReader(
      FileRange range, SourceConf conf, InternalRow partitionValues, StructType partitionSchema) {
    this.task = new StreamTask(range, this);
    this.partitionValues = partitionValues;
    this.partitionSchema = partitionSchema;
    this.constants = new ConstantColumnVector[partitionSchema.fields().length];
    this.allocator =
        ArrowUtils.rootAllocator()
            .newChildAllocator(
                "rowbridge scan " + range.path() + " @" + range.firstBatch(), 0, Long.MAX_VALUE);
    scan =
        task.open(
            conf,
            () ->
                range.remote() == null
                    ? NativeScan.openArrow(range.path(), task.options(conf), allocator)
                    : NativeScan.openArrow(range.remote().image(), task.options(conf), allocator),
            allocator::close);
    memory = task.memory("the columnar scan's native batches decoded ahead", conf, "");
  }

  @Override
  public boolean next() {
    if (scan == null) {
      return false;
    }
    boolean loaded;
    try {
      task.beforeBatch(scan);
      loaded = scan.loadNextBatch();
      if (memory != null) {
        // 0 once the range is read: the last batch is Arrow Java's.
        memory.hold(scan.bytesHeld());
      }
    } catch (RuntimeException e) {
      throw task.failure(e);
    }
    if (!loaded) {
      return false;
    }
    VectorSchemaRoot root = scan.getVectorSchemaRoot();
    List<FieldVector> vectors = root.getFieldVectors();
    int numRows = root.getRowCount();
    boolean constantsMoved = constants.length > 0 && constantRows != numRows;
    if (batch == null || !sameVectors(vectors) || constantsMoved) {
      // ArrowColumnVector binds its accessor to the vector object: rewrap when the root's
      // vectors are new objects (ReusedArrowColumnVector: Spark's closing them leaves them open).
      ColumnVector[] columns = new ColumnVector[vectors.size() + constants.length];
      for (int i = 0; i < vectors.size(); i++) {
        columns[i] = new ReusedArrowColumnVector(vectors.get(i));
      }
      if (constantsMoved) {
        for (int i = 0; i < constants.length; i++) {
          constants[i] = new ConstantColumnVector(numRows, partitionSchema.fields()[i].dataType());
          ColumnVectorUtils.populate(constants[i], partitionValues, i);
        }
        constantRows = numRows;
      }
      System.arraycopy(constants, 0, columns, vectors.size(), constants.length);
      batch = new ColumnarBatch(columns);
      wrapped = List.copyOf(vectors);
    }
    batch.setNumRows(numRows);
    rows += root.getRowCount();
    return true;
  }

  private boolean sameVectors(List<FieldVector> vectors) {
    if (vectors.size() != wrapped.size()) {
      return false;
    }
    for (int i = 0; i < vectors.size(); i++) {
      if (vectors.get(i) != wrapped.get(i)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public ColumnarBatch get() {
    return batch;
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return totals.current(rows, scan);
  }

  @Override
  public void initMetricsValues(CustomTaskMetric[] metrics) {
    totals.carry(metrics);
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
      batch = null;
      wrapped = null;
      allocator.close();
    }
  }
}
