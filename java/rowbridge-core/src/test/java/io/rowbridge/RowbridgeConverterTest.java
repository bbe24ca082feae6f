package io.rowbridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RowbridgeConverterTest {
  private BufferAllocator allocator;

  static Schema recordSchema() {
    return new Schema(
        List.of(
            new Field("a", FieldType.nullable(new ArrowType.Int(64, true)), null),
            new Field("b", FieldType.nullable(new ArrowType.Int(32, true)), null),
            new Field(
                "c",
                FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
                null),
            new Field("d", FieldType.nullable(new ArrowType.Utf8()), null)));
  }

  static StructType recordSparkSchema() {
    return new StructType()
        .add("a", DataTypes.LongType)
        .add("b", DataTypes.IntegerType)
        .add("c", DataTypes.DoubleType)
        .add("d", DataTypes.StringType);
  }

  static void fillRecord(VectorSchemaRoot root, int rows, int base) {
    BigIntVector a = (BigIntVector) root.getVector(0);
    IntVector b = (IntVector) root.getVector(1);
    Float8Vector c = (Float8Vector) root.getVector(2);
    VarCharVector d = (VarCharVector) root.getVector(3);
    root.allocateNew();
    for (int i = 0; i < rows; i++) {
      int v = base + i;
      a.setSafe(i, v);
      b.setSafe(i, v);
      c.setSafe(i, v);
      if (v % 7 == 3) {
        d.setNull(i);
      } else {
        d.setSafe(i, ("value_" + v).getBytes(StandardCharsets.UTF_8));
      }
    }
    root.setRowCount(rows);
  }

  @BeforeEach
  void setUp() {
    allocator = new RootAllocator();
  }

  @AfterEach
  void tearDown() {
    allocator.close();
  }

  @Test
  void convertsRecordBatchesAndReusesTheRow() {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(recordSchema(), allocator);
        RowbridgeConverter converter =
            RowbridgeConverter.create(
                recordSparkSchema(), recordSchema(), ConverterOptions.defaults())) {
      assertEquals("struct<a:bigint,b:int,c:double,d:string>", converter.nativeSparkSchema());
      for (int batch = 0; batch < 3; batch++) {
        int rows = 100 + batch * 50;
        fillRecord(root, rows, batch * 1000);
        assertEquals(rows, converter.convert(root));
        UnsafeRow previous = null;
        int count = 0;
        while (converter.next()) {
          UnsafeRow row = converter.row();
          if (previous != null) {
            assertSame(previous, row);
          }
          previous = row;
          int v = batch * 1000 + count;
          assertEquals(v, row.getLong(0));
          assertEquals(v, row.getInt(1));
          assertEquals(v, row.getDouble(2));
          if (v % 7 == 3) {
            assertTrue(row.isNullAt(3));
          } else {
            assertEquals("value_" + v, row.getUTF8String(3).toString());
          }
          count++;
        }
        assertEquals(rows, count);
        assertFalse(converter.next());
      }
      assertEquals(0, converter.schemaPathBatches());
    }
  }

  /** The rows of one record batch of `rows` rows plus a list of strings, as bytes. */
  private List<byte[]> rowsWith(ConverterOptions options, int rows) {
    Field item = new Field("item", FieldType.nullable(new ArrowType.Utf8()), null);
    List<Field> fields = new ArrayList<>(recordSchema().getFields());
    fields.add(new Field("l", FieldType.nullable(new ArrowType.List()), List.of(item)));
    Schema schema = new Schema(fields);
    StructType sparkSchema =
        recordSparkSchema().add("l", DataTypes.createArrayType(DataTypes.StringType));
    List<byte[]> out = new ArrayList<>();
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        RowbridgeConverter converter = RowbridgeConverter.create(sparkSchema, schema, options)) {
      fillRecord(root, rows, 0);
      ListVector list = (ListVector) root.getVector(4);
      UnionListWriter writer = list.getWriter();
      for (int i = 0; i < rows; i++) {
        writer.setPosition(i);
        if (i % 5 == 2) {
          list.setNull(i);
          continue;
        }
        writer.startList();
        for (int k = 0; k < i % 4; k++) {
          byte[] bytes = ("item_" + i + "_" + k).getBytes(StandardCharsets.UTF_8);
          try (ArrowBuf buffer = allocator.buffer(bytes.length)) {
            buffer.setBytes(0, bytes);
            writer.varChar().writeVarChar(0, bytes.length, buffer);
          }
        }
        writer.endList();
      }
      list.setValueCount(rows);
      root.setRowCount(rows);
      converter.convert(root);
      while (converter.next()) {
        out.add(converter.row().getBytes());
      }
    }
    return out;
  }

  @Test
  void everyKernelSetAndNestedWriterGiveTheSameRows() {
    List<byte[]> expected = rowsWith(ConverterOptions.defaults(), 300);
    assertEquals(300, expected.size());
    for (ConverterOptions.Kernels kernels : ConverterOptions.Kernels.values()) {
      for (ConverterOptions.NestedWriter writer : ConverterOptions.NestedWriter.values()) {
        ConverterOptions options =
            ConverterOptions.defaults().kernels(kernels).nestedWriter(writer);
        List<byte[]> actual;
        try {
          actual = rowsWith(options, 300);
        } catch (RowbridgeException e) {
          // Only a set this CPU or build lacks may be refused, and the error says so.
          assertTrue(
              kernels == ConverterOptions.Kernels.AVX2
                  || kernels == ConverterOptions.Kernels.AVX512,
              e.getMessage());
          assertTrue(
              e.getMessage().contains("kernels option " + kernels.name().toLowerCase()),
              e.getMessage());
          continue;
        }
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
          assertArrayEquals(expected.get(i), actual.get(i), kernels + "/" + writer + " row " + i);
        }
      }
    }
  }

  @Test
  void copyingModeHandsOutDistinctRows() {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(recordSchema(), allocator);
        RowbridgeConverter converter =
            RowbridgeConverter.create(
                recordSparkSchema(), recordSchema(), ConverterOptions.defaults().copyRows(true))) {
      fillRecord(root, 10, 0);
      converter.convert(root);
      List<UnsafeRow> kept = new ArrayList<>();
      while (converter.next()) {
        kept.add(converter.row());
      }
      assertNotSame(kept.get(0), kept.get(1));
      for (int i = 0; i < kept.size(); i++) {
        assertEquals(i, kept.get(i).getLong(0));
      }
    }
  }

  @Test
  void smallChunksSplitTheBatch() {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(recordSchema(), allocator);
        RowbridgeConverter converter =
            RowbridgeConverter.create(
                recordSparkSchema(),
                recordSchema(),
                ConverterOptions.defaults().maxChunkBytes(1024))) {
      fillRecord(root, 1000, 0);
      converter.convert(root);
      int count = 0;
      while (converter.next()) {
        assertEquals(count, converter.rowIndex());
        assertEquals(count, converter.row().getLong(0));
        count++;
      }
      assertEquals(1000, count);
    }
  }

  @Test
  void aRowOverTheCapIsAClearError() {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(recordSchema(), allocator);
        RowbridgeConverter converter =
            RowbridgeConverter.create(
                recordSparkSchema(),
                recordSchema(),
                ConverterOptions.defaults().maxChunkBytes(16))) {
      fillRecord(root, 4, 0);
      RowbridgeException e = assertThrows(RowbridgeException.class, () -> converter.convert(root));
      assertEquals(RowbridgeException.E2BIG, e.code(), e.getMessage());
    }
  }

  @Test
  void schemaMismatchNamesTheColumn() {
    StructType wrong =
        new StructType()
            .add("a", DataTypes.LongType)
            .add("b", DataTypes.LongType)
            .add("c", DataTypes.DoubleType)
            .add("d", DataTypes.StringType);
    RowbridgeException e =
        assertThrows(
            RowbridgeException.class,
            () -> RowbridgeConverter.create(wrong, recordSchema(), ConverterOptions.defaults()));
    assertTrue(e.getMessage().contains("column 1 ('b')"), e.getMessage());
    assertTrue(e.getMessage().contains("maps to int"), e.getMessage());
  }

  @Test
  void unsupportedTypeIsRejectedByTheNativeConverter() {
    Schema schema =
        new Schema(
            List.of(
                new Field(
                    "t",
                    FieldType.nullable(
                        new ArrowType.Interval(
                            org.apache.arrow.vector.types.IntervalUnit.DAY_TIME)),
                    null)));
    RowbridgeException e =
        assertThrows(
            RowbridgeException.class,
            () -> RowbridgeConverter.create(schema, ConverterOptions.defaults()));
    assertEquals(RowbridgeException.ENOTSUP, e.code());
  }

  @Test
  void theReusedRowReadsZerosAfterClose() {
    UnsafeRow row;
    try (VectorSchemaRoot root = VectorSchemaRoot.create(recordSchema(), allocator)) {
      RowbridgeConverter converter =
          RowbridgeConverter.create(
              recordSparkSchema(), recordSchema(), ConverterOptions.defaults());
      fillRecord(root, 10, 5);
      converter.convert(root);
      assertTrue(converter.next());
      row = converter.row();
      assertEquals(5, row.getLong(0));
      converter.close();
      converter.close();
      assertThrows(IllegalStateException.class, () -> converter.convert(root));
    }
    assertEquals(0, row.getLong(0));
    assertEquals(0, row.getUTF8String(3).numBytes());
    assertFalse(row.isNullAt(3));
  }

  @Test
  void aBufferTooSmallForTheValueCountIsAnError() {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(recordSchema(), allocator);
        RowbridgeConverter converter =
            RowbridgeConverter.create(
                recordSparkSchema(), recordSchema(), ConverterOptions.defaults());
        BigIntVector a = new BigIntVector("a", allocator);
        ArrowBuf validity = allocator.buffer(1 << 10);
        ArrowBuf data = allocator.buffer(64)) {
      fillRecord(root, 1000, 0);
      validity.setOne(0, 1 << 10);
      // 1000 values claimed, 8 held
      a.loadFieldBuffers(new ArrowFieldNode(1000, 0), List.of(validity, data));
      RowbridgeException e =
          assertThrows(
              RowbridgeException.class,
              () ->
                  converter.convert(
                      List.of(a, root.getVector(1), root.getVector(2), root.getVector(3)), 1000));
      assertTrue(e.getMessage().contains("column 'a'"), e.getMessage());
      assertTrue(e.getMessage().contains("data buffer"), e.getMessage());
    }
  }

  @Test
  void theNativeVersionIsReadable() {
    assertTrue(RowbridgeConverter.nativeVersion().matches("\\d+\\.\\d+\\.\\d+"));
  }
}
