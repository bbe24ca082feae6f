package io.rowbridge.spark.arrow;

import io.rowbridge.DecoderOptions;
import io.rowbridge.RowbridgeDecoder;
import io.rowbridge.spark.memory.TaskMemoryAccounting;
import java.io.Serializable;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.metric.SQLMetric;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.util.TaskCompletionListener;

/**
 * Turns a task's rows into Arrow-backed ColumnarBatches with the native row decoder: what {@code
 * RowToArrowExec} runs in each task. Serializable (the plan ships it to executors); each {@link
 * #open} makes one task's decoder, whose native memory is accounted to the task and freed when the
 * rows end or the task completes.
 */
public final class ArrowBatchSource implements Serializable {
  private static final long serialVersionUID = 1L;

  private final StructType schema;
  private final String timeZoneId;
  private final int maxRows;
  private final long maxBytes;
  private final SQLMetric numInputRows;
  private final SQLMetric numOutputBatches;
  private final SQLMetric decodeTime;

  public ArrowBatchSource(
      StructType schema,
      String timeZoneId,
      int maxRows,
      long maxBytes,
      SQLMetric numInputRows,
      SQLMetric numOutputBatches,
      SQLMetric decodeTime) {
    this.schema = schema;
    this.timeZoneId = timeZoneId;
    this.maxRows = maxRows;
    this.maxBytes = maxBytes;
    this.numInputRows = numInputRows;
    this.numOutputBatches = numOutputBatches;
    this.decodeTime = decodeTime;
  }

  /**
   * The batches of {@code rows}: each holds up to maxRows rows (and maxBytes bytes of rows) in
   * ArrowColumnVectors over the decoder's reused vectors, valid until the next batch is asked for,
   * as Spark's RowToColumnarExec's batches are.
   */
  public Iterator<ColumnarBatch> open(Iterator<InternalRow> rows) {
    return new Batches(rows);
  }

  private final class Batches implements Iterator<ColumnarBatch> {
    private final Iterator<InternalRow> rows;
    private BufferAllocator allocator;
    private RowbridgeDecoder decoder;
    private ColumnarBatch batch;
    private boolean ready;

    Batches(Iterator<InternalRow> rows) {
      this.rows = rows;
      TaskContext task = TaskContext.get();
      allocator =
          ArrowUtils.rootAllocator()
              .newChildAllocator("rowbridge rows to Arrow", 0, Long.MAX_VALUE);
      try {
        DecoderOptions options = DecoderOptions.defaults().maxRows(maxRows).maxBytes(maxBytes);
        if (task != null) {
          options.memoryListener(
              new TaskMemoryAccounting(
                  task.taskMemoryManager(),
                  "the row decoder's staging and vectors",
                  "lower spark.sql.inMemoryColumnarStorage" + ".batchSize (" + maxRows + " rows)"));
        }
        decoder = RowbridgeDecoder.create(schema, timeZoneId, allocator, options);
        VectorSchemaRoot root = decoder.root();
        ColumnVector[] columns = new ColumnVector[root.getFieldVectors().size()];
        for (int i = 0; i < columns.length; i++) {
          columns[i] = new ReusedArrowColumnVector(root.getVector(i));
        }
        batch = new ColumnarBatch(columns, 0);
      } catch (RuntimeException | Error e) {
        close();
        throw e;
      }
      if (task != null) {
        task.addTaskCompletionListener((TaskCompletionListener) context -> close());
      }
    }

    @Override
    public boolean hasNext() {
      if (!ready && decoder != null) {
        long start = System.nanoTime();
        int count = decoder.decodeNext(rows).getRowCount();
        decodeTime.add(System.nanoTime() - start);
        if (count == 0) {
          close();
        } else {
          batch.setNumRows(count);
          numInputRows.add(count);
          numOutputBatches.add(1);
          ready = true;
        }
      }
      return ready;
    }

    @Override
    public ColumnarBatch next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      ready = false;
      return batch;
    }

    private void close() {
      if (decoder != null) {
        decoder.close();
        decoder = null;
      }
      if (allocator != null) {
        allocator.close();
        allocator = null;
      }
      ready = false;
    }
  }
}
