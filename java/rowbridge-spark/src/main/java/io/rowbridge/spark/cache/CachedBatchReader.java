package io.rowbridge.spark.cache;

import io.rowbridge.RowbridgeException;
import io.rowbridge.spark.arrow.ReusedArrowColumnVector;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.columnar.CachedBatch;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Cached batches read back as Arrow-backed ColumnarBatches of the columns asked for, in the order
 * asked for. Only those columns' messages are read: each body is copied once into off-heap memory,
 * which the vectors use as it is when the cache is uncompressed (and decompress from otherwise);
 * compact decimal columns ({@link CompactDecimals}) are widened back to decimal128 from there.
 *
 * <p>The same vectors are loaded batch after batch: a batch returned is valid until the next call
 * to {@link #next} or {@link #close}; its columns ignore Spark's close calls. The vectors' memory
 * (one batch of the columns read) belongs to this reader, a child of Spark's Arrow allocator, and
 * is freed when the batches end, at the task's end, or by {@link #close}. One thread at a time.
 */
public final class CachedBatchReader implements Iterator<ColumnarBatch>, AutoCloseable {
  private final Iterator<CachedBatch> batches;
  private final int[] columns;
  private final BufferAllocator allocator;
  private byte[] schemaMessage;
  private Schema schema;
  private VectorSchemaRoot[] roots;
  private VectorLoader[] loaders;

  /** Per column read, the decimal128 vector a compact decimal column widens into; else null. */
  private DecimalVector[] widened;

  private ColumnarBatch batch;
  private long index;
  private boolean closed;

  /**
   * @param batches the partition's cached batches (after pruning), each an {@link ArrowCachedBatch}
   * @param columns the cached columns to read, by position, in output order
   */
  public CachedBatchReader(Iterator<CachedBatch> batches, int[] columns) {
    this.batches = batches;
    this.columns = columns.clone();
    this.allocator =
        ArrowUtils.rootAllocator().newChildAllocator("rowbridge's cache reads", 0, Long.MAX_VALUE);
    TaskContext task = TaskContext.get();
    if (task != null) {
      task.addTaskCompletionListener((TaskContext context) -> close());
    }
  }

  @Override
  public boolean hasNext() {
    if (closed) {
      return false;
    }
    if (!batches.hasNext()) {
      close();
      return false;
    }
    return true;
  }

  /** The next batch (the same ColumnarBatch object, reloaded). */
  @Override
  public ColumnarBatch next() {
    if (!hasNext()) {
      throw new NoSuchElementException("rowbridge: no more cached batches");
    }
    CachedBatch next = batches.next();
    long number = index++;
    if (!(next instanceof ArrowCachedBatch)) {
      throw new RowbridgeException(
          "rowbridge: cached batch "
              + number
              + " is a "
              + next.getClass().getName()
              + ", not one of rowbridge's Arrow cache: was the data cached with another"
              + " spark.sql.cache.serializer?");
    }
    ArrowCachedBatch cached = (ArrowCachedBatch) next;
    if (cached.schemaMessage() != schemaMessage) {
      useSchema(cached);
    }
    for (int i = 0; i < columns.length; i++) {
      try (ArrowRecordBatch record =
          HeapMessages.recordBatch(
              cached.columnMessage(columns[i]), allocator, columns[i], number)) {
        loaders[i].load(record);
        if (widened[i] != null) {
          CompactDecimals.widen((BigIntVector) roots[i].getVector(0), widened[i], cached.numRows());
        }
      } catch (RowbridgeException e) {
        throw e;
      } catch (RuntimeException e) {
        throw new RowbridgeException(
            "rowbridge: " + HeapMessages.columnName(columns[i], number) + " does not load: " + e);
      }
    }
    batch.setNumRows(cached.numRows());
    return batch;
  }

  /** (Re)creates the vectors when a batch's schema differs from the last one's. */
  private void useSchema(ArrowCachedBatch cached) {
    Schema read = HeapMessages.schema(cached.schemaMessage());
    schemaMessage = cached.schemaMessage();
    if (read.equals(schema)) {
      return;
    }
    for (int c : columns) {
      if (c < 0 || c >= read.getFields().size() || c >= cached.numColumns()) {
        throw new RowbridgeException(
            "rowbridge: a cached batch of "
                + read.getFields().size()
                + " columns has no column "
                + c);
      }
    }
    closeVectors();
    schema = read;
    roots = new VectorSchemaRoot[columns.length];
    loaders = new VectorLoader[columns.length];
    widened = new DecimalVector[columns.length];
    ColumnVector[] vectors = new ColumnVector[columns.length];
    for (int i = 0; i < columns.length; i++) {
      Field field = read.getFields().get(columns[i]);
      FieldVector vector = field.createVector(allocator);
      roots[i] =
          new VectorSchemaRoot(
              Collections.singletonList(field), Collections.singletonList(vector), 0);
      loaders[i] = new VectorLoader(roots[i], CacheCompression.DECOMPRESSION);
      Field wide = CompactDecimals.wideField(field);
      if (wide != null) {
        widened[i] = (DecimalVector) wide.createVector(allocator);
        vectors[i] = new UnscaledDecimalColumnVector(widened[i]);
      } else {
        vectors[i] = new ReusedArrowColumnVector(vector);
      }
    }
    batch = new ColumnarBatch(vectors);
  }

  private void closeVectors() {
    if (roots != null) {
      for (int i = 0; i < roots.length; i++) {
        roots[i].close();
        if (widened[i] != null) {
          widened[i].close();
        }
      }
      roots = null;
    }
  }

  /** Frees the vectors; idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    closeVectors();
    allocator.close();
  }
}
