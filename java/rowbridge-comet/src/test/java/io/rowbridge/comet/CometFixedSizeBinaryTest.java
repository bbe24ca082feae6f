package io.rowbridge.comet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.ConverterOptions;
import io.rowbridge.RowbridgeConverter;
import io.rowbridge.RowbridgeException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.apache.arrow.vector.types.Types.MinorType;
import org.apache.comet.shaded.arrow.memory.BufferAllocator;
import org.apache.comet.shaded.arrow.memory.RootAllocator;
import org.apache.comet.shaded.arrow.vector.FieldVector;
import org.apache.comet.shaded.arrow.vector.FixedSizeBinaryVector;
import org.apache.comet.shaded.arrow.vector.IntVector;
import org.apache.comet.vector.CometPlainVector;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Comet's fixed-size binary vectors, flagged as UUIDs (as Iceberg's Comet reader builds them) or
 * not, in StringType and BinaryType columns: rowbridge's rows byte for byte against those of
 * Comet's JVM transition, an UnsafeProjection of the batch's rows read through Comet's getters.
 */
class CometFixedSizeBinaryTest {
  /** u: UUIDs as text; s: 5 bytes as a string; b: UUID-flagged bytes as binary; w: 3 bytes. */
  private static final StructType SCHEMA =
      new StructType()
          .add("id", DataTypes.IntegerType)
          .add("u", DataTypes.StringType)
          .add("s", DataTypes.StringType)
          .add("b", DataTypes.BinaryType)
          .add("w", DataTypes.BinaryType);

  private BufferAllocator allocator;
  private final List<FieldVector> owned = new ArrayList<>();

  @BeforeEach
  void open() {
    allocator = new RootAllocator();
  }

  @AfterEach
  void close() {
    owned.forEach(FieldVector::close);
    owned.clear();
    allocator.close();
  }

  /** A vector of {@code rows} random values of {@code width} bytes, about one in six null. */
  private FixedSizeBinaryVector values(int rows, int width, Random random) {
    FixedSizeBinaryVector vector = new FixedSizeBinaryVector("f", allocator, width);
    owned.add(vector);
    vector.allocateNew(rows);
    byte[] value = new byte[width];
    for (int r = 0; r < rows; r++) {
      if (random.nextInt(6) == 0) {
        vector.setNull(r);
      } else {
        random.nextBytes(value);
        vector.set(r, value);
      }
    }
    vector.setValueCount(rows);
    return vector;
  }

  private ColumnarBatch batch(int rows, Random random) {
    IntVector ids = new IntVector("id", allocator);
    owned.add(ids);
    ids.allocateNew(rows);
    for (int r = 0; r < rows; r++) {
      ids.set(r, r);
    }
    ids.setValueCount(rows);
    ColumnVector[] columns = {
      new CometPlainVector(ids, false),
      new CometPlainVector(values(rows, 16, random), true),
      new CometPlainVector(values(rows, 5, random), false),
      new CometPlainVector(values(rows, 16, random), true),
      new CometPlainVector(values(rows, 3, random), false)
    };
    return new ColumnarBatch(columns, rows);
  }

  @Test
  void uuidsAndFixedBytesMatchCometByteForByte() {
    Random random =
        new Random(
            TestSeeds.of("CometFixedSizeBinaryTest.uuidsAndFixedBytesMatchCometByteForByte"));
    UnsafeProjection projection = UnsafeProjection.create(SCHEMA);
    try (CometColumns comet = new CometColumns(SCHEMA);
        RowbridgeConverter converter =
            CometColumns.converter(SCHEMA, ConverterOptions.defaults())) {
      int[] sizes = {40, 0, 1, 900, 65, 3000, 7};
      for (int b = 0; b < 12; b++) {
        ColumnarBatch batch = batch(b == 0 ? 40 : sizes[random.nextInt(sizes.length)], random);
        String context = "batch " + b + " (" + batch.numRows() + " rows)";
        assertTrue(comet.read(batch), context);
        assertEquals(MinorType.VARCHAR, comet.columns()[1].minorType, context);
        assertEquals(MinorType.VARCHAR, comet.columns()[2].minorType, context);
        assertEquals(MinorType.VARBINARY, comet.columns()[3].minorType, context);
        converter.convert(comet.columns(), batch.numRows());
        Iterator<InternalRow> expected = batch.rowIterator();
        int rows = 0;
        while (converter.next()) {
          InternalRow cometRow = expected.next();
          UnsafeRow want = projection.apply(cometRow);
          UnsafeRow got = converter.row();
          assertArrayEquals(want.getBytes(), got.getBytes(), context + " row " + rows);
          if (!got.isNullAt(1)) {
            // The text is java.util.UUID's, of the bytes most significant first.
            UUID parsed = UUID.fromString(got.getUTF8String(1).toString());
            assertEquals(parsed.toString(), got.getUTF8String(1).toString());
          }
          rows++;
        }
        assertFalse(expected.hasNext(), context);
        assertEquals(batch.numRows(), rows, context);
      }
    }
  }

  @Test
  void aUuidOfOtherThanSixteenBytesIsLeftToComet() {
    Random random =
        new Random(
            TestSeeds.of("CometFixedSizeBinaryTest.aUuidOfOtherThanSixteenBytesIsLeftToComet"));
    StructType schema = new StructType().add("u", DataTypes.StringType);
    ColumnarBatch batch =
        new ColumnarBatch(
            new ColumnVector[] {new CometPlainVector(values(20, 8, random), true)}, 20);
    try (CometColumns comet = new CometColumns(schema)) {
      assertFalse(comet.read(batch));
    }
    // Spark's path then reads Comet's getter, which refuses the value itself.
    int firstValue = 0;
    while (batch.column(0).isNullAt(firstValue)) {
      firstValue++;
    }
    int row = firstValue;
    assertThrows(IllegalArgumentException.class, () -> batch.column(0).getUTF8String(row));
  }

  @Test
  void aFixedSizeBinaryVectorInAColumnOfAnotherTypeIsLeftToComet() {
    Random random =
        new Random(
            TestSeeds.of(
                "CometFixedSizeBinaryTest.aFixedSizeBinaryVectorInAColumnOfAnotherTypeIsLeftToComet"));
    StructType schema = new StructType().add("n", DataTypes.LongType);
    ColumnarBatch batch =
        new ColumnarBatch(
            new ColumnVector[] {new CometPlainVector(values(10, 8, random), false)}, 10);
    try (CometColumns comet = new CometColumns(schema)) {
      assertFalse(comet.read(batch));
    }
  }

  @Test
  void aDataBufferSmallerThanItsValuesIsANamedError() {
    Random random =
        new Random(
            TestSeeds.of("CometFixedSizeBinaryTest.aDataBufferSmallerThanItsValuesIsANamedError"));
    FixedSizeBinaryVector damaged = values(100, 16, random);
    damaged.getDataBuffer().capacity(160);
    StructType schema = new StructType().add("u", DataTypes.StringType);
    ColumnarBatch batch =
        new ColumnarBatch(new ColumnVector[] {new CometPlainVector(damaged, true)}, 100);
    try (CometColumns comet = new CometColumns(schema)) {
      RowbridgeException e = assertThrows(RowbridgeException.class, () -> comet.read(batch));
      assertTrue(e.getMessage().contains("column 'u'"), e.getMessage());
      assertTrue(e.getMessage().contains("160 bytes of data for 100 values"), e.getMessage());
    }
  }

  @Test
  void theUuidTextIsWrittenAnewForEachBatch() {
    Random random =
        new Random(TestSeeds.of("CometFixedSizeBinaryTest.theUuidTextIsWrittenAnewForEachBatch"));
    StructType schema = new StructType().add("u", DataTypes.StringType);
    try (CometColumns comet = new CometColumns(schema);
        RowbridgeConverter converter =
            CometColumns.converter(schema, ConverterOptions.defaults())) {
      String previous = null;
      for (int b = 0; b < 3; b++) {
        FixedSizeBinaryVector values = new FixedSizeBinaryVector("f", allocator, 16);
        owned.add(values);
        values.allocateNew(1);
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        values.set(0, bytes);
        values.setValueCount(1);
        ColumnarBatch batch =
            new ColumnarBatch(new ColumnVector[] {new CometPlainVector(values, true)}, 1);
        assertTrue(comet.read(batch));
        converter.convert(comet.columns(), 1);
        assertTrue(converter.next());
        String text = converter.row().getUTF8String(0).toString();
        assertEquals(batch.column(0).getUTF8String(0).toString(), text);
        assertNotEquals(previous, text);
        previous = text;
        assertFalse(converter.next());
      }
    }
  }
}
