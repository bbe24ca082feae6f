package io.rowbridge.spark.frames;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.execution.arrow.ArrowWriter;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The batches of a columnar plan as Arrow IPC record batch messages, with no rows between: a column
 * whose vector is Arrow of the type Spark's Arrow schema gives it ({@code expected}) is written as
 * it is; any other column is written by Spark's own {@code ArrowWriter} from the batch's values.
 * The messages follow the schema message of {@code expected}, so a reader of Spark's Arrow schema
 * reads them.
 *
 * <p>Each message is made before the next batch is asked for, as the source may reuse its vectors.
 * An empty batch makes no message. The vectors made for written columns belong to the iterator's
 * allocator, freed when the task completes.
 */
public final class ColumnarBatchMessages extends BatchMessages<ColumnarBatch> {
  private final int[] ordinals;
  private final Schema expected;
  private final BufferAllocator allocator;

  /**
   * Messages of {@code batches}' columns {@code ordinals}, in that order, as the fields of {@code
   * expected}. Call from a task.
   */
  public ColumnarBatchMessages(Iterator<ColumnarBatch> batches, int[] ordinals, Schema expected) {
    super(batches);
    if (ordinals.length != expected.getFields().size()) {
      throw new IllegalArgumentException(
          "rowbridge: "
              + ordinals.length
              + " columns for an Arrow schema of "
              + expected.getFields().size()
              + " fields");
    }
    this.ordinals = ordinals.clone();
    this.expected = expected;
    this.allocator =
        ArrowUtils.rootAllocator()
            .newChildAllocator("rowbridge's columnar batches to Python", 0, Long.MAX_VALUE);
    TaskContext task = TaskContext.get();
    if (task != null) {
      task.addTaskCompletionListener((TaskContext context) -> allocator.close());
    }
  }

  @Override
  protected byte[] messageOf(ColumnarBatch batch) {
    return batch.numRows() > 0 ? message(batch) : null;
  }

  /**
   * The message of {@code batch}'s columns (read now; the batch may be reused once this returns).
   */
  public byte[] message(ColumnarBatch batch) {
    int rows = batch.numRows();
    List<Field> fields = expected.getFields();
    List<FieldVector> vectors = new ArrayList<>(fields.size());
    List<VectorSchemaRoot> written = new ArrayList<>();
    try {
      for (int i = 0; i < fields.size(); i++) {
        ColumnVector column = batch.column(ordinals[i]);
        FieldVector as = arrowAsIs(column, fields.get(i));
        if (as == null) {
          VectorSchemaRoot one = write(column, fields.get(i), rows);
          written.add(one);
          as = one.getVector(0);
        }
        vectors.add(as);
      }
      // The root only lends the vectors to the unloader: closing it would free the source's.
      VectorSchemaRoot root = new VectorSchemaRoot(fields, vectors, rows);
      try (ArrowRecordBatch record = new VectorUnloader(root).getRecordBatch()) {
        return serialize(record);
      }
    } finally {
      written.forEach(VectorSchemaRoot::close);
    }
  }

  /** {@code record} as one IPC message: measured first, then written into an array of its size. */
  public static byte[] serialize(ArrowRecordBatch record) {
    try {
      CountingChannel counted = new CountingChannel();
      MessageSerializer.serialize(new WriteChannel(counted), record);
      ArrayChannel message = new ArrayChannel(Math.toIntExact(counted.bytes));
      MessageSerializer.serialize(new WriteChannel(message), record);
      return message.filled();
    } catch (IOException e) {
      throw new UncheckedIOException("rowbridge: writing a columnar batch's message", e);
    }
  }

  /** A channel that only counts the bytes written to it. */
  private static final class CountingChannel implements WritableByteChannel {
    long bytes;

    @Override
    public int write(ByteBuffer source) {
      int n = source.remaining();
      source.position(source.limit());
      bytes += n;
      return n;
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }

  /** A channel writing into an array of a size known in advance. */
  private static final class ArrayChannel implements WritableByteChannel {
    private final byte[] array;
    private int filled;

    ArrayChannel(int size) {
      array = new byte[size];
    }

    @Override
    public int write(ByteBuffer source) {
      int n = source.remaining();
      source.get(array, filled, n);
      filled += n;
      return n;
    }

    byte[] filled() {
      if (filled != array.length) {
        throw new IllegalStateException(
            "rowbridge: a message of " + filled + " bytes, measured at " + array.length);
      }
      return array;
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }

  /** The column's Arrow vector when it is of {@code field}'s type at every level; else null. */
  static FieldVector arrowAsIs(ColumnVector column, Field field) {
    if (!(column instanceof ArrowColumnVector)) {
      return null;
    }
    ValueVector vector = ((ArrowColumnVector) column).getValueVector();
    if (!(vector instanceof FieldVector) || !sameType(vector.getField(), field)) {
      return null;
    }
    return (FieldVector) vector;
  }

  /** Equal Arrow types at every level; names and nullability aside. */
  static boolean sameType(Field actual, Field expected) {
    if (!actual.getType().equals(expected.getType())
        || actual.getChildren().size() != expected.getChildren().size()
        || (actual.getDictionary() == null) != (expected.getDictionary() == null)) {
      return false;
    }
    for (int i = 0; i < actual.getChildren().size(); i++) {
      if (!sameType(actual.getChildren().get(i), expected.getChildren().get(i))) {
        return false;
      }
    }
    return true;
  }

  /** A one-column root of {@code field} holding the column's values, by Spark's ArrowWriter. */
  private VectorSchemaRoot write(ColumnVector column, Field field, int rows) {
    VectorSchemaRoot one = VectorSchemaRoot.create(new Schema(List.of(field)), allocator);
    try {
      ArrowWriter writer = ArrowWriter.create(one);
      // Not closed: closing a batch closes its columns, which are the source's.
      ColumnarBatch single = new ColumnarBatch(new ColumnVector[] {column}, rows);
      for (int row = 0; row < rows; row++) {
        writer.write(single.getRow(row));
      }
      writer.finish();
      return one;
    } catch (RuntimeException e) {
      one.close();
      throw e;
    }
  }
}
