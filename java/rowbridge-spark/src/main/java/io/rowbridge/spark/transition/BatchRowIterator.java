package io.rowbridge.spark.transition;

import io.rowbridge.ConverterOptions;
import io.rowbridge.RowbridgeConverter;
import io.rowbridge.RowbridgeException;
import io.rowbridge.spark.conf.RowbridgeConf;
import io.rowbridge.spark.engine.EngineInput;
import io.rowbridge.spark.memory.TaskMemoryAccounting;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.util.TaskCompletionListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rows of one partition's batches: each batch whose columns are all ArrowColumnVectors or
 * ConstantColumnVectors (partition columns, written as one run each: {@link ConstantRuns}) goes
 * through rowbridge (one converter per partition, created from the first such batch); any other
 * batch (on-heap vectors, dictionary-encoded vectors, which Spark reads as their indices, a type
 * rowbridge does not take) goes through Spark's own path, UnsafeProjection over {@code
 * ColumnarBatch.rowIterator()}. With an engine named ({@link EngineInput}), a batch goes through
 * rowbridge when the engine's input reads every column, and through Spark's path otherwise. Rows
 * are reused, as Spark's ColumnarToRowExec reuses its own: valid until the next row.
 */
public final class BatchRowIterator implements Iterator<InternalRow>, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BatchRowIterator.class);

  private final Iterator<ColumnarBatch> batches;
  private final BatchRowSource source;

  private RowbridgeConverter converter;
  private boolean converterUnusable;
  private UnsafeProjection projection;
  private Iterator<InternalRow> sparkRows;
  private boolean onRowbridge;
  private InternalRow ready;

  /** Per column, the run-end encoded stand-in of its constant vectors; null without any. */
  private ConstantRuns[] constants;

  private BufferAllocator allocator;
  private final List<ValueVector> vectors = new ArrayList<>();

  /** With an engine's batches ({@link BatchRowSource#engine}): its reader, made on first use. */
  private EngineInput.BatchReader engineReader;

  /** The rows of {@code batches}, with the settings and metrics of {@code source}. */
  BatchRowIterator(Iterator<ColumnarBatch> batches, BatchRowSource source) {
    this.batches = batches;
    this.source = source;
    TaskContext task = TaskContext.get();
    if (task != null) {
      task.addTaskCompletionListener((TaskCompletionListener) context -> close());
    }
  }

  /**
   * The next row, or null after the last one: the loop that whole-stage code generation writes
   * calls it directly ({@link #hasNext} and {@link #next} wrap it for the iterator path). The row
   * is reused: valid until the next call.
   */
  public UnsafeRow nextRow() {
    while (true) {
      if (onRowbridge) {
        long before = converter.conversionNanos();
        boolean more = converter.next(); // converts the next chunk when one is due
        long spent = converter.conversionNanos() - before;
        if (spent != 0) {
          source.convertTime.add(spent);
        }
        if (more) {
          return converter.row();
        }
        onRowbridge = false;
      } else if (sparkRows != null && sparkRows.hasNext()) {
        return projection.apply(sparkRows.next());
      }
      sparkRows = null;
      if (!batches.hasNext()) {
        return null;
      }
      ColumnarBatch batch = batches.next();
      source.numInputBatches.add(1);
      source.numOutputRows.add(batch.numRows());
      start(batch);
    }
  }

  @Override
  public boolean hasNext() {
    if (ready == null) {
      ready = nextRow();
    }
    return ready != null;
  }

  @Override
  public InternalRow next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    InternalRow row = ready;
    ready = null;
    return row;
  }

  private void start(ColumnarBatch batch) {
    if (source.engine != null ? readEngineBatch(batch) : eligible(batch) && converterReady(batch)) {
      long before = converter.conversionNanos();
      try {
        if (engineReader != null) {
          converter.convert(engineReader.columns(), batch.numRows());
        } else if (constants == null) {
          converter.convert(batch);
        } else {
          converter.convert(vectorsOf(batch), batch.numRows());
        }
        onRowbridge = true;
        return;
      } catch (RowbridgeException e) {
        if (e.code() == RowbridgeException.ENOMEM) {
          // The task's memory manager refused the row buffer (storage holds the memory, a
          // block being unrolled, other consumers): Spark's path needs none, and takes it.
          LOG.info("rowbridge: batch converted by Spark, memory refused: {}", e.getMessage());
        } else if (e.code() == RowbridgeException.E2BIG) {
          throw new RowbridgeException(
              e.getMessage()
                  + " ("
                  + RowbridgeConf.MAX_CHUNK_BYTES
                  + " = "
                  + source.maxChunkBytes
                  + ")",
              e.code());
        } else {
          // A batch rowbridge cannot take as it is: Spark's path reads it (and reports any
          // value Spark itself cannot read).
          LOG.debug("rowbridge: batch converted by Spark instead: {}", e.getMessage());
        }
      } finally {
        source.convertTime.add(converter.conversionNanos() - before);
      }
    }
    source.numSparkBatches.add(1);
    if (projection == null) {
      projection = UnsafeProjection.create(source.schema);
    }
    sparkRows = batch.rowIterator();
  }

  /**
   * True when the engine's input read every column of this batch into {@link #engineReader}; the
   * converter and reader are made on first use.
   */
  private boolean readEngineBatch(ColumnarBatch batch) {
    if (converterUnusable || batch.numCols() != source.schema.fields().length) {
      return false;
    }
    if (converter == null) {
      EngineInput input = EngineInput.named(source.engine);
      if (input == null) {
        LOG.warn(
            "rowbridge: Spark converts this partition's batches: no engine input named '{}' on"
                + " the executor's class path",
            source.engine);
        converterUnusable = true;
        return false;
      }
      try {
        converter = input.converter(source.schema, converterOptions());
      } catch (RowbridgeException e) {
        LOG.warn("rowbridge: Spark converts this partition's batches: {}", e.getMessage());
        converterUnusable = true;
        return false;
      }
      engineReader = input.reader(source.schema);
    }
    return engineReader.read(batch);
  }

  /** The batch's vectors, each constant column as its run-end encoded vector. */
  private List<ValueVector> vectorsOf(ColumnarBatch batch) {
    vectors.clear();
    for (int i = 0; i < batch.numCols(); i++) {
      ColumnVector column = batch.column(i);
      vectors.add(
          column instanceof ArrowColumnVector arrow
              ? arrow.getValueVector()
              : constants[i].of((ConstantColumnVector) column, batch.numRows()));
    }
    return vectors;
  }

  /**
   * Whether rowbridge converts this batch: every column an ArrowColumnVector that is not
   * dictionary-encoded, or a ConstantColumnVector of a type {@link ConstantRuns} takes, in the same
   * places as in the batch the converter was made for. A check only: it makes nothing.
   */
  private boolean eligible(ColumnarBatch batch) {
    if (converterUnusable || batch.numCols() != source.schema.fields().length) {
      return false;
    }
    for (int i = 0; i < batch.numCols(); i++) {
      ColumnVector column = batch.column(i);
      boolean constantBefore = constants != null && constants[i] != null;
      if (column instanceof ArrowColumnVector arrow) {
        // Spark reads a dictionary-encoded vector as its indices; a column that was constant
        // when the converter was made has a run-end field there.
        if (arrow.getValueVector().getField().getDictionary() != null || constantBefore) {
          return false;
        }
      } else if (column instanceof ConstantColumnVector) {
        boolean taken =
            converter != null ? constantBefore : ConstantRuns.hasStandIn(column.dataType());
        if (!taken) {
          return false;
        }
      } else {
        return false;
      }
    }
    return true;
  }

  /**
   * Makes the partition's converter from its first eligible batch, with the run-end stand-ins of
   * its constant columns (a batch of no columns too, as count(*) reads); false, logged, when it
   * cannot be made: Spark's path then takes every batch of the partition.
   */
  private boolean converterReady(ColumnarBatch batch) {
    if (converter != null) {
      return true;
    }
    List<Field> fields = new ArrayList<>(batch.numCols());
    boolean anyConstant = false;
    for (int i = 0; i < batch.numCols(); i++) {
      ColumnVector column = batch.column(i);
      if (column instanceof ArrowColumnVector arrow) {
        fields.add(arrow.getValueVector().getField());
      } else {
        fields.add(ConstantRuns.fieldFor(source.schema.fields()[i].name(), column.dataType()));
        anyConstant = true;
      }
    }
    if (anyConstant) {
      allocator =
          ArrowUtils.rootAllocator()
              .newChildAllocator("rowbridge constant columns", 0, Long.MAX_VALUE);
      constants = new ConstantRuns[batch.numCols()];
      for (int i = 0; i < batch.numCols(); i++) {
        if (batch.column(i) instanceof ConstantColumnVector) {
          constants[i] = ConstantRuns.create(fields.get(i), batch.column(i).dataType(), allocator);
        }
      }
    }
    try {
      converter = RowbridgeConverter.create(source.schema, new Schema(fields), converterOptions());
      return true;
    } catch (RowbridgeException e) {
      LOG.warn("rowbridge: Spark converts this partition's batches: {}", e.getMessage());
      converterUnusable = true;
      return false;
    }
  }

  /** The converter's settings: the source's, timed, its memory accounted to the task. */
  private ConverterOptions converterOptions() {
    ConverterOptions options =
        ConverterOptions.defaults()
            .maxChunkBytes(source.maxChunkBytes)
            .validation(source.validation)
            .timed(true);
    TaskContext task = TaskContext.get();
    if (task != null) {
      options.memoryListener(
          new TaskMemoryAccounting(
              task.taskMemoryManager(),
              "the native row buffer",
              "lower " + RowbridgeConf.MAX_CHUNK_BYTES + " (now " + source.maxChunkBytes + ")"));
    }
    return options;
  }

  @Override
  public void close() {
    if (engineReader != null) {
      engineReader.close();
      engineReader = null;
    }
    if (converter != null) {
      converter.close();
      converter = null;
    }
    if (constants != null) {
      for (ConstantRuns runs : constants) {
        if (runs != null) {
          runs.close();
        }
      }
      constants = null;
      allocator.close();
      allocator = null;
    }
    onRowbridge = false;
    ready = null;
  }
}
