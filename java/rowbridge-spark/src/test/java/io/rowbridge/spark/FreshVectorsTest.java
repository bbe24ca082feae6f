package io.rowbridge.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.ConverterOptions;
import io.rowbridge.RowbridgeConverter;
import io.rowbridge.spark.RandomColumns.Dictionaries;
import io.rowbridge.spark.RandomColumns.Kind;
import io.rowbridge.spark.RandomLeaves.BytesLeaf;
import io.rowbridge.spark.RandomLeaves.FloatLeaf;
import io.rowbridge.spark.RandomLeaves.IntegerLeaf;
import io.rowbridge.spark.RandomNestedKinds.ListKind;
import io.rowbridge.spark.RandomNestedKinds.ListLayout;
import io.rowbridge.spark.RandomNestedKinds.MapKind;
import io.rowbridge.spark.RandomNestedKinds.StructKind;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every batch in new vectors of the converter's layout, as a reader that allocates its vectors per
 * batch hands them over: the layout check must keep such batches on the registered path, send a
 * batch whose nested child changed layout down the batch-schema path, and allocate nothing on the
 * JVM (Arrow Java builds a new Field tree whenever a struct vector is asked for its field).
 */
class FreshVectorsTest {
  private BufferAllocator allocator;
  private Dictionaries dictionaries;
  private final List<FieldVector> owned = new ArrayList<>();

  @BeforeEach
  void setUp() {
    allocator = new RootAllocator();
    dictionaries = new Dictionaries(allocator);
  }

  @AfterEach
  void tearDown() {
    for (FieldVector vector : owned) {
      vector.close();
    }
    dictionaries.close();
    allocator.close();
  }

  /** The test's seed (-Drowbridge.test.seed reruns it), printed. */
  private static long seed(String test) {
    long seed = SparkDifferentialTest.baseSeed();
    System.out.println("FreshVectorsTest." + test + ": seed " + seed);
    return seed;
  }

  /** Columns of `kinds`: their input fields, random values and Spark's rows for those. */
  private final class Case {
    final List<Kind> kinds;
    final List<Field> fields = new ArrayList<>();
    final List<List<Object>> values = new ArrayList<>();
    final int rows;
    final StructType sparkSchema;
    final List<byte[]> expected;

    Case(List<Kind> kinds, int rows, Random random) {
      this.kinds = kinds;
      this.rows = rows;
      ColumnVector[] readables = new ColumnVector[kinds.size()];
      StructField[] sparkFields = new StructField[kinds.size()];
      for (int c = 0; c < kinds.size(); c++) {
        Kind kind = kinds.get(c);
        fields.add(kind.input("c" + c, true, dictionaries));
        List<Object> column = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
          column.add(kind.isNullType() || random.nextInt(10) == 0 ? null : kind.random(random));
        }
        values.add(column);
        FieldVector readable = kind.readable("c" + c, true).createVector(allocator);
        owned.add(readable);
        kind.fill(readable, column, true, random, dictionaries);
        readables[c] = new ArrowColumnVector(readable);
        sparkFields[c] = new StructField("c" + c, readables[c].dataType(), true, Metadata.empty());
      }
      sparkSchema = new StructType(sparkFields);
      expected =
          SparkDifferentialTest.project(
              new ColumnarBatch(readables, rows),
              sparkSchema,
              kinds.stream().anyMatch(Kind::hasCalendarInterval));
    }

    /** A batch of new vectors made from the fields, holding the values. */
    List<FieldVector> batch(Random random) {
      List<FieldVector> vectors = new ArrayList<>();
      for (int c = 0; c < kinds.size(); c++) {
        FieldVector vector = fields.get(c).createVector(allocator);
        owned.add(vector);
        kinds.get(c).fill(vector, values.get(c), false, random, dictionaries);
        vectors.add(vector);
      }
      return vectors;
    }

    RowbridgeConverter converter() {
      return RowbridgeConverter.create(
          sparkSchema,
          new Schema(fields),
          ConverterOptions.defaults().dictionaries(dictionaries.provider));
    }

    void assertRows(RowbridgeConverter converter, String context) {
      int row = 0;
      while (converter.next()) {
        SparkDifferentialTest.compare(expected.get(row), converter.row(), row, context);
        row++;
      }
      assertEquals(rows, row, context);
    }
  }

  @Test
  void newVectorsOfTheSameNestedLayoutStayOnTheRegisteredPath() {
    long base = seed("newVectorsOfTheSameNestedLayoutStayOnTheRegisteredPath");
    for (int s = 0; s < 40; s++) {
      long seed = base + s;
      Random random = new Random(seed);
      List<Kind> kinds = new ArrayList<>();
      StringBuilder description = new StringBuilder();
      int columns = 1 + random.nextInt(4);
      for (int c = 0; c < columns; c++) {
        // nested kinds only, without dictionary or run-end encoded leaves, whose dictionaries
        // the test would have to keep in step between batches
        Kind kind;
        do {
          kind = RandomColumns.randomKind(random, 1 + random.nextInt(3), true, false);
        } while (!(kind instanceof StructKind
            || kind instanceof ListKind
            || kind instanceof MapKind));
        kinds.add(kind);
        description.append("\n  c").append(c).append(": ").append(kind.describe());
      }
      Case schema = new Case(kinds, 1 + random.nextInt(40), random);
      String context = "seed " + seed + ", schema:" + description;
      try (RowbridgeConverter converter = schema.converter()) {
        for (int b = 0; b < 3; b++) {
          converter.convert(schema.batch(random), schema.rows);
          schema.assertRows(converter, context + "\n  batch " + b);
        }
        assertEquals(0, converter.schemaPathBatches(), context);
      }
    }
  }

  /** struct<a int64, b utf8>, list<int32>, map<utf8, int64>, list<struct<x float64, y utf8>>. */
  private static List<Kind> benchmarkShape(ListLayout ints, int fixedSize) {
    BytesLeaf utf8 = new BytesLeaf("utf8", new ArrowType.Utf8(), true, 0);
    Kind pair =
        new StructKind(List.of(new IntegerLeaf(64, true), utf8), new boolean[] {true, true});
    Kind point = new StructKind(List.of(new FloatLeaf(false), utf8), new boolean[] {true, true});
    return List.of(
        pair,
        new ListKind(new IntegerLeaf(32, true), true, ints, fixedSize),
        new MapKind(utf8, new IntegerLeaf(64, true), true),
        new ListKind(point, true, ListLayout.LIST, 0));
  }

  @Test
  void aNestedChildOfAnotherLayoutTakesTheBatchSchemaAndComesBack() {
    Random random = new Random(seed("aNestedChildOfAnotherLayoutTakesTheBatchSchemaAndComesBack"));
    int rows = 24;
    Case registered = new Case(benchmarkShape(ListLayout.FIXED_SIZE_LIST, 3), rows, random);
    // The same Spark type (array<int>) from fixed-size lists of 4, and from plain lists.
    Case wider = new Case(benchmarkShape(ListLayout.FIXED_SIZE_LIST, 4), rows, random);
    Case plain = new Case(benchmarkShape(ListLayout.LIST, 0), rows, random);
    try (RowbridgeConverter converter = registered.converter()) {
      converter.convert(registered.batch(random), rows);
      registered.assertRows(converter, "registered layout");
      assertEquals(0, converter.schemaPathBatches());

      converter.convert(wider.batch(random), rows);
      wider.assertRows(converter, "fixed-size lists of 4");
      assertEquals(1, converter.schemaPathBatches());

      converter.convert(plain.batch(random), rows);
      plain.assertRows(converter, "plain lists");
      assertEquals(2, converter.schemaPathBatches());

      converter.convert(registered.batch(random), rows);
      registered.assertRows(converter, "the registered layout again");
      assertEquals(2, converter.schemaPathBatches(), "back on the registered path");
    }
  }

  private static final int MEASURED_CONVERTS = 4000;

  /**
   * Converts each of `batches` (new vectors of `schema`) once and checks its rows, then converts
   * them in turn MEASURED_CONVERTS times; returns the bytes the JVM allocated per batch then.
   */
  private static long allocatedPerBatch(
      RowbridgeConverter converter, Case schema, List<List<FieldVector>> batches) {
    for (List<FieldVector> batch : batches) {
      converter.convert(batch, schema.rows);
      schema.assertRows(converter, "before measuring");
    }
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().getId();
    long before = threads.getThreadAllocatedBytes(thread);
    for (int i = 0; i < MEASURED_CONVERTS; i++) {
      converter.convert(batches.get(i % batches.size()), schema.rows);
    }
    return (threads.getThreadAllocatedBytes(thread) - before) / MEASURED_CONVERTS;
  }

  private static List<List<FieldVector>> batches(Case schema, Random random) {
    List<List<FieldVector>> batches = new ArrayList<>();
    for (int b = 0; b < 8; b++) {
      batches.add(schema.batch(random));
    }
    return batches;
  }

  @Test
  void newNestedVectorsEveryBatchAllocateNothingOnTheJvm() {
    Random random = new Random(seed("newNestedVectorsEveryBatchAllocateNothingOnTheJvm"));
    Case schema = new Case(benchmarkShape(ListLayout.LIST, 0), 32, random);
    try (RowbridgeConverter converter = schema.converter()) {
      long perBatch = allocatedPerBatch(converter, schema, batches(schema, random));
      assertEquals(0, converter.schemaPathBatches());
      assertTrue(perBatch < 8, "the JVM allocated " + perBatch + " bytes per batch");
    }
  }

  @Test
  void batchesOfAnotherLayoutReuseTheirTreeAndAllocateNothing() {
    Random random = new Random(seed("batchesOfAnotherLayoutReuseTheirTreeAndAllocateNothing"));
    Case registered = new Case(benchmarkShape(ListLayout.LIST, 0), 32, random);
    Case other = new Case(benchmarkShape(ListLayout.FIXED_SIZE_LIST, 3), 32, random);
    try (RowbridgeConverter converter = registered.converter()) {
      List<List<FieldVector>> batches = batches(other, random);
      long perBatch = allocatedPerBatch(converter, other, batches);
      assertEquals(batches.size() + MEASURED_CONVERTS, converter.schemaPathBatches());
      assertTrue(
          perBatch < 8,
          "the JVM allocated " + perBatch + " bytes per batch of the" + " batch-schema path");
    }
  }
}
