package io.rowbridge.demo;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The built-in datasets, written as Arrow IPC files with Arrow Java (uncompressed), from fixed
 * seeds:
 *
 * <ul>
 *   <li>{@code record}: the workload of record (CONTRACTS.md §6): {@code a int64} (the row number,
 *       unique over the dataset), {@code b int32} (uniform in [0, 1 000 000)), {@code c float64}
 *       (uniform in [0, 1000)), {@code d utf8} = {@code "value_" + a}; no nulls; 8192-row batches.
 *   <li>{@code nested}: CONTRACTS.md §6's nested schema plus a key: {@code id int64} (joins {@code
 *       record.a}), {@code s struct<a int64, b utf8>}, {@code ints list<int32>}, {@code tags
 *       map<utf8, int64>} (keys k0, k1, ...), {@code points list<struct<x float64, y utf8>>}; 0-8
 *       entries per list or map, strings of 5-30 bytes, 10 % nulls at every level.
 * </ul>
 */
public final class Datasets {
  public static final long SEED = 0x5eed_2026L;
  static final int BATCH_ROWS = 8192;

  private Datasets() {}

  static Schema recordSchema() {
    return new Schema(
        List.of(
            Field.notNullable("a", new ArrowType.Int(64, true)),
            Field.notNullable("b", new ArrowType.Int(32, true)),
            Field.notNullable("c", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
            Field.notNullable("d", new ArrowType.Utf8())));
  }

  static Schema nestedSchema() {
    ArrowType utf8 = new ArrowType.Utf8();
    ArrowType int64 = new ArrowType.Int(64, true);
    Field struct =
        new Field(
            "s",
            FieldType.nullable(new ArrowType.Struct()),
            List.of(Field.nullable("a", int64), Field.nullable("b", utf8)));
    Field ints =
        new Field(
            "ints",
            FieldType.nullable(new ArrowType.List()),
            List.of(Field.nullable("element", new ArrowType.Int(32, true))));
    Field entries =
        new Field(
            "entries",
            FieldType.notNullable(new ArrowType.Struct()),
            List.of(Field.notNullable("key", utf8), Field.nullable("value", int64)));
    Field tags = new Field("tags", FieldType.nullable(new ArrowType.Map(false)), List.of(entries));
    Field point =
        new Field(
            "element",
            FieldType.nullable(new ArrowType.Struct()),
            List.of(
                Field.nullable("x", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
                Field.nullable("y", utf8)));
    Field points = new Field("points", FieldType.nullable(new ArrowType.List()), List.of(point));
    return new Schema(List.of(Field.notNullable("id", int64), struct, ints, tags, points));
  }

  /** Writes {@code files} record files of {@code rowsPerFile} rows each under {@code dir}. */
  public static void writeRecord(Path dir, int files, long rowsPerFile, BufferAllocator allocator)
      throws IOException {
    Files.createDirectories(dir);
    for (int f = 0; f < files; f++) {
      SplittableRandom random = new SplittableRandom(SEED + f);
      long first = f * rowsPerFile;
      write(
          dir.resolve(String.format("part-%05d.arrow", f)),
          recordSchema(),
          rowsPerFile,
          allocator,
          (root, start, rows) -> fillRecord(root, first + start, rows, random));
    }
  }

  /** Writes {@code files} nested files of {@code rowsPerFile} rows each under {@code dir}. */
  public static void writeNested(Path dir, int files, long rowsPerFile, BufferAllocator allocator)
      throws IOException {
    Files.createDirectories(dir);
    for (int f = 0; f < files; f++) {
      SplittableRandom random = new SplittableRandom(~SEED + f);
      long first = f * rowsPerFile;
      write(
          dir.resolve(String.format("part-%05d.arrow", f)),
          nestedSchema(),
          rowsPerFile,
          allocator,
          (root, start, rows) -> fillNested(root, first + start, rows, random));
    }
  }

  interface Filler {
    void fill(VectorSchemaRoot root, long start, int rows);
  }

  /** Writes the file under a temporary name, renamed into place when complete. */
  private static void write(
      Path path, Schema schema, long rows, BufferAllocator allocator, Filler filler)
      throws IOException {
    Path partial = path.resolveSibling("." + path.getFileName() + ".partial");
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        FileChannel channel =
            FileChannel.open(
                partial,
                StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        ArrowFileWriter writer = new ArrowFileWriter(root, null, channel)) {
      writer.start();
      for (long start = 0; start < rows; start += BATCH_ROWS) {
        int count = (int) Math.min(BATCH_ROWS, rows - start);
        root.allocateNew();
        filler.fill(root, start, count);
        root.setRowCount(count);
        writer.writeBatch();
      }
      writer.end();
    }
    Files.move(partial, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static void fillRecord(
      VectorSchemaRoot root, long first, int rows, SplittableRandom random) {
    BigIntVector a = (BigIntVector) root.getVector(0);
    IntVector b = (IntVector) root.getVector(1);
    Float8Vector c = (Float8Vector) root.getVector(2);
    VarCharVector d = (VarCharVector) root.getVector(3);
    for (int r = 0; r < rows; r++) {
      long id = first + r;
      a.setSafe(r, id);
      b.setSafe(r, random.nextInt(1_000_000));
      c.setSafe(r, random.nextDouble() * 1000);
      d.setSafe(r, ("value_" + id).getBytes(StandardCharsets.UTF_8));
    }
    for (int i = 0; i < 4; i++) {
      root.getVector(i).setValueCount(rows);
    }
  }

  private static byte[] randomString(SplittableRandom random) {
    byte[] bytes = new byte[5 + random.nextInt(26)];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) ('a' + random.nextInt(26));
    }
    return bytes;
  }

  private static boolean isNull(SplittableRandom random) {
    return random.nextInt(10) == 0;
  }

  private static void fillNested(
      VectorSchemaRoot root, long first, int rows, SplittableRandom random) {
    BigIntVector id = (BigIntVector) root.getVector("id");
    StructVector s = (StructVector) root.getVector("s");
    BigIntVector sa = (BigIntVector) s.getChild("a");
    VarCharVector sb = (VarCharVector) s.getChild("b");
    ListVector ints = (ListVector) root.getVector("ints");
    IntVector element = (IntVector) ints.getDataVector();
    MapVector tags = (MapVector) root.getVector("tags");
    StructVector entries = (StructVector) tags.getDataVector();
    VarCharVector keys = (VarCharVector) entries.getChild("key");
    BigIntVector values = (BigIntVector) entries.getChild("value");
    ListVector points = (ListVector) root.getVector("points");
    StructVector point = (StructVector) points.getDataVector();
    Float8Vector px = (Float8Vector) point.getChild("x");
    VarCharVector py = (VarCharVector) point.getChild("y");
    for (int r = 0; r < rows; r++) {
      id.setSafe(r, first + r);
      if (isNull(random)) {
        s.setNull(r);
      } else {
        s.setIndexDefined(r);
        if (isNull(random)) {
          sa.setNull(r);
        } else {
          sa.setSafe(r, random.nextInt(1000));
        }
        if (isNull(random)) {
          sb.setNull(r);
        } else {
          sb.setSafe(r, randomString(random));
        }
      }
      if (isNull(random)) {
        ints.setNull(r);
      } else {
        int start = ints.startNewValue(r);
        int size = random.nextInt(9);
        for (int i = 0; i < size; i++) {
          if (isNull(random)) {
            element.setNull(start + i);
          } else {
            element.setSafe(start + i, random.nextInt(100));
          }
        }
        ints.endValue(r, size);
      }
      if (isNull(random)) {
        tags.setNull(r);
      } else {
        int start = tags.startNewValue(r);
        int size = random.nextInt(9);
        for (int i = 0; i < size; i++) {
          keys.setSafe(start + i, ("k" + i).getBytes(StandardCharsets.UTF_8));
          if (isNull(random)) {
            values.setNull(start + i);
          } else {
            values.setSafe(start + i, random.nextInt(1000));
          }
          entries.setIndexDefined(start + i);
        }
        tags.endValue(r, size);
      }
      if (isNull(random)) {
        points.setNull(r);
      } else {
        int start = points.startNewValue(r);
        int size = random.nextInt(9);
        for (int i = 0; i < size; i++) {
          if (isNull(random)) {
            point.setNull(start + i);
            continue;
          }
          point.setIndexDefined(start + i);
          if (isNull(random)) {
            px.setNull(start + i);
          } else {
            px.setSafe(start + i, random.nextDouble());
          }
          if (isNull(random)) {
            py.setNull(start + i);
          } else {
            py.setSafe(start + i, randomString(random));
          }
        }
        points.endValue(r, size);
      }
    }
    root.setRowCount(rows);
  }
}
