package io.rowbridge.spark.frames;

import java.util.Arrays;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads a {@link PythonBatchPartition} as Arrow-backed ColumnarBatches, one per message, loaded
 * into one set of vectors (columnar reads only: the plan's transition makes the rows). The vectors'
 * memory is freed when Spark closes the reader.
 */
final class PythonBatchReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;

  private final String arrowSchemaJson;

  PythonBatchReaderFactory(String arrowSchemaJson) {
    this.arrowSchemaJson = arrowSchemaJson;
  }

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return true;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    throw new UnsupportedOperationException("rowbridge: Python's batches are read as batches");
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    byte[][] messages = ((PythonBatchPartition) partition).messages;
    RecordBatchMessages batches;
    try {
      batches =
          new RecordBatchMessages(
              Arrays.asList(messages).iterator(), Schema.fromJSON(arrowSchemaJson));
    } catch (java.io.IOException e) {
      throw new IllegalStateException("rowbridge: the Arrow schema of Python's batches", e);
    }
    return new PartitionReader<>() {
      private ColumnarBatch current;

      @Override
      public boolean next() {
        current = batches.hasNext() ? batches.next() : null;
        return current != null;
      }

      @Override
      public ColumnarBatch get() {
        return current;
      }

      @Override
      public void close() {
        batches.close();
      }
    };
  }
}
