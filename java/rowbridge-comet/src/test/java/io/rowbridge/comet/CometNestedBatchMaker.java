package io.rowbridge.comet;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.comet.shaded.arrow.memory.BufferAllocator;
import org.apache.comet.shaded.arrow.vector.BigIntVector;
import org.apache.comet.shaded.arrow.vector.FieldVector;
import org.apache.comet.shaded.arrow.vector.Float8Vector;
import org.apache.comet.shaded.arrow.vector.IntVector;
import org.apache.comet.shaded.arrow.vector.VarCharVector;
import org.apache.comet.shaded.arrow.vector.complex.ListVector;
import org.apache.comet.shaded.arrow.vector.complex.MapVector;
import org.apache.comet.shaded.arrow.vector.complex.StructVector;
import org.apache.comet.shaded.arrow.vector.dictionary.Dictionary;
import org.apache.comet.shaded.arrow.vector.dictionary.DictionaryProvider;
import org.apache.comet.shaded.arrow.vector.types.pojo.ArrowType;
import org.apache.comet.shaded.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.comet.shaded.arrow.vector.types.pojo.FieldType;
import org.apache.comet.vector.CometVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Random batches of Comet's nested vectors over its relocated Arrow Java, made as Comet makes them
 * ({@code CometVector.getVector} with a dictionary provider): a list of ints, a struct of an int
 * and a dictionary-encoded string, a map of strings to longs, and a list of structs of a double and
 * a list of strings; nulls at every level, empty lists and maps. Owns the vectors it makes (from
 * the caller's allocator) until {@link #close}.
 */
final class CometNestedBatchMaker implements AutoCloseable {
  private static final ArrowType INT32 = new ArrowType.Int(32, true);

  /** The Spark schema of the batches, as a plan over them has it. */
  static final org.apache.spark.sql.types.StructType SCHEMA =
      org.apache.spark.sql.types.StructType.fromDDL(
          "li ARRAY<INT>, st STRUCT<a: INT, b: STRING>, m MAP<STRING, BIGINT>,"
              + " ls ARRAY<STRUCT<x: DOUBLE, y: ARRAY<STRING>>>");

  private final BufferAllocator allocator;
  private final Random random;
  private final List<FieldVector> owned = new ArrayList<>();
  private final DictionaryProvider.MapDictionaryProvider provider =
      new DictionaryProvider.MapDictionaryProvider();
  private final DictionaryEncoding encoding =
      new DictionaryEncoding(7, false, (ArrowType.Int) INT32);

  CometNestedBatchMaker(BufferAllocator allocator, Random random) {
    this.allocator = allocator;
    this.random = random;
    VarCharVector words = own(new VarCharVector("words", allocator));
    words.allocateNew(CometBatchMaker.WORDS.length);
    for (int w = 0; w < CometBatchMaker.WORDS.length; w++) {
      words.setSafe(w, CometBatchMaker.WORDS[w].getBytes(StandardCharsets.UTF_8));
    }
    words.setValueCount(CometBatchMaker.WORDS.length);
    provider.put(new Dictionary(words, encoding));
  }

  /** A batch of {@code rows} rows of the four nested columns. */
  ColumnarBatch batch(int rows) {
    FieldVector[] vectors = {listOfInts(rows), struct(rows), map(rows), listOfStructs(rows)};
    ColumnVector[] columns = new ColumnVector[vectors.length];
    for (int i = 0; i < vectors.length; i++) {
      columns[i] = CometVector.getVector(vectors[i], provider);
    }
    return new ColumnarBatch(columns, rows);
  }

  private boolean isNull() {
    return random.nextInt(6) == 0;
  }

  private String word() {
    StringBuilder text = new StringBuilder();
    for (int n = random.nextInt(20); n > 0; n--) {
      text.append((char) ('a' + random.nextInt(26)));
    }
    return text.toString();
  }

  private ListVector listOfInts(int rows) {
    ListVector list = own(ListVector.empty("li", allocator));
    IntVector ints = (IntVector) list.addOrGetVector(FieldType.nullable(INT32)).getVector();
    list.allocateNew();
    int element = 0;
    for (int r = 0; r < rows; r++) {
      if (isNull()) {
        list.setNull(r);
        continue;
      }
      list.startNewValue(r);
      int size = random.nextInt(5);
      for (int i = 0; i < size; i++, element++) {
        if (isNull()) {
          ints.setNull(element);
        } else {
          ints.setSafe(element, random.nextInt());
        }
      }
      list.endValue(r, size);
    }
    ints.setValueCount(element);
    list.setValueCount(rows);
    return list;
  }

  /** A struct of an int and int32 indices into the words' dictionary. */
  private StructVector struct(int rows) {
    StructVector struct = own(StructVector.empty("st", allocator));
    IntVector a = struct.addOrGet("a", FieldType.nullable(INT32), IntVector.class);
    IntVector b = struct.addOrGet("b", new FieldType(true, INT32, encoding), IntVector.class);
    struct.allocateNew();
    for (int r = 0; r < rows; r++) {
      if (isNull()) {
        struct.setNull(r);
        a.setNull(r);
        b.setNull(r);
        continue;
      }
      struct.setIndexDefined(r);
      if (isNull()) {
        a.setNull(r);
      } else {
        a.setSafe(r, random.nextInt(1000) - 500);
      }
      if (isNull()) {
        b.setNull(r);
      } else {
        b.setSafe(r, random.nextInt(CometBatchMaker.WORDS.length));
      }
    }
    a.setValueCount(rows);
    b.setValueCount(rows);
    struct.setValueCount(rows);
    return struct;
  }

  private MapVector map(int rows) {
    MapVector map = own(MapVector.empty("m", allocator, false));
    StructVector entries =
        (StructVector)
            map.addOrGetVector(FieldType.notNullable(ArrowType.Struct.INSTANCE)).getVector();
    VarCharVector keys =
        entries.addOrGet(
            MapVector.KEY_NAME,
            FieldType.notNullable(ArrowType.Utf8.INSTANCE),
            VarCharVector.class);
    BigIntVector values =
        entries.addOrGet(
            MapVector.VALUE_NAME,
            FieldType.nullable(new ArrowType.Int(64, true)),
            BigIntVector.class);
    map.allocateNew();
    int entry = 0;
    for (int r = 0; r < rows; r++) {
      if (isNull()) {
        map.setNull(r);
        continue;
      }
      map.startNewValue(r);
      int size = random.nextInt(4);
      for (int i = 0; i < size; i++, entry++) {
        entries.setIndexDefined(entry);
        keys.setSafe(entry, ("k" + i + word()).getBytes(StandardCharsets.UTF_8));
        if (isNull()) {
          values.setNull(entry);
        } else {
          values.setSafe(entry, random.nextLong());
        }
      }
      map.endValue(r, size);
    }
    keys.setValueCount(entry);
    values.setValueCount(entry);
    entries.setValueCount(entry);
    map.setValueCount(rows);
    return map;
  }

  /** A list of structs of a double and a list of strings. */
  private ListVector listOfStructs(int rows) {
    ListVector list = own(ListVector.empty("ls", allocator));
    StructVector items =
        (StructVector)
            list.addOrGetVector(FieldType.nullable(ArrowType.Struct.INSTANCE)).getVector();
    Float8Vector x =
        items.addOrGet(
            "x",
            FieldType.nullable(
                new ArrowType.FloatingPoint(
                    org.apache.comet.shaded.arrow.vector.types.FloatingPointPrecision.DOUBLE)),
            Float8Vector.class);
    ListVector y =
        items.addOrGet("y", FieldType.nullable(ArrowType.List.INSTANCE), ListVector.class);
    VarCharVector strings =
        (VarCharVector) y.addOrGetVector(FieldType.nullable(ArrowType.Utf8.INSTANCE)).getVector();
    list.allocateNew();
    int item = 0;
    int string = 0;
    for (int r = 0; r < rows; r++) {
      if (isNull()) {
        list.setNull(r);
        continue;
      }
      list.startNewValue(r);
      int size = random.nextInt(3);
      for (int i = 0; i < size; i++, item++) {
        if (isNull()) {
          items.setNull(item);
          x.setNull(item);
          y.setNull(item);
          continue;
        }
        items.setIndexDefined(item);
        x.setSafe(item, random.nextGaussian());
        y.startNewValue(item);
        int count = random.nextInt(3);
        for (int s = 0; s < count; s++, string++) {
          if (isNull()) {
            strings.setNull(string);
          } else {
            strings.setSafe(string, word().getBytes(StandardCharsets.UTF_8));
          }
        }
        y.endValue(item, count);
      }
      list.endValue(r, size);
    }
    strings.setValueCount(string);
    x.setValueCount(item);
    y.setValueCount(item);
    items.setValueCount(item);
    list.setValueCount(rows);
    return list;
  }

  private <T extends FieldVector> T own(T vector) {
    owned.add(vector);
    return vector;
  }

  @Override
  public void close() {
    for (FieldVector vector : owned) {
      vector.close();
    }
    owned.clear();
  }
}
