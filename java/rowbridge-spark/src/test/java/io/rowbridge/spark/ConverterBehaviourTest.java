package io.rowbridge.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.ConverterOptions;
import io.rowbridge.NativeMemoryListener;
import io.rowbridge.NewerLayouts;
import io.rowbridge.RowbridgeConverter;
import io.rowbridge.RowbridgeException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampSecVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Layout changes between batches, value errors, memory reporting: against Spark's bytes. */
class ConverterBehaviourTest {
  private BufferAllocator allocator;
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @BeforeEach
  void setUp() {
    allocator = new RootAllocator();
  }

  @AfterEach
  void tearDown() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    allocator.close();
  }

  private <T extends AutoCloseable> T keep(T closeable) {
    closeables.add(closeable);
    return closeable;
  }

  static final String[] WORDS = {"alpha", "", "a string longer than twelve bytes", "é中😀", "beta"};

  private VarCharVector plainStrings(int rows) {
    VarCharVector strings = keep(new VarCharVector("s", allocator));
    strings.allocateNew();
    for (int i = 0; i < rows; i++) {
      if (i % 5 == 4) {
        strings.setNull(i);
      } else {
        strings.setSafe(i, WORDS[i % WORDS.length].getBytes(StandardCharsets.UTF_8));
      }
    }
    strings.setValueCount(rows);
    return strings;
  }

  private BigIntVector longs(int rows, int base) {
    BigIntVector longs = keep(new BigIntVector("x", allocator));
    longs.allocateNew(rows);
    for (int i = 0; i < rows; i++) {
      longs.set(i, base + i);
    }
    longs.setValueCount(rows);
    return longs;
  }

  /** Spark's rows for the plain form of the batch, through ArrowColumnVector. */
  private static List<byte[]> sparkRows(StructType schema, int rows, ValueVector... plain) {
    ColumnVector[] columns = new ColumnVector[plain.length];
    for (int i = 0; i < plain.length; i++) {
      columns[i] = new ArrowColumnVector(plain[i]);
    }
    return SparkDifferentialTest.project(new ColumnarBatch(columns, rows), schema, false);
  }

  private static void assertRows(List<byte[]> expected, RowbridgeConverter converter) {
    int row = 0;
    while (converter.next()) {
      assertArrayEquals(expected.get(row), converter.row().getBytes(), "row " + row);
      row++;
    }
    assertEquals(expected.size(), row);
  }

  @Test
  void aColumnThatBecomesDictionaryOrRunEndEncodedIsConvertedWithItsOwnSchema() {
    StructType sparkSchema =
        new StructType().add("s", DataTypes.StringType).add("x", DataTypes.LongType);
    Schema plainSchema =
        new Schema(
            List.of(
                Field.nullable("s", new ArrowType.Utf8()),
                Field.nullable("x", new ArrowType.Int(64, true))));
    int rows = 40;
    VarCharVector plain = plainStrings(rows);
    List<byte[]> expected = sparkRows(sparkSchema, rows, plain, longs(rows, 0));

    // the dictionary-encoded form of the same strings
    VarCharVector dictionaryValues = keep(new VarCharVector("dictionary", allocator));
    dictionaryValues.allocateNew();
    for (int i = 0; i < WORDS.length; i++) {
      dictionaryValues.setSafe(i, WORDS[i].getBytes(StandardCharsets.UTF_8));
    }
    dictionaryValues.setValueCount(WORDS.length);
    DictionaryEncoding encoding = new DictionaryEncoding(7, false, new ArrowType.Int(32, true));
    DictionaryProvider.MapDictionaryProvider provider =
        new DictionaryProvider.MapDictionaryProvider(new Dictionary(dictionaryValues, encoding));
    IntVector indices =
        keep(new IntVector("s", new FieldType(true, encoding.getIndexType(), encoding), allocator));
    indices.allocateNew(rows);
    for (int i = 0; i < rows; i++) {
      if (i % 5 == 4) {
        indices.setNull(i);
      } else {
        indices.set(i, i % WORDS.length);
      }
    }
    indices.setValueCount(rows);

    // the run-end encoded form, where Arrow Java has it (not Arrow Java 12, Spark 3.5)
    boolean runEnds = NewerLayouts.available();
    Field reeField =
        new Field(
            "s",
            new FieldType(
                true, runEnds ? NewerLayouts.runEndEncoded() : new ArrowType.Utf8(), null),
            !runEnds
                ? null
                : List.of(
                    new Field("run_ends", FieldType.notNullable(new ArrowType.Int(32, true)), null),
                    Field.nullable("values", new ArrowType.Utf8())));
    FieldVector ree = keep(reeField.createVector(allocator));
    IntVector ends =
        runEnds
            ? (IntVector) ree.getChildrenFromFields().get(0)
            : keep(new IntVector("run_ends", allocator));
    VarCharVector runValues =
        runEnds ? (VarCharVector) ree.getChildrenFromFields().get(1) : (VarCharVector) ree;
    ends.allocateNew(rows);
    runValues.allocateNew();
    for (int i = 0; i < rows; i++) {
      ends.set(i, i + 1);
      if (i % 5 == 4) {
        runValues.setNull(i);
      } else {
        runValues.setSafe(i, WORDS[i % WORDS.length].getBytes(StandardCharsets.UTF_8));
      }
    }
    ends.setValueCount(rows);
    runValues.setValueCount(rows);
    ree.setValueCount(rows);

    for (ConverterOptions.Input input : ConverterOptions.Input.values()) {
      try (RowbridgeConverter converter =
          RowbridgeConverter.create(
              sparkSchema,
              plainSchema,
              ConverterOptions.defaults().dictionaries(provider).input(input))) {
        converter.convert(List.of(plain, longs(rows, 0)), rows);
        assertRows(expected, converter);
        assertEquals(0, converter.schemaPathBatches());

        converter.convert(List.of(indices, longs(rows, 0)), rows);
        assertRows(expected, converter);
        assertEquals(1, converter.schemaPathBatches());

        converter.convert(List.of(plain, longs(rows, 0)), rows);
        assertRows(expected, converter);
        assertEquals(1, converter.schemaPathBatches(), "back on the registered path");

        if (runEnds
            && input == ConverterOptions.Input.C_DATA
            && !ArrowJavaCData.exportsRunEndLength()) {
          // Arrow Java 18.1.0 exports a run-end encoded vector with a length of 0: refused,
          // naming the column (java/README.md, "Spark versions").
          RowbridgeException refused =
              assertThrows(
                  RowbridgeException.class,
                  () -> converter.convert(List.of(ree, longs(rows, 0)), rows));
          assertTrue(refused.getMessage().contains("column 's'"), refused.getMessage());
          continue;
        }
        converter.convert(List.of(ree, longs(rows, 0)), rows);
        assertRows(expected, converter);
        assertEquals(runEnds ? 2 : 1, converter.schemaPathBatches());
      }
    }
  }

  @Test
  void aColumnarBatchWithAConstantVectorIsNotArrowBacked() {
    ConstantColumnVector constant = new ConstantColumnVector(10, DataTypes.LongType);
    constant.setLong(42);
    ColumnarBatch batch =
        new ColumnarBatch(new ColumnVector[] {new ArrowColumnVector(longs(10, 0)), constant}, 10);
    assertFalse(RowbridgeConverter.isArrowBacked(batch));
    StructType schema = new StructType().add("x", DataTypes.LongType).add("y", DataTypes.LongType);
    Schema arrow =
        new Schema(
            List.of(
                Field.nullable("x", new ArrowType.Int(64, true)),
                Field.nullable("y", new ArrowType.Int(64, true))));
    try (RowbridgeConverter converter =
        RowbridgeConverter.create(schema, arrow, ConverterOptions.defaults())) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> converter.convert(batch));
      assertTrue(e.getMessage().contains("ConstantColumnVector"), e.getMessage());
    }
    constant.close();
  }

  @Test
  void valuesTheirSparkTypeCannotHoldAreErrorsNamingColumnAndRow() {
    TimeStampSecVector seconds = keep(new TimeStampSecVector("t", allocator));
    seconds.allocateNew(3);
    seconds.set(0, 1);
    seconds.set(1, 2);
    seconds.set(2, Long.MAX_VALUE / 10); // beyond int64 microseconds
    seconds.setValueCount(3);
    Schema schema = new Schema(List.of(seconds.getField()));
    try (RowbridgeConverter converter =
        RowbridgeConverter.create(schema, ConverterOptions.defaults())) {
      RowbridgeException e =
          assertThrows(RowbridgeException.class, () -> converter.convert(List.of(seconds), 3));
      assertEquals(RowbridgeException.EOVERFLOW, e.code(), e.getMessage());
      assertTrue(
          e.getMessage().contains("'t'") && e.getMessage().contains("row 2"), e.getMessage());
    }

    DecimalVector decimals = keep(new DecimalVector("d", allocator, 5, 2));
    decimals.allocateNew(2);
    decimals.set(0, new BigDecimal("999.99"));
    decimals.setBigEndian(1, new java.math.BigInteger("100000").toByteArray()); // 6 digits
    decimals.setValueCount(2);
    try (RowbridgeConverter converter =
        RowbridgeConverter.create(
            new Schema(List.of(decimals.getField())), ConverterOptions.defaults())) {
      RowbridgeException e =
          assertThrows(RowbridgeException.class, () -> converter.convert(List.of(decimals), 2));
      assertEquals(RowbridgeException.EOVERFLOW, e.code(), e.getMessage());
      assertTrue(e.getMessage().contains("row 1"), e.getMessage());
    }
  }

  @Test
  void nativeBuffersAreReportedAndReleased() {
    long[] acquired = new long[1];
    long[] released = new long[1];
    NativeMemoryListener listener =
        new NativeMemoryListener() {
          @Override
          public void acquire(long bytes) {
            acquired[0] += bytes;
          }

          @Override
          public void release(long bytes) {
            released[0] += bytes;
          }
        };
    Schema schema = new Schema(List.of(Field.nullable("x", new ArrowType.Int(64, true))));
    RowbridgeConverter converter =
        RowbridgeConverter.create(schema, ConverterOptions.defaults().memoryListener(listener));
    converter.convert(List.of(longs(1000, 0)), 1000);
    long first = acquired[0];
    assertTrue(first >= 1000 * 16, "rows of 16 bytes: " + first);
    converter.convert(List.of(longs(10, 0)), 10);
    assertEquals(first, acquired[0], "a smaller batch needs nothing more");
    converter.convert(List.of(longs(4000, 0)), 4000);
    assertTrue(acquired[0] > first);
    converter.close();
    assertEquals(acquired[0], released[0]);
  }

  @Test
  void aRefusedReservationFailsTheBatch() {
    NativeMemoryListener refusing =
        new NativeMemoryListener() {
          @Override
          public void acquire(long bytes) {
            throw new IllegalStateException("no memory for " + bytes + " bytes");
          }

          @Override
          public void release(long bytes) {}
        };
    Schema schema = new Schema(List.of(Field.nullable("x", new ArrowType.Int(64, true))));
    try (RowbridgeConverter converter =
        RowbridgeConverter.create(schema, ConverterOptions.defaults().memoryListener(refusing))) {
      FieldVector x = longs(10, 0);
      assertThrows(IllegalStateException.class, () -> converter.convert(List.of(x), 10));
    }
  }

  @Test
  void theUnsafeProjectionOfARowbridgeRowIsTheSameRow() {
    StructType schema = new StructType().add("x", DataTypes.LongType);
    Schema arrow = new Schema(List.of(Field.nullable("x", new ArrowType.Int(64, true))));
    try (RowbridgeConverter converter =
        RowbridgeConverter.create(schema, arrow, ConverterOptions.defaults())) {
      converter.convert(List.of(longs(5, 100)), 5);
      UnsafeProjection projection = UnsafeProjection.create(schema);
      while (converter.next()) {
        assertArrayEquals(converter.row().getBytes(), projection.apply(converter.row()).getBytes());
      }
    }
  }
}
