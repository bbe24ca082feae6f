package io.rowbridge.spark.cache;

import io.rowbridge.RowbridgeException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ArrowColumnVector;

/**
 * Makes cached batches of Arrow vectors: Spark's statistics per column ({@link ColumnStatistics}),
 * then each column as a one-column record batch message, its buffers compressed one by one.
 * Decimals of precision 18 or less are kept as unscaled longs ({@link CompactDecimals}).
 *
 * <p>Borrows the vectors for the call; the batch made holds only heap arrays. Built once per
 * partition (the statistics chosen once per column); the narrowing vectors come from the allocator
 * given, until {@link #close}. One thread at a time.
 */
final class CachedBatchWriter implements AutoCloseable {
  private final StructType schema;
  private final ColumnStatistics[] statistics;
  private final CompressionCodec codec;
  private final BufferAllocator allocator;
  private final CompactDecimals[] compact;
  private List<Field> fields;
  private byte[] schemaMessage;

  /**
   * @throws RowbridgeException for a column whose statistics the cache cannot keep (see {@link
   *     CacheBuilder#supports})
   */
  CachedBatchWriter(StructType schema, CacheCompression compression, BufferAllocator allocator) {
    this.schema = schema;
    this.allocator = allocator;
    this.compact = new CompactDecimals[schema.fields().length];
    this.statistics = new ColumnStatistics[schema.fields().length];
    for (int i = 0; i < statistics.length; i++) {
      statistics[i] = ColumnStatistics.of(schema.fields()[i].dataType());
      if (statistics[i] == null) {
        throw new RowbridgeException(
            "rowbridge: the Arrow cache keeps no statistics for column "
                + schema.fields()[i].name()
                + " of type "
                + schema.fields()[i].dataType().catalogString());
      }
    }
    this.codec = compression.codec();
  }

  /** A cached batch of the first {@code rows} values of each of {@code vectors}. */
  ArrowCachedBatch write(List<FieldVector> vectors, int rows) {
    if (vectors.size() != statistics.length) {
      throw new RowbridgeException(
          "rowbridge: a batch of "
              + vectors.size()
              + " columns to cache as "
              + schema.catalogString());
    }
    Object[] stats = new Object[5 * vectors.size()];
    byte[][] messages = new byte[vectors.size()][];
    List<Field> batchFields = new ArrayList<>(vectors.size());
    for (int i = 0; i < vectors.size(); i++) {
      FieldVector vector = vectors.get(i);
      if (CompactDecimals.applies(schema.fields()[i].dataType())) {
        if (compact[i] == null) {
          compact[i] = CompactDecimals.narrower(allocator, vector.getField());
        }
        vector = compact[i].narrow(vector, rows);
      }
      batchFields.add(vector.getField());
      statistics[i].gather(new ArrowColumnVector(vector), rows, stats, 5 * i);
      stats[5 * i + 4] = (long) vector.getBufferSize();
      messages[i] = columnMessage(vector, rows);
    }
    if (!batchFields.equals(fields)) {
      fields = batchFields;
      schemaMessage = HeapMessages.of(new Schema(batchFields));
    }
    return new ArrowCachedBatch(rows, schemaMessage, messages, new GenericInternalRow(stats));
  }

  /** Frees the narrowing vectors. */
  @Override
  public void close() {
    for (CompactDecimals narrower : compact) {
      if (narrower != null) {
        narrower.close();
      }
    }
  }

  private byte[] columnMessage(FieldVector vector, int rows) {
    VectorSchemaRoot one =
        new VectorSchemaRoot(
            Collections.singletonList(vector.getField()), Collections.singletonList(vector), rows);
    try (ArrowRecordBatch batch = new VectorUnloader(one, true, codec, true).getRecordBatch()) {
      return HeapMessages.of(batch);
    }
  }
}
