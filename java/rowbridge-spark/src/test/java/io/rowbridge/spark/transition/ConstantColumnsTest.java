package io.rowbridge.spark.transition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.rowbridge.ConverterOptions;
import io.rowbridge.NewerLayouts;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.execution.metric.SQLMetric;
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * Batches with ConstantColumnVectors (partition values) through rowbridge's transition: every type
 * a constant column takes, with a value and as null, beside an Arrow column, over batches of
 * changing sizes. Spark's own UnsafeProjection of the same batches is the oracle, byte for byte,
 * and no batch may go through Spark's path.
 */
class ConstantColumnsTest {
  private record Constant(DataType type, Consumer<ConstantColumnVector> set) {}

  private static final List<Constant> CONSTANTS =
      List.of(
          new Constant(DataTypes.BooleanType, c -> c.setBoolean(true)),
          new Constant(DataTypes.ByteType, c -> c.setByte((byte) -5)),
          new Constant(DataTypes.ShortType, c -> c.setShort((short) 300)),
          new Constant(DataTypes.IntegerType, c -> c.setInt(123456)),
          new Constant(DataTypes.LongType, c -> c.setLong(1L << 40)),
          new Constant(DataTypes.FloatType, c -> c.setFloat(1.5f)),
          new Constant(DataTypes.DoubleType, c -> c.setDouble(-2.25)),
          new Constant(
              DataTypes.createDecimalType(10, 2),
              c -> c.setDecimal(Decimal.apply(new BigDecimal("12345.67")), 10)),
          new Constant(
              DataTypes.createDecimalType(38, 10),
              c ->
                  c.setDecimal(
                      Decimal.apply(new BigDecimal("-1234567890123456789012.0123456789")), 38)),
          new Constant(DataTypes.DateType, c -> c.setInt(20424)),
          new Constant(DataTypes.TimestampType, c -> c.setLong(1_764_633_600_123_456L)),
          new Constant(DataTypes.TimestampNTZType, c -> c.setLong(-86_400_000_001L)),
          new Constant(
              DataTypes.StringType,
              c -> c.setUtf8String(UTF8String.fromString("day=2026-12-01 é"))),
          new Constant(
              DataTypes.BinaryType,
              c -> c.setBinary("\u0000\u0001bytes".getBytes(StandardCharsets.ISO_8859_1))));

  @Test
  void everyTypeAsAValueAndAsNullEqualsSparksProjection() {
    List<StructField> fields = new ArrayList<>();
    fields.add(DataTypes.createStructField("id", DataTypes.IntegerType, false));
    for (int i = 0; i < CONSTANTS.size(); i++) {
      fields.add(DataTypes.createStructField("c" + i, CONSTANTS.get(i).type(), true));
      fields.add(DataTypes.createStructField("n" + i, CONSTANTS.get(i).type(), true));
    }
    StructType schema = DataTypes.createStructType(fields);
    try (BufferAllocator allocator = new RootAllocator()) {
      List<ColumnarBatch> batches = new ArrayList<>();
      List<IntVector> ids = new ArrayList<>();
      for (int rows : new int[] {100, 7, 0, 4096}) {
        IntVector id = new IntVector("id", allocator);
        for (int r = 0; r < rows; r++) {
          id.setSafe(r, r * 3 - 50);
        }
        id.setValueCount(rows);
        ids.add(id);
        ColumnVector[] columns = new ColumnVector[fields.size()];
        columns[0] = new ArrowColumnVector(id);
        for (int i = 0; i < CONSTANTS.size(); i++) {
          ConstantColumnVector value = new ConstantColumnVector(rows, CONSTANTS.get(i).type());
          CONSTANTS.get(i).set().accept(value);
          ConstantColumnVector none = new ConstantColumnVector(rows, CONSTANTS.get(i).type());
          none.setNull();
          columns[1 + 2 * i] = value;
          columns[2 + 2 * i] = none;
        }
        batches.add(new ColumnarBatch(columns, rows));
      }
      List<byte[]> expected = new ArrayList<>();
      UnsafeProjection projection = UnsafeProjection.create(schema);
      for (ColumnarBatch batch : batches) {
        Iterator<InternalRow> rows = batch.rowIterator();
        while (rows.hasNext()) {
          expected.add(projection.apply(rows.next()).getBytes());
        }
      }
      SQLMetric sparkBatches = new SQLMetric("sum", 0);
      BatchRowSource source =
          new BatchRowSource(
              schema,
              64L << 20,
              ConverterOptions.Validation.FULL,
              new SQLMetric("sum", 0),
              new SQLMetric("sum", 0),
              sparkBatches,
              new SQLMetric("nsTiming", 0),
              null);
      List<byte[]> actual = new ArrayList<>();
      try (BatchRowIterator rows = source.open(batches.iterator())) {
        while (rows.hasNext()) {
          actual.add(
              ((org.apache.spark.sql.catalyst.expressions.UnsafeRow) rows.next()).getBytes());
        }
      }
      // Arrow Java 12 (Spark 3.5) has no run-end encoding for the constants: Spark's projection
      // makes those batches' rows (java/README.md, "Spark versions").
      assertEquals(
          NewerLayouts.available() ? 0L : batches.size(),
          sparkBatches.value(),
          "every batch converted by rowbridge");
      assertEquals(expected.size(), actual.size());
      assertFalse(expected.isEmpty());
      for (int i = 0; i < expected.size(); i++) {
        assertArrayEquals(expected.get(i), actual.get(i), "row " + i);
      }
      ids.forEach(IntVector::close);
    }
  }
}
