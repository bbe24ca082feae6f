package io.rowbridge.spark.frames;

import io.rowbridge.ColumnBuffers;
import io.rowbridge.RowbridgeException;
import io.rowbridge.spark.engine.EngineInput;
import io.rowbridge.spark.python.EngineColumns;
import io.rowbridge.spark.python.RecordBatchBuilder;
import java.util.Collections;
import java.util.Iterator;
import java.util.concurrent.atomic.LongAdder;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Another engine's batches ({@link EngineInput}, such as Apache Comet's native plans) as Arrow IPC
 * record batch messages, with no rows between: the engine's reader gives each batch's columns as
 * flat buffers ({@link EngineColumns}, which checks every length before an address is read), and
 * {@link RecordBatchBuilder} copies them buffer by buffer into one message per batch. A batch whose
 * columns the reader does not give as buffers (nested columns, for Comet) is written by Spark's own
 * {@code ArrowWriter} from its values ({@link ColumnarBatchMessages}). The messages follow the
 * schema message of {@code expected}.
 *
 * <p>Each message is made before the next batch is asked for, as the engine may reuse its vectors.
 * An empty batch makes no message. The buffers belong to the iterator's allocator, freed when the
 * task completes.
 */
public final class EngineBatchMessages extends BatchMessages<ColumnarBatch> {
  /** Messages this JVM made from the engine's buffers, and by Spark's writer, for tests. */
  private static final LongAdder FROM_BUFFERS = new LongAdder();

  private static final LongAdder WRITTEN = new LongAdder();

  private final int[] ordinals;
  private final BufferAllocator allocator;
  private final EngineColumns columns;
  private final RecordBatchBuilder builder;
  private final ColumnarBatchMessages misfits;

  /**
   * Messages of {@code batches}' columns {@code ordinals}, in that order, as the fields of {@code
   * expected}, which are Spark's Arrow fields of {@code rowSchema}. {@code engine} names an
   * installed {@link EngineInput}. Call from a task.
   */
  public EngineBatchMessages(
      Iterator<ColumnarBatch> batches,
      int[] ordinals,
      Schema expected,
      String engine,
      StructType rowSchema) {
    super(batches);
    EngineInput input = EngineInput.named(engine);
    if (input == null) {
      throw new RowbridgeException("rowbridge: no engine input named " + engine + " is installed");
    }
    if (ordinals.length != expected.getFields().size()
        || ordinals.length != rowSchema.fields().length) {
      throw new IllegalArgumentException(
          "rowbridge: "
              + ordinals.length
              + " columns for an Arrow schema of "
              + expected.getFields().size()
              + " fields and rows of "
              + rowSchema.fields().length);
    }
    this.ordinals = ordinals.clone();
    int[] asPicked = new int[ordinals.length];
    for (int i = 0; i < asPicked.length; i++) {
      asPicked[i] = i;
    }
    this.misfits = new ColumnarBatchMessages(Collections.emptyIterator(), asPicked, expected);
    this.allocator =
        ArrowUtils.rootAllocator()
            .newChildAllocator("rowbridge's " + engine + " batches to Python", 0, Long.MAX_VALUE);
    EngineColumns engineColumns = null;
    RecordBatchBuilder recordBatches = null;
    try {
      engineColumns =
          new EngineColumns(engine, input.reader(rowSchema), expected.getFields(), allocator);
      recordBatches = new RecordBatchBuilder(expected.getFields(), false, allocator);
    } catch (RuntimeException e) {
      if (engineColumns != null) {
        engineColumns.close();
      }
      allocator.close();
      throw e;
    }
    this.columns = engineColumns;
    this.builder = recordBatches;
    TaskContext task = TaskContext.get();
    if (task != null) {
      task.addTaskCompletionListener((TaskContext context) -> close());
    }
  }

  @Override
  protected byte[] messageOf(ColumnarBatch batch) {
    return batch.numRows() > 0 ? message(picked(batch)) : null;
  }

  /**
   * The batch's columns {@link #ordinals}, as a batch (not closed: the columns are the source's).
   */
  private ColumnarBatch picked(ColumnarBatch batch) {
    ColumnVector[] vectors = new ColumnVector[ordinals.length];
    for (int i = 0; i < vectors.length; i++) {
      vectors[i] = batch.column(ordinals[i]);
    }
    return new ColumnarBatch(vectors, batch.numRows());
  }

  private byte[] message(ColumnarBatch batch) {
    ColumnBuffers[] buffers = columns.read(batch);
    if (buffers == null) {
      WRITTEN.increment();
      return misfits.message(batch);
    }
    FROM_BUFFERS.increment();
    builder.reset();
    builder.append(buffers, 0, batch.numRows());
    try (ArrowRecordBatch record = builder.recordBatch()) {
      return ColumnarBatchMessages.serialize(record);
    }
  }

  /**
   * The messages made in this JVM so far: {@code [from the engine's buffers, by Spark's writer]}.
   */
  public static long[] messagesMade() {
    return new long[] {FROM_BUFFERS.sum(), WRITTEN.sum()};
  }

  private void close() {
    builder.close();
    columns.close();
    allocator.close();
  }
}
