package io.rowbridge.comet;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.comet.shaded.arrow.memory.BufferAllocator;
import org.apache.comet.shaded.arrow.vector.BigIntVector;
import org.apache.comet.shaded.arrow.vector.BitVector;
import org.apache.comet.shaded.arrow.vector.DateDayVector;
import org.apache.comet.shaded.arrow.vector.DecimalVector;
import org.apache.comet.shaded.arrow.vector.FieldVector;
import org.apache.comet.shaded.arrow.vector.Float8Vector;
import org.apache.comet.shaded.arrow.vector.IntVector;
import org.apache.comet.shaded.arrow.vector.TimeStampMicroTZVector;
import org.apache.comet.shaded.arrow.vector.VarCharVector;
import org.apache.comet.shaded.arrow.vector.dictionary.Dictionary;
import org.apache.comet.shaded.arrow.vector.dictionary.DictionaryProvider;
import org.apache.comet.shaded.arrow.vector.types.pojo.ArrowType;
import org.apache.comet.shaded.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.comet.shaded.arrow.vector.types.pojo.Field;
import org.apache.comet.shaded.arrow.vector.types.pojo.FieldType;
import org.apache.comet.vector.CometVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Random batches of Comet vectors over Comet's relocated Arrow Java, made as Comet makes them from
 * its native batches ({@code CometVector.getVector}): ints, longs, doubles, booleans, decimals and
 * strings with nulls, a string column that is dictionary-encoded or plain, dates and timestamps
 * (UTC microseconds, as Comet's TimestampType columns). Owns the vectors it makes (allocated from
 * the caller's allocator) until {@link #close}.
 */
final class CometBatchMaker implements AutoCloseable {
  /** The dictionary-encoded column's values. */
  static final String[] WORDS = {"", "alpha", "beta", "a longer value than twelve bytes", "δ"};

  private final BufferAllocator allocator;
  private final Random random;
  private final List<FieldVector> owned = new ArrayList<>();
  private final List<Dictionary> dictionaries = new ArrayList<>();
  private final DictionaryProvider.MapDictionaryProvider provider =
      new DictionaryProvider.MapDictionaryProvider();

  CometBatchMaker(BufferAllocator allocator, Random random) {
    this.allocator = allocator;
    this.random = random;
  }

  /** A batch of {@code rows} rows; its last column is dictionary-encoded when {@code encoded}. */
  ColumnarBatch batch(int rows, boolean encoded) {
    FieldVector[] vectors = {
      ints(rows),
      longs(rows),
      doubles(rows),
      booleans(rows),
      decimals(rows),
      strings("s", rows),
      encoded ? indices(rows) : strings("k", rows),
      dates(rows),
      timestamps(rows)
    };
    ColumnVector[] columns = new ColumnVector[vectors.length];
    for (int i = 0; i < vectors.length; i++) {
      columns[i] = CometVector.getVector(vectors[i], provider);
    }
    return new ColumnarBatch(columns, rows);
  }

  /** A Comet vector of {@code vector}, which this maker then owns. */
  ColumnVector wrap(FieldVector vector) {
    owned.add(vector);
    return CometVector.getVector(vector, provider);
  }

  private boolean isNull() {
    return random.nextInt(5) == 0;
  }

  private IntVector ints(int rows) {
    IntVector vector = own(new IntVector("i", allocator));
    vector.allocateNew(rows);
    for (int r = 0; r < rows; r++) {
      if (isNull()) {
        vector.setNull(r);
      } else {
        vector.set(r, random.nextInt());
      }
    }
    vector.setValueCount(rows);
    return vector;
  }

  private BigIntVector longs(int rows) {
    BigIntVector vector = own(new BigIntVector("l", allocator));
    vector.allocateNew(rows);
    for (int r = 0; r < rows; r++) {
      vector.set(r, random.nextLong());
    }
    vector.setValueCount(rows);
    return vector;
  }

  private Float8Vector doubles(int rows) {
    Float8Vector vector = own(new Float8Vector("d", allocator));
    vector.allocateNew(rows);
    for (int r = 0; r < rows; r++) {
      if (isNull()) {
        vector.setNull(r);
      } else {
        vector.set(r, random.nextInt(4) == 0 ? Double.NaN : random.nextGaussian() * 1e6);
      }
    }
    vector.setValueCount(rows);
    return vector;
  }

  private BitVector booleans(int rows) {
    BitVector vector = own(new BitVector("b", allocator));
    vector.allocateNew(rows);
    for (int r = 0; r < rows; r++) {
      if (isNull()) {
        vector.setNull(r);
      } else {
        vector.set(r, random.nextBoolean() ? 1 : 0);
      }
    }
    vector.setValueCount(rows);
    return vector;
  }

  private DateDayVector dates(int rows) {
    DateDayVector vector = own(new DateDayVector("day", allocator));
    vector.allocateNew(rows);
    for (int r = 0; r < rows; r++) {
      if (isNull()) {
        vector.setNull(r);
      } else {
        vector.set(r, random.nextInt(40_000) - 10_000);
      }
    }
    vector.setValueCount(rows);
    return vector;
  }

  private TimeStampMicroTZVector timestamps(int rows) {
    TimeStampMicroTZVector vector = own(new TimeStampMicroTZVector("ts", allocator, "UTC"));
    vector.allocateNew(rows);
    for (int r = 0; r < rows; r++) {
      if (isNull()) {
        vector.setNull(r);
      } else {
        vector.set(r, random.nextLong() >> 8);
      }
    }
    vector.setValueCount(rows);
    return vector;
  }

  private DecimalVector decimals(int rows) {
    DecimalVector vector = own(new DecimalVector("m", allocator, 20, 3));
    vector.allocateNew(rows);
    for (int r = 0; r < rows; r++) {
      if (isNull()) {
        vector.setNull(r);
      } else {
        vector.set(r, BigDecimal.valueOf(random.nextLong() % 1_000_000_000_000L, 3));
      }
    }
    vector.setValueCount(rows);
    return vector;
  }

  private VarCharVector strings(String name, int rows) {
    VarCharVector vector = own(new VarCharVector(name, allocator));
    vector.allocateNew(rows);
    for (int r = 0; r < rows; r++) {
      if (isNull()) {
        vector.setNull(r);
      } else {
        StringBuilder text = new StringBuilder();
        for (int n = random.nextInt(30); n > 0; n--) {
          text.append((char) ('a' + random.nextInt(26)));
        }
        vector.setSafe(r, text.toString().getBytes(StandardCharsets.UTF_8));
      }
    }
    vector.setValueCount(rows);
    return vector;
  }

  /** Int32 indices into a new dictionary of {@link #WORDS}, registered with the provider. */
  private IntVector indices(int rows) {
    long id = dictionaries.size();
    DictionaryEncoding encoding = new DictionaryEncoding(id, false, new ArrowType.Int(32, true));
    VarCharVector values = own(new VarCharVector("k", allocator));
    values.allocateNew(WORDS.length);
    for (int w = 0; w < WORDS.length; w++) {
      values.setSafe(w, WORDS[w].getBytes(StandardCharsets.UTF_8));
    }
    values.setValueCount(WORDS.length);
    Dictionary dictionary = new Dictionary(values, encoding);
    dictionaries.add(dictionary);
    provider.put(dictionary);
    IntVector indices =
        own(
            new IntVector(
                "k", new FieldType(true, new ArrowType.Int(32, true), encoding), allocator));
    indices.allocateNew(rows);
    for (int r = 0; r < rows; r++) {
      if (isNull()) {
        indices.setNull(r);
      } else {
        indices.set(r, random.nextInt(WORDS.length));
      }
    }
    indices.setValueCount(rows);
    return indices;
  }

  /** A field of the relocated Arrow, for vectors a test makes itself. */
  static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
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
