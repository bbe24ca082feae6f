package io.rowbridge.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rowbridge.ConverterOptions;
import io.rowbridge.NewerLayouts;
import io.rowbridge.RowbridgeConverter;
import io.rowbridge.spark.RandomColumns.Dictionaries;
import io.rowbridge.spark.RandomColumns.Kind;
import io.rowbridge.spark.RandomEncodings.RunEndKind;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.Test;

/**
 * Spark is the oracle: random schemas of every type CONTRACTS.md §2 maps, flat and nested to depth
 * 3, with nulls, empty values and extremes; every row rowbridge writes must be byte for byte the
 * row Spark's UnsafeProjection writes for the same batch read through ArrowColumnVectors. Types
 * Spark cannot read are normalised with Arrow Java first (RandomColumns). The base seed is printed;
 * rerun them with -Drowbridge.test.seed=SEED, or one schema with -Drowbridge.test.schema.seed=SEED
 * -Drowbridge.test.schemas=1 (and -Drowbridge.test.path= vectors|columnar_batch|c_data to force the
 * input path).
 */
class SparkDifferentialTest {
  static final int SCHEMAS = Integer.getInteger("rowbridge.test.schemas", 200);
  static final int ROWS = Integer.getInteger("rowbridge.test.rows", 500);

  static long baseSeed() {
    String seed = System.getProperty("rowbridge.test.seed", "");
    return seed.isEmpty() ? System.nanoTime() : Long.parseLong(seed.trim());
  }

  /** The Arrow Java on the class path (Spark's). */
  static final String ARROW_JAVA =
      String.valueOf(FieldVector.class.getPackage().getImplementationVersion());

  /**
   * Whether Arrow Java's Data.exportVectorSchemaRoot (the C_DATA input path) keeps the length of a
   * column of this description: Arrow Java 12.0.1 (Spark 3.5) loses that of null-typed vectors, at
   * any depth, and 18.1.0 (Spark 4.0) that of run-end encoded ones.
   */
  static boolean cDataExports(String description) {
    if (ARROW_JAVA.startsWith("12.") && description.matches("(?s)(.*[<: ])?null([>,].*)?")) {
      return false;
    }
    return !(ARROW_JAVA.startsWith("18.1.") && description.contains("run_end_encoded"));
  }

  /** What one schema exercised, for the summary line. */
  static final class Tally {
    final Map<String, Integer> paths = new TreeMap<>();
    long rows;
    long columns;
    long nestedColumns;
    long encodedColumns;

    void path(String name) {
      paths.merge(name, 1, Integer::sum);
    }
  }

  @Test
  void randomSchemasMatchSparkByteForByte() {
    long base = baseSeed();
    System.out.println(
        "SparkDifferentialTest: "
            + SCHEMAS
            + " random schemas x up to "
            + ROWS
            + " rows, base seed "
            + base
            + " (rerun with -Drowbridge.test.seed="
            + base
            + ")");
    Tally tally = new Tally();
    try (BufferAllocator allocator = new RootAllocator()) {
      for (int s = 0; s < SCHEMAS; s++) {
        long seed = Long.getLong("rowbridge.test.schema.seed", base + s * 0x9E3779B97F4A7C15L);
        runSchema(allocator, seed, tally);
      }
    }
    System.out.println(
        "SparkDifferentialTest: "
            + SCHEMAS
            + " schemas, "
            + tally.columns
            + " columns ("
            + tally.nestedColumns
            + " nested, "
            + tally.encodedColumns
            + " dictionary or run-end), "
            + tally.rows
            + " rows, all byte-identical; inputs "
            + tally.paths);
  }

  static void runSchema(BufferAllocator allocator, long seed, Tally tally) {
    Random random = new Random(seed);
    int columns = 1 + random.nextInt(8);
    List<Kind> kinds = new ArrayList<>();
    boolean[] nullable = new boolean[columns];
    double[] nullRate = new double[columns];
    for (int c = 0; c < columns; c++) {
      Kind kind = RandomColumns.randomKind(random, random.nextInt(4), true, true);
      kinds.add(kind);
      nullable[c] = kind.isNullType() || random.nextInt(5) != 0;
      nullRate[c] = new double[] {0, 0.1, 0.1, 0.5, 1.0}[random.nextInt(5)];
      tally.columns++;
      if (kind instanceof RandomNestedKinds.StructKind
          || kind instanceof RandomNestedKinds.ListKind
          || kind instanceof RandomNestedKinds.MapKind) {
        tally.nestedColumns++;
      }
      if (kind instanceof RandomEncodings.DictionaryKind || kind instanceof RunEndKind) {
        tally.encodedColumns++;
      }
    }
    int pick = random.nextInt(20);
    int rows = pick == 0 ? random.nextInt(3) : pick == 1 ? 1 + random.nextInt(64) : ROWS;
    tally.rows += rows;

    List<List<Object>> values = new ArrayList<>();
    for (int c = 0; c < columns; c++) {
      List<Object> column = new ArrayList<>(rows);
      for (int r = 0; r < rows; r++) {
        boolean isNull =
            kinds.get(c).isNullType() || (nullable[c] && random.nextDouble() < nullRate[c]);
        column.add(isNull ? null : kinds.get(c).random(random));
      }
      if (kinds.get(c) instanceof RunEndKind) {
        RunEndKind.makeRuns(column, random);
      }
      values.add(column);
    }

    Dictionaries dictionaries = new Dictionaries(allocator);
    List<Field> inputFields = new ArrayList<>();
    List<FieldVector> inputs = new ArrayList<>();
    List<FieldVector> readables = new ArrayList<>();
    Map<FieldVector, Boolean> owned = new IdentityHashMap<>();
    StringBuilder description = new StringBuilder();
    try {
      for (int c = 0; c < columns; c++) {
        Kind kind = kinds.get(c);
        String name = "c" + c;
        description
            .append("\n  ")
            .append(name)
            .append(nullable[c] ? "" : " not null")
            .append(": ")
            .append(kind.describe());
        Field field = kind.input(name, nullable[c], dictionaries);
        inputFields.add(field);
        FieldVector input = field.createVector(allocator);
        owned.put(input, true);
        kind.fill(input, values.get(c), false, random, dictionaries);
        inputs.add(input);
        if (kind.sparkReadsInput()) {
          readables.add(input);
        } else {
          FieldVector readable = kind.readable(name, nullable[c]).createVector(allocator);
          owned.put(readable, true);
          kind.fill(readable, values.get(c), true, random, dictionaries);
          readables.add(readable);
        }
      }
      boolean calendar = kinds.stream().anyMatch(Kind::hasCalendarInterval);
      String context = "seed " + seed + ", " + rows + " rows, schema:" + description;
      List<byte[]> expected;
      StructType sparkSchema;
      try {
        ColumnVector[] vectors = new ColumnVector[columns];
        StructField[] fields = new StructField[columns];
        for (int c = 0; c < columns; c++) {
          vectors[c] = new ArrowColumnVector(readables.get(c));
          fields[c] =
              new StructField("c" + c, vectors[c].dataType(), nullable[c], Metadata.empty());
        }
        sparkSchema = new StructType(fields);
        expected = project(new ColumnarBatch(vectors, rows), sparkSchema, calendar);
      } catch (RuntimeException e) {
        throw new AssertionError("Spark failed on its own input (a test bug): " + context, e);
      }

      ConverterOptions options = ConverterOptions.defaults().dictionaries(dictionaries.provider);
      int mode = random.nextInt(10);
      String forced = System.getProperty("rowbridge.test.path", "");
      if (!forced.isEmpty()) {
        mode = forced.equals("c_data") ? 0 : forced.equals("columnar_batch") ? 1 : 9;
      }
      boolean sparkReadsAll = kinds.stream().allMatch(Kind::sparkReadsInput);
      boolean exportable = kinds.stream().allMatch(k -> cDataExports(k.describe()));
      String path;
      if (mode == 0 && exportable) {
        options.input(ConverterOptions.Input.C_DATA);
        path = "c_data";
      } else if (mode <= 3 && sparkReadsAll) {
        path = "columnar_batch";
      } else {
        path = "vectors";
      }
      if (random.nextInt(4) == 0) {
        int largestRow = expected.stream().mapToInt(b -> b.length).max().orElse(8);
        options.maxChunkBytes(largestRow + random.nextInt(8192));
        path += "+chunks";
      }
      if (random.nextInt(4) == 0) {
        options.validation(ConverterOptions.Validation.FULL);
        path += "+full";
      }
      tally.path(path);
      context += "\n  input path: " + path;

      try (RowbridgeConverter converter =
          RowbridgeConverter.create(sparkSchema, new Schema(inputFields), options)) {
        // Two batches on one converter: all rows, then a prefix of the same vectors.
        for (int pass = 0; pass < 2; pass++) {
          int batchRows = pass == 0 ? rows : random.nextInt(rows + 1);
          int converted;
          List<FieldVector> reencoded =
              pass == 1 && random.nextInt(3) == 0
                  ? reencode(kinds, nullable, values, random, dictionaries, allocator, owned)
                  : null;
          if (reencoded != null) {
            tally.path("reencoded second batch");
            converted = converter.convert(reencoded, batchRows);
          } else if (path.startsWith("columnar_batch")) {
            ColumnVector[] vectors = new ColumnVector[columns];
            for (int c = 0; c < columns; c++) {
              vectors[c] = new ArrowColumnVector(inputs.get(c));
            }
            converted = converter.convert(new ColumnarBatch(vectors, batchRows));
          } else {
            converted = converter.convert(inputs, batchRows);
          }
          assertEquals(batchRows, converted);
          int row = 0;
          while (converter.next()) {
            if (row >= batchRows) {
              throw new AssertionError("more rows than the batch's " + batchRows + ": " + context);
            }
            if (Boolean.getBoolean("rowbridge.test.debug") && row < 6) {
              System.out.println(
                  "row "
                      + row
                      + "\n  spark:     "
                      + HexFormat.of().formatHex(expected.get(row))
                      + "\n  rowbridge: "
                      + HexFormat.of().formatHex(converter.row().getBytes()));
              for (int c = 0; c < columns; c++) {
                System.out.println(
                    "  c"
                        + c
                        + " = "
                        + inputs.get(c).getObject(row)
                        + " / "
                        + readables.get(c).getObject(row));
              }
            }
            compare(expected.get(row), converter.row(), row, context);
            row++;
          }
          assertEquals(batchRows, row, context);
        }
      } catch (RuntimeException e) {
        throw new AssertionError("rowbridge failed: " + e + "\n" + context, e);
      }
    } finally {
      for (FieldVector vector : owned.keySet()) {
        vector.close();
      }
      dictionaries.close();
    }
  }

  /**
   * The same values with the encodings of top-level columns changed (plain to dictionary or run-end
   * encoded, and back), for a second batch on the converter of the first: a layout change between
   * batches that must be converted with the batch's own schema.
   */
  static List<FieldVector> reencode(
      List<Kind> kinds,
      boolean[] nullable,
      List<List<Object>> values,
      Random random,
      Dictionaries dictionaries,
      BufferAllocator allocator,
      Map<FieldVector, Boolean> owned) {
    List<FieldVector> vectors = new ArrayList<>();
    for (int c = 0; c < kinds.size(); c++) {
      Kind kind = kinds.get(c);
      Kind other = kind;
      if (kind instanceof RandomEncodings.DictionaryKind) {
        other = ((RandomEncodings.DictionaryKind) kind).values;
      } else if (kind instanceof RunEndKind) {
        other = ((RunEndKind) kind).values;
      } else if (kind instanceof RandomLeaves.Leaf && !kind.isNullType() && random.nextBoolean()) {
        // run-end encoding only where Arrow Java has it (not 12) and exports it (not 18.1)
        other =
            random.nextBoolean() || !NewerLayouts.available() || !cDataExports("run_end_encoded")
                ? new RandomEncodings.DictionaryKind(
                    new ArrowType.Int(32, true), (RandomLeaves.Leaf) kind)
                : new RunEndKind(32, (RandomLeaves.Leaf) kind);
      }
      FieldVector vector = other.input("c" + c, nullable[c], dictionaries).createVector(allocator);
      owned.put(vector, true);
      other.fill(vector, values.get(c), false, random, dictionaries);
      vectors.add(vector);
    }
    return vectors;
  }

  /** Spark's bytes for every row (a fresh projection per row when a CalendarInterval occurs). */
  static List<byte[]> project(ColumnarBatch batch, StructType schema, boolean freshPerRow) {
    List<byte[]> rows = new ArrayList<>(batch.numRows());
    UnsafeProjection projection = UnsafeProjection.create(schema);
    for (int i = 0; i < batch.numRows(); i++) {
      InternalRow row = batch.getRow(i);
      if (freshPerRow) {
        // Spark leaves a null CalendarInterval's 16 bytes as the reused buffer had them
        // (tools/golden-spark/README.md); a fresh projection writes them zeroed, as CONTRACTS.md §3
        // asks.
        projection = UnsafeProjection.create(schema);
      }
      // getBytes() returns the projection's own buffer when the row fills it: copy.
      rows.add(projection.apply(row).getBytes().clone());
    }
    return rows;
  }

  static void compare(byte[] expected, UnsafeRow actual, int row, String context) {
    byte[] bytes = actual.getBytes();
    if (java.util.Arrays.equals(expected, bytes)) {
      return;
    }
    int at = 0;
    while (at < Math.min(expected.length, bytes.length) && expected[at] == bytes[at]) {
      at++;
    }
    HexFormat hex = HexFormat.of();
    throw new AssertionError(
        "row "
            + row
            + " differs from Spark at byte "
            + at
            + " (Spark "
            + expected.length
            + " bytes, rowbridge "
            + bytes.length
            + ")\n  spark:     "
            + hex.formatHex(expected)
            + "\n  rowbridge: "
            + hex.formatHex(bytes)
            + "\n"
            + context);
  }
}
