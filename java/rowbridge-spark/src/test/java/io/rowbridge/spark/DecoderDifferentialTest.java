package io.rowbridge.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rowbridge.ArrowSchemas;
import io.rowbridge.ConverterOptions;
import io.rowbridge.DecoderOptions;
import io.rowbridge.RowbridgeConverter;
import io.rowbridge.RowbridgeDecoder;
import io.rowbridge.spark.RandomColumns.Dictionaries;
import io.rowbridge.spark.RandomColumns.Kind;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compare.VectorEqualsVisitor;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.execution.arrow.ArrowWriter;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.Test;

/**
 * Spark is the oracle of the row decoder: random schemas of every Spark type, flat and nested to
 * depth 3, with nulls, empties and extremes (the differential suite's generators); rows made by
 * Spark's UnsafeProjection are decoded by RowbridgeDecoder in batches of a random cap, and each
 * batch must equal, value by value, what Spark's own ArrowWriter writes for the same rows into
 * vectors of ArrowUtils.toArrowSchema (which must be the decoder's schema); and the decoded batch
 * converted back by RowbridgeConverter must give the same rows byte for byte. The base seed is
 * printed: rerun with -Drowbridge.test.seed=SEED, or one schema with
 * -Drowbridge.test.schema.seed=SEED -Drowbridge.test.schemas=1.
 */
class DecoderDifferentialTest {
  private static final String[] ZONES = {"UTC", "America/Los_Angeles", "Asia/Kolkata"};

  @Test
  void randomSchemasDecodeAsSparkWritesArrow() {
    long base = SparkDifferentialTest.baseSeed();
    int schemas = SparkDifferentialTest.SCHEMAS;
    System.out.println(
        "DecoderDifferentialTest: "
            + schemas
            + " random schemas x up to "
            + SparkDifferentialTest.ROWS
            + " rows, base seed "
            + base
            + " (rerun with -Drowbridge.test.seed="
            + base
            + ")");
    long[] totals = new long[3]; // rows, batches, columns
    try (BufferAllocator allocator = new RootAllocator()) {
      for (int s = 0; s < schemas; s++) {
        long seed = Long.getLong("rowbridge.test.schema.seed", base + s * 0x9E3779B97F4A7C15L);
        runSchema(allocator, seed, totals);
      }
      assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory leaked");
    }
    System.out.println(
        "DecoderDifferentialTest: "
            + schemas
            + " schemas, "
            + totals[2]
            + " columns, "
            + totals[0]
            + " rows in "
            + totals[1]
            + " batches: equal to Spark's ArrowWriter and round-tripped byte for byte");
  }

  static void runSchema(BufferAllocator allocator, long seed, long[] totals) {
    Random random = new Random(seed);
    int columns = 1 + random.nextInt(8);
    List<Kind> kinds = new ArrayList<>();
    boolean[] nullable = new boolean[columns];
    StringBuilder description = new StringBuilder();
    for (int c = 0; c < columns; c++) {
      Kind kind = RandomColumns.randomKind(random, random.nextInt(4), true, false);
      kinds.add(kind);
      nullable[c] = kind.isNullType() || random.nextInt(5) != 0;
      description
          .append("\n  c")
          .append(c)
          .append(nullable[c] ? "" : " not null")
          .append(": ")
          .append(kind.describe());
    }
    int pick = random.nextInt(20);
    int rows =
        pick == 0
            ? random.nextInt(3)
            : pick == 1 ? 1 + random.nextInt(64) : SparkDifferentialTest.ROWS;
    double nullRate = new double[] {0, 0.1, 0.5}[random.nextInt(3)];
    String zone = ZONES[random.nextInt(ZONES.length)];
    int maxRows = random.nextInt(3) == 0 ? 1 + random.nextInt(Math.max(1, rows)) : 8192;
    String context =
        "seed "
            + seed
            + ", "
            + rows
            + " rows, batches of <= "
            + maxRows
            + ", time zone "
            + zone
            + ", schema:"
            + description;
    totals[2] += columns;

    Dictionaries dictionaries = new Dictionaries(allocator);
    List<FieldVector> readables = new ArrayList<>();
    List<byte[]> expected;
    StructType sparkSchema;
    try {
      ColumnVector[] vectors = new ColumnVector[columns];
      StructField[] fields = new StructField[columns];
      for (int c = 0; c < columns; c++) {
        Kind kind = kinds.get(c);
        List<Object> values = new ArrayList<>(rows);
        for (int r = 0; r < rows; r++) {
          boolean isNull = kind.isNullType() || (nullable[c] && random.nextDouble() < nullRate);
          values.add(isNull ? null : kind.random(random));
        }
        FieldVector readable = kind.readable("c" + c, nullable[c]).createVector(allocator);
        readables.add(readable);
        kind.fill(readable, values, true, random, dictionaries);
        vectors[c] = new ArrowColumnVector(readable);
        fields[c] = new StructField("c" + c, vectors[c].dataType(), nullable[c], Metadata.empty());
      }
      sparkSchema = new StructType(fields);
      boolean calendar = kinds.stream().anyMatch(Kind::hasCalendarInterval);
      expected =
          SparkDifferentialTest.project(new ColumnarBatch(vectors, rows), sparkSchema, calendar);
    } finally {
      for (FieldVector vector : readables) {
        vector.close();
      }
      dictionaries.close();
    }

    Schema sparkArrow = ArrowUtils.toArrowSchema(sparkSchema, zone, true, false);
    List<InternalRow> unsafeRows = new ArrayList<>(rows);
    for (byte[] bytes : expected) {
      UnsafeRow row = new UnsafeRow(columns);
      row.pointTo(bytes, bytes.length);
      unsafeRows.add(row);
    }
    try (RowbridgeDecoder decoder =
            RowbridgeDecoder.create(
                sparkSchema, zone, allocator, DecoderOptions.defaults().maxRows(maxRows));
        VectorSchemaRoot theirs = VectorSchemaRoot.create(sparkArrow, allocator);
        RowbridgeConverter converter =
            RowbridgeConverter.create(
                sparkSchema, decoder.arrowSchema(), ConverterOptions.defaults())) {
      assertEquals(
          sparkArrow,
          ArrowSchemas.of(sparkSchema, zone),
          "the decoder's schema is not ArrowUtils.toArrowSchema's: " + context);
      ArrowWriter writer = ArrowWriter.create(theirs);
      Iterator<InternalRow> input = unsafeRows.iterator();
      int first = 0;
      while (true) {
        VectorSchemaRoot ours = decoder.decodeNext(input);
        int batchRows = ours.getRowCount();
        if (batchRows == 0) {
          break;
        }
        totals[1]++;
        for (int c = 0; c < columns; c++) {
          reserveLike(theirs.getVector(c), ours.getVector(c));
        }
        writer.reset();
        for (int r = first; r < first + batchRows; r++) {
          writer.write(unsafeRows.get(r));
        }
        writer.finish();
        String where = "batch at row " + first + " (" + batchRows + " rows), " + context;
        assertEquals(batchRows, theirs.getRowCount(), where);
        for (int c = 0; c < columns; c++) {
          FieldVector mine = ours.getVector(c);
          FieldVector spark = theirs.getVector(c);
          if (!VectorEqualsVisitor.vectorEquals(mine, spark)) {
            throw new AssertionError(
                "column c"
                    + c
                    + " differs from Spark's ArrowWriter"
                    + firstDifference(mine, spark)
                    + ": "
                    + where);
          }
        }
        assertEquals(batchRows, converter.convert(ours), where);
        int r = 0;
        while (converter.next()) {
          SparkDifferentialTest.compare(
              expected.get(first + r), converter.row(), first + r, "round trip, " + where);
          r++;
        }
        assertEquals(batchRows, r, where);
        first += batchRows;
      }
      assertEquals(rows, first, context);
      totals[0] += rows;
    } catch (RuntimeException e) {
      throw new AssertionError("rowbridge failed: " + e + "\n" + context, e);
    }
  }

  private static String firstDifference(FieldVector mine, FieldVector spark) {
    for (int r = 0; r < Math.max(mine.getValueCount(), spark.getValueCount()); r++) {
      Object a = r < mine.getValueCount() ? mine.getObject(r) : "(none)";
      Object b = r < spark.getValueCount() ? spark.getObject(r) : "(none)";
      if (a == null ? b != null : !String.valueOf(a).equals(String.valueOf(b))) {
        return " at row " + r + ": rowbridge " + a + ", Spark " + b;
      }
    }
    return " (types " + mine.getField() + " / " + spark.getField() + ")";
  }

  /**
   * Gives {@code target} and its children room for as many values as {@code model} and its children
   * hold: Spark 3.5's ArrowWriter writes durations with {@code set}, not {@code setSafe}, so that a
   * vector it does not grow must be large enough already.
   */
  private static void reserveLike(FieldVector target, FieldVector model) {
    reserveCapacities(target, model);
    target.allocateNew();
  }

  private static void reserveCapacities(FieldVector target, FieldVector model) {
    target.setInitialCapacity(Math.max(1, model.getValueCount()));
    List<FieldVector> targets = target.getChildrenFromFields();
    List<FieldVector> models = model.getChildrenFromFields();
    for (int i = 0; i < targets.size() && i < models.size(); i++) {
      reserveCapacities(targets.get(i), models.get(i));
    }
  }
}
