package io.rowbridge.spark.frames;

import io.rowbridge.RowbridgeException;
import io.rowbridge.spark.arrow.ReusedArrowColumnVector;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Arrow IPC record batch messages (each one message, as PySpark sends a DataFrame's batches to the
 * JVM) as Arrow-backed ColumnarBatches of one schema, loaded one at a time into one set of vectors,
 * for rowbridge's converter to read.
 *
 * <p>Each batch returned is valid until the next call to {@link #next} or {@link #close}. The
 * vectors' memory belongs to this object (a child of Spark's Arrow allocator) until {@link #close};
 * the caller closes it. One thread at a time.
 */
public final class RecordBatchMessages implements Iterator<ColumnarBatch>, AutoCloseable {
  private final Iterator<byte[]> messages;
  private final BufferAllocator allocator;
  private final VectorSchemaRoot root;
  private final VectorLoader loader;
  private final ColumnarBatch batch;
  private int index;
  private boolean closed;

  /**
   * @param messages the batches' messages (read in order; none is kept)
   * @param schema the Arrow schema they were written with
   */
  public RecordBatchMessages(Iterator<byte[]> messages, Schema schema) {
    this.messages = messages;
    this.allocator =
        ArrowUtils.rootAllocator()
            .newChildAllocator("rowbridge's batches from Python", 0, Long.MAX_VALUE);
    this.root = VectorSchemaRoot.create(schema, allocator);
    this.loader = new VectorLoader(root);
    ColumnVector[] columns = new ColumnVector[root.getFieldVectors().size()];
    int i = 0;
    for (FieldVector vector : root.getFieldVectors()) {
      columns[i++] = new ReusedArrowColumnVector(vector);
    }
    this.batch = new ColumnarBatch(columns);
  }

  @Override
  public boolean hasNext() {
    return messages.hasNext();
  }

  /**
   * The next message's batch (the same ColumnarBatch object each time).
   *
   * @throws RowbridgeException when the message is not a record batch of the schema
   */
  @Override
  public ColumnarBatch next() {
    if (!messages.hasNext()) {
      throw new NoSuchElementException();
    }
    byte[] message = messages.next();
    int number = index++;
    try (ArrowRecordBatch record =
        MessageSerializer.deserializeRecordBatch(
            new ReadChannel(Channels.newChannel(new ByteArrayInputStream(message))), allocator)) {
      if (record == null) {
        throw new RowbridgeException(
            "rowbridge: batch " + number + " from Python is not an Arrow record batch message");
      }
      loader.load(record);
    } catch (IOException | IllegalArgumentException | IllegalStateException e) {
      RowbridgeException error =
          new RowbridgeException(
              "rowbridge: batch "
                  + number
                  + " from Python ("
                  + message.length
                  + " bytes) does not read as a record batch of "
                  + root.getSchema()
                  + ": "
                  + e.getMessage());
      error.initCause(e);
      throw error;
    }
    batch.setNumRows(root.getRowCount());
    return batch;
  }

  /** Frees the vectors (again: nothing). */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      root.close();
      allocator.close();
    }
  }
}
