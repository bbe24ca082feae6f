package io.rowbridge.scan;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Arrow IPC files written by Arrow Java for the scan tests: five columns (int64, utf8 with nulls,
 * list of int32, a dictionary-encoded utf8, a struct), seeded values, and the TSV text of every
 * batch as written, to compare what the scan reads back.
 */
final class ScanFiles {
  static final long DICTIONARY_ID = 7;
  static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "epsilon"};

  /** The written file: its path, each batch's TSV, its record blocks. */
  static final class Written {
    final Path path;
    final List<String> batches = new ArrayList<>();
    final List<ArrowBlock> blocks = new ArrayList<>();
    final List<Integer> rows = new ArrayList<>();

    Written(Path path) {
      this.path = path;
    }
  }

  private ScanFiles() {}

  static Schema schema() {
    Field id = new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null);
    Field name = new Field("name", FieldType.nullable(new ArrowType.Utf8()), null);
    Field values =
        new Field(
            "values",
            FieldType.nullable(ArrowType.List.INSTANCE),
            List.of(new Field("item", FieldType.nullable(new ArrowType.Int(32, true)), null)));
    Field word =
        new Field(
            "word",
            new FieldType(
                true,
                new ArrowType.Int(32, true),
                new DictionaryEncoding(DICTIONARY_ID, false, new ArrowType.Int(32, true))),
            null);
    Field point =
        new Field(
            "point",
            FieldType.nullable(ArrowType.Struct.INSTANCE),
            List.of(
                new Field("x", FieldType.nullable(new ArrowType.Int(32, true)), null),
                new Field("label", FieldType.nullable(new ArrowType.Utf8()), null)));
    return new Schema(List.of(id, name, values, word, point));
  }

  /** Writes {@code batchRows.length} batches with those row counts, values from {@code seed}. */
  static Written write(BufferAllocator allocator, Path path, int[] batchRows, long seed)
      throws IOException {
    Random random = new Random(seed);
    Written written = new Written(path);
    VarCharVector dictionaryValues =
        new VarCharVector(
            new Field("dictionary", FieldType.nullable(new ArrowType.Utf8()), null), allocator);
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema(), allocator);
        FileChannel channel =
            FileChannel.open(
                path,
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
      dictionaryValues.allocateNew();
      for (int i = 0; i < WORDS.length; i++) {
        dictionaryValues.setSafe(i, WORDS[i].getBytes(StandardCharsets.UTF_8));
      }
      dictionaryValues.setValueCount(WORDS.length);
      DictionaryProvider.MapDictionaryProvider provider =
          new DictionaryProvider.MapDictionaryProvider();
      provider.put(
          new Dictionary(
              dictionaryValues,
              new DictionaryEncoding(DICTIONARY_ID, false, new ArrowType.Int(32, true))));
      try (ArrowFileWriter writer = new ArrowFileWriter(root, provider, channel)) {
        writer.start();
        long nextId = 0;
        for (int rows : batchRows) {
          fill(root, rows, nextId, random);
          nextId += rows;
          writer.writeBatch();
          written.batches.add(root.contentToTSVString());
          written.rows.add(rows);
        }
        writer.end();
        written.blocks.addAll(writer.getRecordBlocks());
      }
    } finally {
      dictionaryValues.close();
    }
    return written;
  }

  private static void fill(VectorSchemaRoot root, int rows, long firstId, Random random) {
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector name = (VarCharVector) root.getVector("name");
    ListVector values = (ListVector) root.getVector("values");
    IntVector word = (IntVector) root.getVector("word");
    StructVector point = (StructVector) root.getVector("point");
    IntVector x = (IntVector) point.getChild("x");
    VarCharVector label = (VarCharVector) point.getChild("label");
    UnionListWriter list = values.getWriter();
    for (int i = 0; i < rows; i++) {
      id.setSafe(i, firstId + i);
      if (random.nextInt(10) == 0) {
        name.setNull(i);
      } else {
        name.setSafe(i, ("name-" + random.nextInt(100000)).getBytes(StandardCharsets.UTF_8));
      }
      list.setPosition(i);
      if (random.nextInt(8) == 0) {
        values.setNull(i);
      } else {
        list.startList();
        int n = random.nextInt(5);
        for (int k = 0; k < n; k++) {
          list.writeInt(random.nextInt());
        }
        list.endList();
      }
      word.setSafe(i, random.nextInt(WORDS.length));
      if (random.nextInt(9) == 0) {
        point.setNull(i);
      } else {
        point.setIndexDefined(i);
        x.setSafe(i, random.nextInt(1000));
        label.setSafe(i, ("p" + i).getBytes(StandardCharsets.UTF_8));
      }
    }
    values.setValueCount(rows);
    root.setRowCount(rows);
  }

  /** Makes batch {@code index}'s message claim a metadata length past the end of the file. */
  static void corruptBatch(Written written, int index) throws IOException {
    try (RandomAccessFile file = new RandomAccessFile(written.path.toFile(), "rw")) {
      file.seek(written.blocks.get(index).getOffset() + 4);
      file.write(new byte[] {(byte) 0xf0, (byte) 0xff, (byte) 0xff, (byte) 0x7f});
    }
  }
}
