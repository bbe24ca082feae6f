package io.rowbridge.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.ConverterOptions;
import io.rowbridge.scan.ArrowScan;
import io.rowbridge.scan.NativeScan;
import io.rowbridge.scan.RowScan;
import io.rowbridge.scan.ScanOptions;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native scan with Spark as the oracle: the rows a RowScan's workers write must equal, byte for
 * byte, what Spark's UnsafeProjection writes for the batches an ArrowScan of the same file hands to
 * ArrowColumnVectors; the row schema must be the one Spark derives from the file's.
 */
class NativeScanSparkTest {
  static final int[] BATCH_ROWS = {500, 0, 33, 1024};

  @TempDir Path directory;

  static Schema schema() {
    return new Schema(
        List.of(
            new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
            new Field("name", FieldType.nullable(new ArrowType.Utf8()), null),
            new Field("amount", FieldType.nullable(new ArrowType.Decimal(20, 3, 128)), null),
            new Field(
                "values",
                FieldType.nullable(ArrowType.List.INSTANCE),
                List.of(new Field("item", FieldType.nullable(new ArrowType.Int(32, true)), null))),
            new Field(
                "point",
                FieldType.nullable(ArrowType.Struct.INSTANCE),
                List.of(
                    new Field("x", FieldType.nullable(new ArrowType.Int(32, true)), null),
                    new Field("label", FieldType.nullable(new ArrowType.Utf8()), null))),
            new Field(
                "score",
                FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
                null)));
  }

  static void fill(VectorSchemaRoot root, int rows, Random random) {
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector(0);
    VarCharVector name = (VarCharVector) root.getVector(1);
    DecimalVector amount = (DecimalVector) root.getVector(2);
    ListVector values = (ListVector) root.getVector(3);
    StructVector point = (StructVector) root.getVector(4);
    Float8Vector score = (Float8Vector) root.getVector(5);
    IntVector x = (IntVector) point.getChild("x");
    VarCharVector label = (VarCharVector) point.getChild("label");
    UnionListWriter list = values.getWriter();
    for (int i = 0; i < rows; i++) {
      id.setSafe(i, random.nextLong());
      if (random.nextInt(7) == 0) {
        name.setNull(i);
        amount.setNull(i);
        score.setNull(i);
      } else {
        name.setSafe(i, ("n" + random.nextInt()).getBytes(StandardCharsets.UTF_8));
        amount.setSafe(i, BigDecimal.valueOf(random.nextLong() % 100_000_000_000_000L, 3));
        score.setSafe(i, random.nextGaussian());
      }
      list.setPosition(i);
      if (random.nextInt(6) == 0) {
        values.setNull(i);
      } else {
        list.startList();
        for (int k = random.nextInt(6); k > 0; k--) {
          list.writeInt(random.nextInt());
        }
        list.endList();
      }
      if (random.nextInt(5) == 0) {
        point.setNull(i);
      } else {
        point.setIndexDefined(i);
        x.setSafe(i, random.nextInt());
        label.setSafe(i, ("l" + random.nextInt(1000)).getBytes(StandardCharsets.UTF_8));
      }
    }
    values.setValueCount(rows);
    root.setRowCount(rows);
  }

  static Path write(BufferAllocator allocator, Path path, long seed) throws IOException {
    Random random = new Random(seed);
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema(), allocator);
        FileChannel channel =
            FileChannel.open(
                path,
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        ArrowFileWriter writer = new ArrowFileWriter(root, null, channel)) {
      writer.start();
      for (int rows : BATCH_ROWS) {
        fill(root, rows, random);
        writer.writeBatch();
      }
      writer.end();
    }
    return path;
  }

  /** Spark's rows for every batch of an ArrowScan of {@code path}. */
  static List<byte[]> sparkRows(String path, ScanOptions options, BufferAllocator allocator) {
    List<byte[]> rows = new ArrayList<>();
    try (ArrowScan scan = NativeScan.openArrow(path, options, allocator)) {
      StructType sparkSchema = ArrowUtils.fromArrowSchema(scan.schema());
      while (scan.loadNextBatch()) {
        VectorSchemaRoot root = scan.getVectorSchemaRoot();
        ColumnVector[] vectors = new ColumnVector[root.getFieldVectors().size()];
        for (int c = 0; c < vectors.length; c++) {
          vectors[c] = new ArrowColumnVector(root.getVector(c));
        }
        rows.addAll(
            SparkDifferentialTest.project(
                new ColumnarBatch(vectors, root.getRowCount()), sparkSchema, false));
      }
    }
    return rows;
  }

  @Test
  void rowScanWritesWhatSparkWrites() throws IOException {
    long seed = 61130L;
    System.out.println("NativeScanSparkTest seed " + seed);
    try (BufferAllocator allocator = new RootAllocator()) {
      String path = write(allocator, directory.resolve("spark.arrow"), seed).toString();
      for (int[] columns : new int[][] {null, {4, 0, 2}, {3}}) {
        ScanOptions options = ScanOptions.defaults().columns(columns).inFlight(2);
        List<byte[]> expected = sparkRows(path, options, allocator);
        int index = 0;
        // Small chunks: rows past a batch's first chunk come from the consumer's thread.
        try (RowScan scan =
            NativeScan.openRows(
                path, options.converterOptions(ConverterOptions.defaults().maxChunkBytes(8192)))) {
          try (ArrowScan arrow = NativeScan.openArrow(path, options, allocator)) {
            assertEquals(ArrowUtils.fromArrowSchema(arrow.schema()), scan.sparkSchema());
          }
          while (scan.nextBatch()) {
            while (scan.next()) {
              assertTrue(index < expected.size(), "more rows than Spark's");
              SparkDifferentialTest.compare(
                  expected.get(index),
                  scan.row(),
                  index,
                  "native scan, columns " + java.util.Arrays.toString(columns));
              index++;
            }
          }
          assertFalse(scan.nextBatch());
        }
        assertEquals(expected.size(), index);
      }
      assertEquals(0, allocator.getAllocatedMemory());
    }
  }
}
