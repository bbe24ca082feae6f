package io.rowbridge.spark;

import static io.rowbridge.spark.RandomColumns.*;
import static io.rowbridge.spark.RandomLeaves.*;

import io.rowbridge.NewerLayouts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/** Dictionary and run-end encodings of a leaf kind; the Spark side gets the values decoded. */
final class RandomEncodings {
  private RandomEncodings() {}

  /** dictionary<index, leaf>: values are the leaf's; the Spark side gets them decoded. */
  static final class DictionaryKind extends Kind {
    final ArrowType.Int indexType;
    final Leaf values;
    long id = -1;

    DictionaryKind(ArrowType.Int indexType, Leaf values) {
      this.indexType = indexType;
      this.values = values;
    }

    @Override
    String describe() {
      return "dictionary<"
          + (indexType.getIsSigned() ? "int" : "uint")
          + indexType.getBitWidth()
          + ", "
          + values.describe()
          + ">";
    }

    @Override
    boolean hasCalendarInterval() {
      return values.hasCalendarInterval();
    }

    @Override
    Field input(String name, boolean nullable, Dictionaries dictionaries) {
      if (id < 0) {
        id = dictionaries.nextId++;
      }
      return new Field(
          name,
          new FieldType(nullable, indexType, new DictionaryEncoding(id, false, indexType)),
          null);
    }

    @Override
    Field readable(String name, boolean nullable) {
      return values.readable(name, nullable);
    }

    private List<Object> pool;

    /** A value from a pool small enough for the index type (so values repeat, too). */
    @Override
    Object random(Random random) {
      if (pool == null) {
        long max =
            indexType.getIsSigned()
                ? (1L << (indexType.getBitWidth() - 1)) - 1
                : (1L << indexType.getBitWidth()) - 1;
        int size = 1 + random.nextInt((int) Math.min(max - 1, 300));
        pool = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
          pool.add(values.random(random));
        }
      }
      return pool.get(random.nextInt(pool.size()));
    }

    @Override
    void fill(
        FieldVector vector,
        List<Object> rows,
        boolean readable,
        Random random,
        Dictionaries dictionaries) {
      if (readable) {
        values.fill(vector, rows, true, random, dictionaries);
        return;
      }
      // The dictionary: the distinct values (by encoded bytes), shuffled, plus a null entry.
      List<Object> entries = new ArrayList<>();
      Map<String, Integer> positions = new HashMap<>();
      int[] index = new int[rows.size()];
      for (int i = 0; i < rows.size(); i++) {
        Object value = rows.get(i);
        if (value == null) {
          index[i] = -1;
          continue;
        }
        String key = java.util.Arrays.toString(bytesOf(values.encode(value, false)));
        Integer at = positions.get(key);
        if (at == null) {
          at = entries.size();
          positions.put(key, at);
          entries.add(value);
        }
        index[i] = at;
      }
      int nullEntry = entries.size();
      entries.add(null);
      Field valueField = values.input("dictionary", true, dictionaries);
      FieldVector dictionaryVector = valueField.createVector(dictionaries.allocator);
      values.fill(dictionaryVector, entries, false, random, dictionaries);
      dictionaries.provider.put(
          new Dictionary(dictionaryVector, new DictionaryEncoding(id, false, indexType)));
      dictionaries.kinds.put(id, this);
      BaseFixedWidthVector indices = (BaseFixedWidthVector) vector;
      int width = indexType.getBitWidth() / 8;
      indices.allocateNew(rows.size());
      for (int i = 0; i < rows.size(); i++) {
        int at = index[i];
        boolean nullIndex = at < 0 && random.nextBoolean();
        if (at < 0 && !nullIndex) {
          at = nullEntry; // a valid index to a null dictionary value
        }
        indices
            .getDataBuffer()
            .setBytes((long) i * width, littleEndian(nullIndex ? random.nextInt(1000) : at, width));
        if (!nullIndex) {
          BitVectorHelper.setBit(indices.getValidityBuffer(), i);
        }
      }
      indices.setValueCount(rows.size());
    }
  }

  static byte[] bytesOf(Object encoded) {
    if (encoded instanceof byte[]) {
      return (byte[]) encoded;
    }
    return new byte[] {(byte) (Boolean.TRUE.equals(encoded) ? 1 : 0)};
  }

  /**
   * run_end_encoded<run end, leaf>: values come in runs; the Spark side gets them expanded. Only
   * where Arrow Java has run-end encoding ({@link NewerLayouts#available}).
   */
  static final class RunEndKind extends Kind {
    final int runEndBits;
    final Leaf values;

    RunEndKind(int runEndBits, Leaf values) {
      this.runEndBits = runEndBits;
      this.values = values;
    }

    @Override
    String describe() {
      return "run_end_encoded<int" + runEndBits + ", " + values.describe() + ">";
    }

    @Override
    boolean hasCalendarInterval() {
      return values.hasCalendarInterval();
    }

    @Override
    Field input(String name, boolean nullable, Dictionaries dictionaries) {
      return new Field(
          name,
          new FieldType(nullable, NewerLayouts.runEndEncoded(), null),
          List.of(
              new Field(
                  "run_ends",
                  new FieldType(false, new ArrowType.Int(runEndBits, true), null),
                  null),
              values.input("values", true, dictionaries)));
    }

    @Override
    Field readable(String name, boolean nullable) {
      return values.readable(name, nullable);
    }

    @Override
    Object random(Random random) {
      return values.random(random);
    }

    @Override
    void fill(
        FieldVector vector,
        List<Object> rows,
        boolean readable,
        Random random,
        Dictionaries dictionaries) {
      if (readable) {
        values.fill(vector, rows, true, random, dictionaries);
        return;
      }
      List<Object> runValues = new ArrayList<>();
      List<Long> runEnds = new ArrayList<>();
      for (int i = 0; i < rows.size(); i++) {
        Object value = rows.get(i);
        boolean same = i > 0 && java.util.Objects.deepEquals(value, rows.get(i - 1));
        if (same) {
          runEnds.set(runEnds.size() - 1, (long) i + 1);
        } else {
          runValues.add(value);
          runEnds.add((long) i + 1);
        }
      }
      BaseFixedWidthVector ends = (BaseFixedWidthVector) vector.getChildrenFromFields().get(0);
      int width = runEndBits / 8;
      ends.allocateNew(runEnds.size());
      for (int i = 0; i < runEnds.size(); i++) {
        ends.getDataBuffer().setBytes((long) i * width, littleEndian(runEnds.get(i), width));
        BitVectorHelper.setBit(ends.getValidityBuffer(), i);
      }
      ends.setValueCount(runEnds.size());
      values.fill(vector.getChildrenFromFields().get(1), runValues, false, random, dictionaries);
      vector.setValueCount(rows.size());
    }

    /** Repeats values so that runs appear (called on the row values before filling). */
    static void makeRuns(List<Object> rows, Random random) {
      for (int i = 1; i < rows.size(); i++) {
        if (random.nextInt(3) != 0) {
          rows.set(i, rows.get(i - 1));
        }
      }
    }
  }
}
