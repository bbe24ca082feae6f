package io.rowbridge.comet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.ColumnBuffers;
import io.rowbridge.ConverterOptions;
import io.rowbridge.RowbridgeConverter;
import io.rowbridge.RowbridgeException;
import java.util.Iterator;
import java.util.Random;
import org.apache.arrow.vector.types.Types.MinorType;
import org.apache.comet.shaded.arrow.memory.BufferAllocator;
import org.apache.comet.shaded.arrow.memory.RootAllocator;
import org.apache.comet.shaded.arrow.vector.IntVector;
import org.apache.comet.vector.CometVector;
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
 * Comet's vectors converted by rowbridge, byte for byte against Spark's UnsafeProjection of the
 * same batch's rows (Spark reads Comet's vectors through their ColumnVector getters).
 */
class CometColumnsTest {
  private BufferAllocator allocator;

  @BeforeEach
  void open() {
    allocator = new RootAllocator();
  }

  @AfterEach
  void close() {
    allocator.close();
  }

  /**
   * Converts the batch {@code comet} has read and asserts each row's bytes equal those of Spark's
   * {@code projection} of the batch's own rows.
   */
  private static void assertSameRows(
      RowbridgeConverter converter,
      CometColumns comet,
      ColumnarBatch batch,
      UnsafeProjection projection,
      String context) {
    converter.convert(comet.columns(), batch.numRows());
    Iterator<InternalRow> expected = batch.rowIterator();
    int rows = 0;
    while (converter.next()) {
      UnsafeRow want = projection.apply(expected.next());
      assertArrayEquals(want.getBytes(), converter.row().getBytes(), context + " row " + rows);
      rows++;
    }
    assertFalse(expected.hasNext(), context);
    assertEquals(batch.numRows(), rows, context);
  }

  /** The batch's schema as Comet's vectors give it. */
  private static StructType schemaOf(ColumnarBatch batch) {
    StructType schema = new StructType();
    for (int i = 0; i < batch.numCols(); i++) {
      schema = schema.add("c" + i, batch.column(i).dataType(), true);
    }
    return schema;
  }

  @Test
  void plainAndDictionaryBatchesMatchSparkByteForByte() {
    Random random =
        new Random(TestSeeds.of("CometColumnsTest.plainAndDictionaryBatchesMatchSparkByteForByte"));
    try (CometBatchMaker maker = new CometBatchMaker(allocator, random)) {
      ColumnarBatch first = maker.batch(10, true);
      StructType schema = schemaOf(first);
      assertEquals(DataTypes.StringType, schema.fields()[6].dataType());
      assertEquals(CometVectorAccess.DICTIONARY, first.column(6).getClass().getName());
      assertEquals(DataTypes.DateType, schema.fields()[7].dataType());
      assertEquals(DataTypes.TimestampType, schema.fields()[8].dataType());
      CometColumns comet = new CometColumns(schema);
      UnsafeProjection projection = UnsafeProjection.create(schema);
      try (RowbridgeConverter converter =
          CometColumns.converter(schema, ConverterOptions.defaults())) {
        int[] sizes = {10, 0, 1, 700, 65, 3000};
        int encodedBatches = 0;
        for (int b = 0; b < 12; b++) {
          boolean encoded = b % 3 != 1;
          ColumnarBatch batch =
              b == 0 ? first : maker.batch(sizes[random.nextInt(sizes.length)], encoded);
          String context = "batch " + b + " (" + batch.numRows() + " rows)";
          assertTrue(comet.read(batch), context);
          encodedBatches += comet.columns()[6].dictionary != null ? 1 : 0;
          assertEquals(
              b == 0 || encoded, comet.columns()[6].dictionary != null, "dictionary, " + context);
          assertSameRows(converter, comet, batch, projection, context);
        }
        // Plain batches bind into the registered batch; dictionary ones pass their own schema.
        assertEquals(encodedBatches, converter.schemaPathBatches());
      }
    }
  }

  @Test
  void readsBuffersAsTheVectorsHoldThem() {
    Random random = new Random(TestSeeds.of("CometColumnsTest.readsBuffersAsTheVectorsHoldThem"));
    try (CometBatchMaker maker = new CometBatchMaker(allocator, random)) {
      ColumnarBatch batch = maker.batch(100, true);
      CometColumns comet = new CometColumns(schemaOf(batch));
      assertTrue(comet.read(batch));
      ColumnBuffers[] columns = comet.columns();
      assertEquals(MinorType.INT, columns[0].minorType);
      assertEquals(100, columns[0].valueCount);
      assertTrue(columns[0].dataCapacity >= 400);
      assertEquals(0, columns[0].offsetsAddress);
      assertEquals(MinorType.DECIMAL, columns[4].minorType);
      assertEquals(20, columns[4].precision);
      assertEquals(3, columns[4].scale);
      assertEquals(MinorType.VARCHAR, columns[5].minorType);
      assertTrue(columns[5].offsetsCapacity >= 404);
      assertNull(columns[5].dictionary);
      assertEquals(MinorType.INT, columns[6].minorType);
      assertEquals(MinorType.VARCHAR, columns[6].dictionary.minorType);
      assertEquals(CometBatchMaker.WORDS.length, columns[6].dictionary.valueCount);
      assertEquals(MinorType.DATEDAY, columns[7].minorType);
      assertEquals(MinorType.TIMESTAMPMICROTZ, columns[8].minorType);
    }
  }

  @Test
  void aBufferSmallerThanItsValueCountIsANamedError() {
    Random random =
        new Random(TestSeeds.of("CometColumnsTest.aBufferSmallerThanItsValueCountIsANamedError"));
    try (CometBatchMaker maker = new CometBatchMaker(allocator, random)) {
      IntVector damaged = new IntVector("i", allocator);
      damaged.allocateNew(100);
      damaged.setValueCount(100);
      damaged.getDataBuffer().capacity(16);
      ColumnarBatch batch = new ColumnarBatch(new ColumnVector[] {maker.wrap(damaged)}, 100);
      StructType schema = new StructType().add("i", DataTypes.IntegerType);
      CometColumns comet = new CometColumns(schema);
      assertTrue(comet.read(batch));
      try (RowbridgeConverter converter =
          CometColumns.converter(schema, ConverterOptions.defaults())) {
        RowbridgeException e =
            assertThrows(RowbridgeException.class, () -> converter.convert(comet.columns(), 100));
        assertTrue(e.getMessage().contains("column 'i'"), e.getMessage());
        assertTrue(e.getMessage().contains("data buffer holds 16 bytes"), e.getMessage());
        assertFalse(converter.next());
      }
    }
  }

  @Test
  void aDictionaryIndexOutsideTheDictionaryIsANamedError() {
    Random random =
        new Random(
            TestSeeds.of("CometColumnsTest.aDictionaryIndexOutsideTheDictionaryIsANamedError"));
    try (CometBatchMaker maker = new CometBatchMaker(allocator, random)) {
      ColumnarBatch batch = maker.batch(50, true);
      // A CometDictionaryVector's own vector is its indices.
      IntVector indices = (IntVector) ((CometVector) batch.column(6)).getValueVector();
      indices.set(7, CometBatchMaker.WORDS.length);
      CometColumns comet = new CometColumns(schemaOf(batch));
      assertTrue(comet.read(batch));
      try (RowbridgeConverter converter =
          CometColumns.converter(schemaOf(batch), ConverterOptions.defaults())) {
        RowbridgeException e =
            assertThrows(RowbridgeException.class, () -> converter.convert(comet.columns(), 50));
        assertTrue(e.getMessage().contains("dictionary index"), e.getMessage());
        assertTrue(e.getMessage().contains("c6"), e.getMessage());
      }
    }
  }

  @Test
  void aColumnOfAnotherTypeThanTheSchemaIsRefused() {
    Random random =
        new Random(TestSeeds.of("CometColumnsTest.aColumnOfAnotherTypeThanTheSchemaIsRefused"));
    try (CometBatchMaker maker = new CometBatchMaker(allocator, random)) {
      ColumnarBatch batch = maker.batch(20, false);
      StructType schema = schemaOf(batch);
      CometColumns comet = new CometColumns(schema);
      assertTrue(comet.read(batch));
      // The int column read as a long, then the decimal column with another scale.
      StructType longs = replace(schema, 0, DataTypes.LongType);
      try (RowbridgeConverter converter =
          CometColumns.converter(longs, ConverterOptions.defaults())) {
        RowbridgeException e =
            assertThrows(RowbridgeException.class, () -> converter.convert(comet.columns(), 20));
        assertTrue(e.getMessage().contains("column 'c0'"), e.getMessage());
      }
      StructType scaled = replace(schema, 4, DataTypes.createDecimalType(20, 2));
      try (RowbridgeConverter converter =
          CometColumns.converter(scaled, ConverterOptions.defaults())) {
        RowbridgeException e =
            assertThrows(RowbridgeException.class, () -> converter.convert(comet.columns(), 20));
        assertTrue(e.getMessage().contains("column 'c4'"), e.getMessage());
      }
    }
  }

  private static StructType replace(
      StructType schema, int index, org.apache.spark.sql.types.DataType type) {
    StructType result = new StructType();
    for (int i = 0; i < schema.fields().length; i++) {
      result =
          result.add(schema.fields()[i].name(), i == index ? type : schema.fields()[i].dataType());
    }
    return result;
  }

  @Test
  void nestedBatchesMatchSparkByteForByte() {
    Random random = new Random(TestSeeds.of("CometColumnsTest.nestedBatchesMatchSparkByteForByte"));
    try (CometNestedBatchMaker maker = new CometNestedBatchMaker(allocator, random)) {
      ColumnarBatch first = maker.batch(50);
      // The plan's schema: Comet's struct vector says int for its dictionary-encoded child.
      StructType schema = CometNestedBatchMaker.SCHEMA;
      assertEquals("org.apache.comet.vector.CometListVector", first.column(0).getClass().getName());
      assertEquals(
          "org.apache.comet.vector.CometStructVector", first.column(1).getClass().getName());
      assertEquals("org.apache.comet.vector.CometMapVector", first.column(2).getClass().getName());
      CometColumns comet = new CometColumns(schema);
      UnsafeProjection projection = UnsafeProjection.create(schema);
      try (RowbridgeConverter converter =
          CometColumns.converter(schema, ConverterOptions.defaults())) {
        int[] sizes = {50, 0, 1, 700, 65, 2000};
        for (int b = 0; b < 10; b++) {
          ColumnarBatch batch = b == 0 ? first : maker.batch(sizes[random.nextInt(sizes.length)]);
          String context = "batch " + b + " (" + batch.numRows() + " rows)";
          assertTrue(comet.read(batch), context);
          assertTrue(comet.columns()[1].children[1].dictionary != null, "struct child b encoded");
          assertSameRows(converter, comet, batch, projection, context);
        }
        // A list whose offsets buffer is shorter than its values need, and a struct child with
        // fewer values than the struct: named errors, nothing read.
        ColumnarBatch batch = maker.batch(100);
        assertTrue(comet.read(batch));
        comet.columns()[0].offsetsCapacity = 40;
        RowbridgeException shortOffsets =
            assertThrows(RowbridgeException.class, () -> converter.convert(comet.columns(), 100));
        assertTrue(shortOffsets.getMessage().contains("column 'li'"), shortOffsets.getMessage());
        assertTrue(comet.read(batch));
        comet.columns()[1].children[0].valueCount = 99;
        RowbridgeException shortChild =
            assertThrows(RowbridgeException.class, () -> converter.convert(comet.columns(), 100));
        assertTrue(shortChild.getMessage().contains("99 values"), shortChild.getMessage());
      }
    }
  }

  @Test
  void aNonCometColumnIsNotNative() {
    ColumnVector onHeap =
        new org.apache.spark.sql.execution.vectorized.OnHeapColumnVector(4, DataTypes.IntegerType);
    assertFalse(CometColumns.isComet(onHeap));
    assertFalse(
        new CometColumns(new StructType().add("i", DataTypes.IntegerType))
            .read(new ColumnarBatch(new ColumnVector[] {onHeap}, 4)));
    onHeap.close();
  }
}
