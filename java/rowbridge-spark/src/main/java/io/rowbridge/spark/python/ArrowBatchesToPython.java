package io.rowbridge.spark.python;

import io.rowbridge.ColumnBuffers;
import io.rowbridge.spark.engine.EngineInput;
import io.rowbridge.spark.memory.TaskMemoryAccounting;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;
import java.util.function.LongConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.util.TaskCompletionListener;

/**
 * A task's Arrow-backed columnar batches (a {@code format("rowbridge")} scan's, or any child's
 * whose columns are {@link ArrowColumnVector}s, or another engine's flat columns read by its {@link
 * EngineInput}, such as Apache Comet's) on their way to a Python worker without becoming rows:
 * their values are copied buffer by buffer into record batches of Spark's stream schema ({@link
 * RecordBatchBuilder}) and written straight into the worker's stream, in place of Spark's {@code
 * ArrowWriter} over the rows of a columnar-to-row transition. Spark's own stream writer has written
 * the schema message before the first batch, and writes the end of the stream after the last.
 *
 * <p>The batches are cut as Spark's writer cuts the rows: {@link
 * ArrowRowsToPython.Settings#maxRows} rows each, across the child's batch boundaries, the last one
 * fewer. The caller keeps this path for streams without a byte limit or a codec.
 *
 * <p>From the first batch whose columns do not fit the stream's schema on (other Arrow types, a
 * dictionary, columns that are not Arrow's), the batches go through {@code rowsOf} to rows and
 * those through {@link ArrowRowsToPython}: the batch before that point may then hold fewer rows.
 * The builder's buffers are allocated on the first batch, accounted to the task's memory and freed
 * at {@link #close}, at the end of the input or at the end of the task ({@link
 * ArrowRowsToPython.Settings#closeAtTaskEnd}). One thread at a time.
 */
public final class ArrowBatchesToPython implements PythonInput {
  private final ArrowRowsToPython.Settings settings;
  private final Iterator<ColumnarBatch> batches;
  private final Function<Iterator<ColumnarBatch>, Iterator<InternalRow>> rowsOf;
  private final LongConsumer batchesWithoutRows;
  private final List<Field> targets;

  /** Spark's byte limit on a batch's Arrow data (Long.MAX_VALUE: none). */
  private final long byteLimit;

  /** The engine whose batches these are; null for Arrow Java's. */
  private final EngineInput engine;

  private EngineColumns engineColumns;

  private BufferAllocator allocator;
  private RecordBatchBuilder builder;
  private TaskMemoryAccounting memory;
  private WriteChannel channel;
  private DataOutputStream channelOut;

  private ColumnarBatch current;

  /** The current batch's columns: Arrow Java's vectors, or the engine's flat columns. */
  private ValueVector[] currentVectors;

  private ColumnBuffers[] currentBuffers;
  private int position;

  /** The first batch that does not fit, not yet handed to {@link #rows}. */
  private ColumnarBatch misfit;

  private ArrowRowsToPython rows;
  private boolean closed;

  /**
   * @param settings the stream's settings: its rows' schema is the batches'
   * @param batches the child's batches (each valid until the next is asked for)
   * @param rowsOf the rows of batches that do not fit, in order
   * @param batchesWithoutRows told of each record batch written from columnar input
   * @param engine the engine whose batches these are ({@link EngineInput#named}); null when they
   *     are Arrow Java's
   */
  public ArrowBatchesToPython(
      ArrowRowsToPython.Settings settings,
      Iterator<ColumnarBatch> batches,
      Function<Iterator<ColumnarBatch>, Iterator<InternalRow>> rowsOf,
      LongConsumer batchesWithoutRows,
      EngineInput engine) {
    this.settings = settings;
    this.engine = engine;
    this.batches = batches;
    this.rowsOf = rowsOf;
    this.batchesWithoutRows = batchesWithoutRows;
    List<Field> stream = settings.arrowSchema().getFields();
    this.targets = settings.inOneColumn ? stream.get(0).getChildren() : stream;
    this.byteLimit =
        settings.maxArrowBytes >= Integer.MAX_VALUE ? Long.MAX_VALUE : settings.maxArrowBytes;
  }

  @Override
  public boolean writeNext(DataOutputStream out) throws IOException {
    if (closed) {
      return false;
    }
    if (rows != null) {
      return rows.writeNext(out);
    }
    if (builder == null) {
      start();
    }
    builder.reset();
    boolean full = false;
    while (!full && builder.rows() < settings.maxRows && misfit == null) {
      if (current == null || position == current.numRows()) {
        if (!nextBatch()) {
          break;
        }
        continue;
      }
      int take = Math.min(settings.maxRows - builder.rows(), current.numRows() - position);
      if (byteLimit != Long.MAX_VALUE && sizeWith(take) >= byteLimit) {
        take = rowsReachingLimit(take);
        full = true;
      }
      if (currentBuffers != null) {
        builder.append(currentBuffers, position, take);
      } else {
        builder.append(currentVectors, position, take);
      }
      position += take;
    }
    if (builder.rows() > 0) {
      if (memory != null) {
        memory.hold(builder.capacity() + (engineColumns == null ? 0 : engineColumns.capacity()));
      }
      write(out);
      return true;
    }
    if (misfit != null) {
      rows = settings.open(rowsOf.apply(startingWith(misfit, batches)));
      misfit = null;
      releaseBuffers();
      return rows.writeNext(out);
    }
    close();
    return false;
  }

  /**
   * The fewest of the next {@code take} rows after which the batch's Arrow data reaches the byte
   * limit, which the whole {@code take} reach: Spark's writer adds a row while the batch's data is
   * below the limit, so the row that reaches it is the batch's last.
   */
  private int rowsReachingLimit(int take) {
    int low = 1;
    int high = take;
    while (low < high) {
      int middle = (low + high) >>> 1;
      if (sizeWith(middle) >= byteLimit) {
        high = middle;
      } else {
        low = middle + 1;
      }
    }
    return low;
  }

  /** The batch's Arrow data, as Spark's writer measures it, with the next {@code count} rows. */
  private long sizeWith(int count) {
    return currentBuffers != null
        ? builder.sparkSizeWith(currentBuffers, position, count)
        : builder.sparkSizeWith(currentVectors, position, count);
  }

  /**
   * Moves to the child's next batch; false at the end, or when it does not fit ({@link #misfit}).
   */
  private boolean nextBatch() {
    current = null;
    if (!batches.hasNext()) {
      return false;
    }
    ColumnarBatch batch = batches.next();
    ValueVector[] vectors = null;
    ColumnBuffers[] buffers = null;
    if (engineColumns != null) {
      buffers = engineColumns.read(batch);
    } else {
      vectors = fittingVectors(batch);
    }
    if (vectors == null && buffers == null) {
      misfit = batch;
      return false;
    }
    current = batch;
    currentVectors = vectors;
    currentBuffers = buffers;
    position = 0;
    return true;
  }

  /** The Arrow vectors of {@code batch}'s columns when each fits its target; null otherwise. */
  private ValueVector[] fittingVectors(ColumnarBatch batch) {
    if (batch.numCols() != targets.size()) {
      return null;
    }
    ValueVector[] vectors = new ValueVector[targets.size()];
    for (int i = 0; i < vectors.length; i++) {
      ColumnVector column = batch.column(i);
      if (!(column instanceof ArrowColumnVector arrow)) {
        return null;
      }
      ValueVector vector = arrow.getValueVector();
      if (!RecordBatchBuilder.fits(targets.get(i), vector.getField())) {
        return null;
      }
      vectors[i] = vector;
    }
    return vectors;
  }

  private void write(DataOutputStream out) throws IOException {
    if (channelOut != out) {
      channel = new WriteChannel(Channels.newChannel(out));
      channelOut = out;
    }
    try (ArrowRecordBatch batch = builder.recordBatch()) {
      MessageSerializer.serialize(channel, batch);
    }
    batchesWithoutRows.accept(1);
  }

  private void start() {
    allocator =
        ArrowUtils.rootAllocator()
            .newChildAllocator("rowbridge's batches for a Python worker", 0, Long.MAX_VALUE);
    builder = new RecordBatchBuilder(targets, settings.inOneColumn, allocator);
    if (engine != null) {
      engineColumns =
          new EngineColumns(engine.name(), engine.reader(settings.rowSchema), targets, allocator);
    }
    TaskContext task = TaskContext.get();
    if (task != null) {
      memory =
          new TaskMemoryAccounting(
              task.taskMemoryManager(),
              "rowbridge's record batches for a Python worker",
              "lower spark.sql.execution.arrow.maxRecordsPerBatch (now " + settings.maxRows + ")");
      if (settings.closeAtTaskEnd) {
        task.addTaskCompletionListener((TaskCompletionListener) context -> close());
      }
    }
  }

  private static Iterator<ColumnarBatch> startingWith(
      ColumnarBatch first, Iterator<ColumnarBatch> rest) {
    return new Iterator<ColumnarBatch>() {
      private boolean firstTaken;

      @Override
      public boolean hasNext() {
        return !firstTaken || rest.hasNext();
      }

      @Override
      public ColumnarBatch next() {
        if (!firstTaken) {
          firstTaken = true;
          return first;
        }
        if (!rest.hasNext()) {
          throw new NoSuchElementException();
        }
        return rest.next();
      }
    };
  }

  @Override
  public boolean inOneColumn() {
    return settings.inOneColumn;
  }

  /** Whether the rows of batches that did not fit went to Spark's writer: never the batches. */
  @Override
  public boolean handedOver() {
    return rows != null && rows.handedOver();
  }

  @Override
  public Iterator<InternalRow> remainingRows() {
    if (rows == null) {
      throw new IllegalStateException("rowbridge: the batches were not handed over");
    }
    return rows.remainingRows();
  }

  private void releaseBuffers() {
    if (builder != null) {
      builder.close();
      builder = null;
    }
    if (engineColumns != null) {
      engineColumns.close();
      engineColumns = null;
    }
    if (allocator != null) {
      allocator.close();
      allocator = null;
    }
    if (memory != null) {
      memory.releaseAll();
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    releaseBuffers();
    if (rows != null) {
      rows.close();
    }
  }
}
