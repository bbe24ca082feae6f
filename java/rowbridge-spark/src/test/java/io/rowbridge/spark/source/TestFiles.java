package io.rowbridge.spark.source;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.ArrowWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Arrow IPC files for the source's tests, written with Arrow Java: {@code a int64} (the row id),
 * {@code b int32} (id % 97), {@code c float64} (id / 4), {@code d utf8} ("value_" + id, null when
 * id % 7 == 3), {@code e list<int32>} (id % 4 elements, null when id % 11 == 5).
 */
final class TestFiles {
  private TestFiles() {}

  static Schema schema() {
    return new Schema(
        List.of(
            Field.notNullable("a", new ArrowType.Int(64, true)),
            Field.nullable("b", new ArrowType.Int(32, true)),
            Field.nullable("c", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
            Field.nullable("d", new ArrowType.Utf8()),
            new Field(
                "e",
                FieldType.nullable(new ArrowType.List()),
                List.of(Field.nullable("element", new ArrowType.Int(32, true))))));
  }

  /** Writes {@code batches} batches of {@code batchRows} rows, ids from {@code firstId}. */
  static void write(Path path, long firstId, int batches, int batchRows) throws IOException {
    write(path, firstId, batches, batchRows, false);
  }

  /** The same rows in the IPC stream format. */
  static void writeStream(Path path, long firstId, int batches, int batchRows) throws IOException {
    write(path, firstId, batches, batchRows, true);
  }

  /** The same rows in an IPC file whose bodies are zstd-compressed. */
  static void writeCompressed(Path path, long firstId, int batches, int batchRows)
      throws IOException {
    write(path, firstId, batches, batchRows, false, true);
  }

  private static void write(
      Path path, long firstId, int batches, int batchRows, boolean streamFormat)
      throws IOException {
    write(path, firstId, batches, batchRows, streamFormat, false);
  }

  private static void write(
      Path path, long firstId, int batches, int batchRows, boolean streamFormat, boolean zstd)
      throws IOException {
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema(), allocator);
        FileChannel channel =
            FileChannel.open(
                path,
                StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        ArrowWriter writer =
            streamFormat
                ? new ArrowStreamWriter(root, null, channel)
                : zstd
                    ? new ArrowFileWriter(
                        root,
                        null,
                        channel,
                        null,
                        IpcOption.DEFAULT,
                        CommonsCompressionFactory.INSTANCE,
                        CompressionUtil.CodecType.ZSTD)
                    : new ArrowFileWriter(root, null, channel)) {
      writer.start();
      for (int batch = 0; batch < batches; batch++) {
        root.allocateNew();
        fill(root, firstId + (long) batch * batchRows, batchRows);
        writer.writeBatch();
      }
      writer.end();
    }
  }

  private static void fill(VectorSchemaRoot root, long first, int rows) {
    BigIntVector a = (BigIntVector) root.getVector("a");
    IntVector b = (IntVector) root.getVector("b");
    Float8Vector c = (Float8Vector) root.getVector("c");
    VarCharVector d = (VarCharVector) root.getVector("d");
    ListVector e = (ListVector) root.getVector("e");
    IntVector element = (IntVector) e.getDataVector();
    for (int r = 0; r < rows; r++) {
      long id = first + r;
      a.setSafe(r, id);
      b.setSafe(r, (int) (id % 97));
      c.setSafe(r, id / 4.0);
      if (id % 7 == 3) {
        d.setNull(r);
      } else {
        d.setSafe(r, ("value_" + id).getBytes(StandardCharsets.UTF_8));
      }
      if (id % 11 == 5) {
        e.setNull(r);
      } else {
        int start = e.startNewValue(r);
        int size = (int) (id % 4);
        for (int i = 0; i < size; i++) {
          element.setSafe(start + i, (int) (id + i));
        }
        e.endValue(r, size);
      }
    }
    root.setRowCount(rows);
  }

  static void deleteTree(Path dir) throws IOException {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path path : files.sorted((x, y) -> y.compareTo(x)).toList()) {
        Files.delete(path);
      }
    }
  }
}
