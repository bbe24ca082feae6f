package io.rowbridge.spark.cache;

import io.rowbridge.ArrowSchemas;
import io.rowbridge.DecoderOptions;
import io.rowbridge.RowbridgeDecoder;
import io.rowbridge.spark.arrow.ReusedArrowColumnVector;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.columnar.CachedBatch;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * One partition's cached batches, built from rows or from columnar batches.
 *
 * <p>Rows are decoded to Arrow natively ({@link RowbridgeDecoder}: staged in native memory, then
 * one JNI call per batch) in batches of at most {@code batchRows} rows. A columnar batch whose
 * columns are all plain Arrow vectors (rowbridge's own scan, Spark's Arrow-backed batches) is
 * cached as it is, one cached batch per input batch, with no rows made; any other batch goes
 * through its rows. The decoder's memory (one batch) is freed when the iterator ends, or at the
 * task's end. One thread at a time.
 */
public final class CacheBuilder implements Iterator<CachedBatch>, AutoCloseable {
  private final Iterator<ColumnarBatch> batches;
  private Iterator<InternalRow> rows;
  private final StructType schema;
  private final String timeZoneId;
  private final int batchRows;
  private final CachedBatchWriter writer;
  private final ArrayDeque<CachedBatch> ready = new ArrayDeque<>();
  private final BufferAllocator allocator;
  private RowbridgeDecoder decoder;
  private boolean first = true;
  private boolean closed;

  private CacheBuilder(
      Iterator<ColumnarBatch> batches,
      Iterator<InternalRow> rows,
      StructType schema,
      String timeZoneId,
      int batchRows,
      CacheCompression compression) {
    this.batches = batches;
    this.rows = rows;
    this.schema = schema;
    this.timeZoneId = timeZoneId;
    this.batchRows = Math.max(1, batchRows);
    this.allocator =
        ArrowUtils.rootAllocator().newChildAllocator("rowbridge's cache build", 0, Long.MAX_VALUE);
    this.writer = new CachedBatchWriter(schema, compression, allocator);
    TaskContext task = TaskContext.get();
    if (task != null) {
      task.addTaskCompletionListener((TaskContext context) -> close());
    }
  }

  /**
   * The cached batches of {@code rows} of {@code schema}, at most {@code batchRows} rows each
   * ({@code spark.sql.inMemoryColumnarStorage.batchSize}); timestamps carry {@code timeZoneId}.
   */
  public static CacheBuilder ofRows(
      Iterator<InternalRow> rows,
      StructType schema,
      String timeZoneId,
      int batchRows,
      CacheCompression compression) {
    return new CacheBuilder(null, rows, schema, timeZoneId, batchRows, compression);
  }

  /** The cached batches of columnar {@code batches} of {@code schema}. */
  public static CacheBuilder ofBatches(
      Iterator<ColumnarBatch> batches,
      StructType schema,
      String timeZoneId,
      int batchRows,
      CacheCompression compression) {
    return new CacheBuilder(batches, null, schema, timeZoneId, batchRows, compression);
  }

  @Override
  public boolean hasNext() {
    while (ready.isEmpty() && !closed) {
      if (rows != null) {
        if (!decodeFrom(rows)) {
          close();
        }
      } else if (batches.hasNext()) {
        cache(batches.next(), first);
        first = false;
      } else {
        close();
      }
    }
    return !ready.isEmpty();
  }

  @Override
  public CachedBatch next() {
    if (!hasNext()) {
      throw new NoSuchElementException("rowbridge: no more batches to cache");
    }
    return ready.poll();
  }

  /**
   * Caches an input batch as it is when it is Arrow. When the partition's first batch is not, the
   * partition's batches are read as one stream of rows from then on, cut into batches of {@code
   * batchRows} as rows are; a later batch that is not Arrow goes through its own rows.
   */
  private void cache(ColumnarBatch batch, boolean first) {
    List<FieldVector> vectors = arrowVectors(batch);
    if (vectors != null) {
      ready.add(writer.write(vectors, batch.numRows()));
    } else if (first) {
      rows = new BatchesAsRows(batch, batches);
    } else {
      Iterator<InternalRow> batchRows = batch.rowIterator();
      while (decodeFrom(batchRows)) {
        // each call caches one batch of the batch's rows
      }
    }
  }

  /**
   * The rows of a batch and of the batches after it. A batch is left only when its rows are used
   * up, so the decoder's kept row (the one that did not fit) stays valid.
   */
  private static final class BatchesAsRows implements Iterator<InternalRow> {
    private final Iterator<ColumnarBatch> rest;
    private Iterator<InternalRow> current;

    BatchesAsRows(ColumnarBatch first, Iterator<ColumnarBatch> rest) {
      this.current = first.rowIterator();
      this.rest = rest;
    }

    @Override
    public boolean hasNext() {
      while (!current.hasNext()) {
        if (!rest.hasNext()) {
          return false;
        }
        current = rest.next().rowIterator();
      }
      return true;
    }

    @Override
    public InternalRow next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return current.next();
    }
  }

  /** Decodes and caches the next batch of {@code from}; false when it had no rows left. */
  private boolean decodeFrom(Iterator<InternalRow> from) {
    if (decoder == null) {
      decoder =
          RowbridgeDecoder.create(
              schema, timeZoneId, allocator, DecoderOptions.defaults().maxRows(batchRows));
    }
    VectorSchemaRoot root = decoder.decodeNext(from);
    if (root.getRowCount() == 0) {
      return false;
    }
    ready.add(writer.write(root.getFieldVectors(), root.getRowCount()));
    return true;
  }

  /**
   * The batch's Arrow vectors when every column is a plain ArrowColumnVector (whose answers the
   * cached copy then gives again) over a vector of exactly the batch's rows; null otherwise.
   */
  private static List<FieldVector> arrowVectors(ColumnarBatch batch) {
    List<FieldVector> vectors = new ArrayList<>(batch.numCols());
    for (int i = 0; i < batch.numCols(); i++) {
      ColumnVector column = batch.column(i);
      if (column.getClass() != ArrowColumnVector.class
          && column.getClass() != ReusedArrowColumnVector.class) {
        return null;
      }
      ValueVector vector = ((ArrowColumnVector) column).getValueVector();
      if (!(vector instanceof FieldVector)
          || vector.getField().getDictionary() != null
          || vector.getValueCount() != batch.numRows()) {
        return null;
      }
      vectors.add((FieldVector) vector);
    }
    return vectors;
  }

  /**
   * Whether the cache takes a column of {@code type}: rows of it decode to Arrow, this Spark's
   * ArrowColumnVector reads that Arrow type (Spark 3.5's lacks calendar intervals), and Spark's
   * pruning finds the statistics it reads (bounds for every atomic type but binary).
   */
  public static boolean supports(DataType type) {
    if (!ArrowSchemas.supports(type) || ColumnStatistics.of(type) == null) {
      return false;
    }
    StructType one = new StructType().add("c", type);
    try (BufferAllocator probe =
            ArrowUtils.rootAllocator().newChildAllocator("rowbridge's cache type probe", 0, 0);
        FieldVector vector = ArrowSchemas.of(one, "UTC").getFields().get(0).createVector(probe)) {
      new ArrowColumnVector(vector).close();
      return true;
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }

  /** Frees the decoder's memory; idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (decoder != null) {
      decoder.close();
      decoder = null;
    }
    writer.close();
    allocator.close();
  }
}
