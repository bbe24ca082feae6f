package io.rowbridge.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.RowbridgeException;
import io.rowbridge.spark.RandomColumns.Dictionaries;
import io.rowbridge.spark.RandomColumns.Kind;
import io.rowbridge.spark.conf.RowbridgeConf;
import io.rowbridge.spark.source.PyarrowFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.execution.ColumnarToRowTransition;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every type of CONTRACTS.md §2 read back through format("rowbridge") equal, byte for byte, to the
 * rows Spark's own UnsafeProjection writes for the same values read through ArrowColumnVectors
 * (Spark is the oracle): files written by pyarrow (every flat type, nested types, dictionary and
 * run-end encodings, extension types, ZSTD and LZ4 bodies; normalised twins written by pyarrow too)
 * and by Arrow Java (random schemas of RandomColumns, normalised with Arrow Java). Each file is
 * read in the row mode, and columnar with rowbridge's row conversion on and off (when Spark's
 * ArrowColumnVector reads the columns).
 */
class SourceTypesTest {
  /** Random Arrow Java schemas (make test); the base seed is printed. */
  static final int SCHEMAS = Integer.getInteger("rowbridge.test.source.schemas", 24);

  private static SparkSession spark;
  private static Path dir;

  @BeforeAll
  static void start() throws IOException {
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("rowbridge-source-types-test")
            .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
            .config("spark.ui.enabled", "false")
            .config("spark.sql.session.timeZone", "UTC")
            // random schemas hold time columns (TimeSourceTest covers the setting off)
            .config("spark.sql.timeType.enabled", "true")
            .getOrCreate();
    dir = Files.createTempDirectory("rowbridge-source-types");
  }

  @AfterAll
  static void stop() throws IOException {
    if (spark != null) {
      spark.stop();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path path : files.sorted((x, y) -> y.compareTo(x)).toList()) {
        Files.delete(path);
      }
    }
  }

  /**
   * The rows of {@code frame}'s scan as bytes, straight from the node that makes them: the
   * columnar-to-row transition above a columnar scan, or the scan itself in the row mode (not the
   * ProjectExec Spark plans above a row scan, whose reused buffer keeps a previous row's bytes
   * under a null CalendarInterval).
   */
  static List<byte[]> rowsOf(Dataset<Row> frame) {
    List<SparkPlan> sources = new ArrayList<>();
    frame
        .queryExecution()
        .executedPlan()
        .foreach(
            node -> {
              if (node instanceof ColumnarToRowTransition
                  || (node instanceof BatchScanExec scan && !scan.supportsColumnar())) {
                sources.add(node);
              }
              return null;
            });
    assertEquals(1, sources.size(), frame.queryExecution().executedPlan().toString());
    return sources
        .get(0)
        .execute()
        .toJavaRDD()
        .map(row -> ((UnsafeRow) row).getBytes().clone())
        .collect();
  }

  /** Reads {@code file} in every way that applies; each must give {@code expected}. */
  static void check(
      Path file, List<String> columns, List<byte[]> expected, boolean columnar, String context) {
    List<String> ways = new ArrayList<>(List.of("rows"));
    if (columnar) {
      ways.add("columnar+rowbridge");
      ways.add("columnar+spark");
    }
    for (String way : ways) {
      spark.conf().set(RowbridgeConf.ENABLED, String.valueOf(!way.equals("columnar+spark")));
      try {
        Dataset<Row> frame =
            spark
                .read()
                .format("rowbridge")
                .option("mode", way.equals("rows") ? "rows" : "auto")
                .load(file.toString());
        if (columns != null) {
          frame = frame.selectExpr(columns.stream().map(c -> "`" + c + "`").toArray(String[]::new));
        }
        String plan = frame.queryExecution().executedPlan().toString();
        assertEquals(!way.equals("rows"), plan.contains("ColumnarToRow"), way + ": " + plan);
        List<byte[]> actual = rowsOf(frame);
        assertEquals(expected.size(), actual.size(), way + ", " + context);
        for (int i = 0; i < expected.size(); i++) {
          UnsafeRow row = new UnsafeRow(frame.schema().size());
          row.pointTo(actual.get(i), actual.get(i).length);
          SparkDifferentialTest.compare(expected.get(i), row, i, way + ", " + context);
        }
      } finally {
        spark.conf().set(RowbridgeConf.ENABLED, "true");
      }
    }
  }

  /** Spark's rows of every batch of a file Spark's ArrowColumnVector reads. */
  static List<byte[]> sparkRows(Path readable, List<String> columns) throws IOException {
    List<byte[]> rows = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator();
        ArrowFileReader reader = new ArrowFileReader(FileChannel.open(readable), allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        List<ColumnVector> vectors = new ArrayList<>();
        List<StructField> fields = new ArrayList<>();
        for (FieldVector vector : root.getFieldVectors()) {
          if (columns == null || columns.contains(vector.getName())) {
            ArrowColumnVector column = new ArrowColumnVector(vector);
            vectors.add(column);
            fields.add(
                new StructField(vector.getName(), column.dataType(), true, Metadata.empty()));
          }
        }
        ColumnarBatch batch =
            new ColumnarBatch(vectors.toArray(new ColumnVector[0]), root.getRowCount());
        rows.addAll(
            SparkDifferentialTest.project(
                batch, new StructType(fields.toArray(new StructField[0])), true));
      }
    }
    return rows;
  }

  @Test
  void pyarrowFilesOfEveryType() throws Exception {
    Path out = Files.createDirectories(dir.resolve("pyarrow"));
    String log = PyarrowFiles.write(out);
    System.out.print("SourceTypesTest: " + log);
    int inputs = 0;
    try (Stream<Path> files = Files.list(out)) {
      for (Path input : files.sorted().toList()) {
        String name = input.getFileName().toString();
        if (name.endsWith(".readable.arrow")) {
          continue;
        }
        Path readable = readableTwin(input);
        List<byte[]> all = sparkRows(readable, null);
        check(input, null, all, false, "pyarrow file " + name);
        // The columns Spark reads as they are: columnar, both conversions.
        List<String> plain = sameTypedColumns(input, readable);
        assertTrue(!plain.isEmpty() || name.startsWith("encoded"), name);
        assertTrue(!name.startsWith("extension") || plain.size() == 5, name + ": " + plain);
        if (!plain.isEmpty()) {
          check(
              input,
              plain,
              sparkRows(readable, plain),
              true,
              "pyarrow file " + name + ", columns " + plain);
        }
        inputs++;
      }
    }
    assertEquals(6, inputs, "the inputs make_source_files.py writes");
  }

  /**
   * Every column pyarrow writes: read where Arrow Java can import its schema; where it cannot
   * (Arrow Java 12: views, list views, run-end encoding and month_day_nano intervals; 18.1.0:
   * run-end encoding), an error naming the file, the first such column and its layout.
   */
  @Test
  void everyLayoutReadsOrIsANamedError() throws Exception {
    Path out = Files.createDirectories(dir.resolve("pyarrow-every-layout"));
    PyarrowFiles.write(out, List.of());
    List<String> unimportable = PyarrowFiles.unimportable();
    // file, the kind of column that makes it unreadable where it is unimportable, its first
    // such column, the layout the error names
    String[][] cases = {
      {"flat.arrow", "month_day_nano", "`month_day_nano`", "month_day_nano interval"},
      {"nested-zstd.arrow", "list_views", "`list_view`", "list view"},
      {"encoded.arrow", "run_end", "`ree_utf8`", "run-end encoded"}
    };
    for (String[] c : cases) {
      Path file = out.resolve(c[0]);
      if (!unimportable.contains(c[1])) {
        long rows = spark.read().format("rowbridge").load(file.toString()).count();
        assertEquals(sparkRows(readableTwin(file), null).size(), rows, c[0]);
        continue;
      }
      Throwable thrown =
          assertThrows(
              Exception.class,
              () -> spark.read().format("rowbridge").load(file.toString()).collect(),
              c[0]);
      while (!(thrown instanceof RowbridgeException) && thrown.getCause() != null) {
        thrown = thrown.getCause();
      }
      Throwable error = thrown;
      assertTrue(error instanceof RowbridgeException, c[0] + ": " + error);
      assertTrue(
          error.getMessage().contains(file.toString())
              && error.getMessage().contains(c[2])
              && error.getMessage().contains(c[3]),
          error.getMessage());
    }
  }

  /** NAME.readable.arrow beside NAME[-CODEC].arrow: the same values in types Spark reads. */
  private static Path readableTwin(Path input) {
    String name = input.getFileName().toString();
    return input.resolveSibling(
        name.replaceFirst("(-[a-z0-9]+)?\\.arrow$", "") + ".readable.arrow");
  }

  /**
   * Columns whose type in the input is the type in the readable twin (Spark reads them), an
   * extension's metadata aside: Spark's ArrowColumnVector reads the storage of an extension that
   * Arrow Java does not know.
   */
  private static List<String> sameTypedColumns(Path input, Path readable) throws IOException {
    try (BufferAllocator allocator = new RootAllocator();
        ArrowFileReader in = new ArrowFileReader(FileChannel.open(input), allocator);
        ArrowFileReader twin = new ArrowFileReader(FileChannel.open(readable), allocator)) {
      List<Field> a = in.getVectorSchemaRoot().getSchema().getFields();
      List<Field> b = twin.getVectorSchemaRoot().getSchema().getFields();
      List<String> same = new ArrayList<>();
      for (int i = 0; i < a.size(); i++) {
        boolean monthDayNano = a.get(i).getType().toString().contains("MONTH_DAY_NANO");
        if (a.get(i).getDictionary() == null
            && withoutExtensions(a.get(i)).equals(b.get(i))
            && !monthDayNano) {
          same.add(a.get(i).getName());
        }
      }
      return same;
    }
  }

  /** {@code field} without extension metadata, at every depth. */
  private static Field withoutExtensions(Field field) {
    Map<String, String> metadata = new HashMap<>(field.getMetadata());
    metadata.remove("ARROW:extension:name");
    metadata.remove("ARROW:extension:metadata");
    FieldType type =
        new FieldType(
            field.isNullable(),
            field.getType(),
            field.getDictionary(),
            metadata.isEmpty() ? null : metadata);
    return new Field(
        field.getName(),
        type,
        field.getChildren().stream().map(SourceTypesTest::withoutExtensions).toList());
  }

  @Test
  void arrowJavaFilesOfRandomSchemas() throws IOException {
    long base = SparkDifferentialTest.baseSeed();
    System.out.println(
        "SourceTypesTest: "
            + SCHEMAS
            + " random schemas, base seed "
            + base
            + " (-Drowbridge.test.seed="
            + base
            + ")");
    Path out = Files.createDirectories(dir.resolve("arrow-java"));
    try (BufferAllocator allocator = new RootAllocator()) {
      for (int s = 0; s < SCHEMAS; s++) {
        randomSchema(allocator, base + s, out.resolve("schema-" + s + ".arrow"));
      }
    }
  }

  private static void randomSchema(BufferAllocator allocator, long seed, Path file)
      throws IOException {
    Random random = new Random(seed);
    int columns = 1 + random.nextInt(6);
    int rows = random.nextInt(10) == 0 ? random.nextInt(3) : 1 + random.nextInt(400);
    List<Kind> kinds = new ArrayList<>();
    List<List<Object>> values = new ArrayList<>();
    boolean[] nullable = new boolean[columns];
    for (int c = 0; c < columns; c++) {
      Kind kind = RandomColumns.randomKind(random, random.nextInt(3), true, true);
      while (kind instanceof RandomEncodings.RunEndKind && !ArrowJavaCData.importsRunEnds()) {
        kind = RandomColumns.randomKind(random, random.nextInt(3), true, true);
      }
      kinds.add(kind);
      nullable[c] = kind.isNullType() || random.nextInt(4) != 0;
      List<Object> column = new ArrayList<>();
      for (int r = 0; r < rows; r++) {
        column.add(RandomColumns.value(kind, nullable[c], random));
      }
      if (kind instanceof RandomEncodings.RunEndKind) {
        RandomEncodings.RunEndKind.makeRuns(column, random);
      }
      values.add(column);
    }
    Dictionaries dictionaries = new Dictionaries(allocator);
    Map<FieldVector, Boolean> owned = new IdentityHashMap<>();
    StringBuilder description = new StringBuilder("seed " + seed + ", " + rows + " rows:");
    try {
      List<Field> fields = new ArrayList<>();
      List<FieldVector> inputs = new ArrayList<>();
      List<ColumnVector> readables = new ArrayList<>();
      List<StructField> sparkFields = new ArrayList<>();
      boolean columnar = true;
      boolean calendar = false;
      for (int c = 0; c < columns; c++) {
        Kind kind = kinds.get(c);
        description.append("\n  c").append(c).append(": ").append(kind.describe());
        Field field = kind.input("c" + c, nullable[c], dictionaries);
        FieldVector input = field.createVector(allocator);
        owned.put(input, true);
        kind.fill(input, values.get(c), false, random, dictionaries);
        fields.add(field);
        inputs.add(input);
        FieldVector readable = input;
        if (!kind.sparkReadsInput()) {
          readable = kind.readable("c" + c, nullable[c]).createVector(allocator);
          owned.put(readable, true);
          kind.fill(readable, values.get(c), true, random, dictionaries);
          columnar = false;
        }
        calendar |= kind.hasCalendarInterval();
        ArrowColumnVector column = new ArrowColumnVector(readable);
        readables.add(column);
        sparkFields.add(new StructField("c" + c, column.dataType(), true, Metadata.empty()));
      }
      // Spark's own transition leaves under a null CalendarInterval the bytes its reused buffer
      // held (tools/golden-spark/README.md), so such files are compared in the row mode only.
      columnar &= !calendar;
      List<byte[]> once =
          SparkDifferentialTest.project(
              new ColumnarBatch(readables.toArray(new ColumnVector[0]), rows),
              new StructType(sparkFields.toArray(new StructField[0])),
              true);
      // Two batches of the same vectors.
      try (VectorSchemaRoot root = new VectorSchemaRoot(fields, inputs, rows);
          FileChannel channel =
              FileChannel.open(
                  file,
                  StandardOpenOption.CREATE,
                  StandardOpenOption.TRUNCATE_EXISTING,
                  StandardOpenOption.WRITE);
          ArrowFileWriter writer = new ArrowFileWriter(root, dictionaries.provider, channel)) {
        writer.start();
        writer.writeBatch();
        writer.writeBatch();
        writer.end();
        for (FieldVector vector : inputs) {
          owned.put(vector, false); // the root closes the inputs
        }
      }
      List<byte[]> expected = new ArrayList<>(once);
      expected.addAll(once);
      check(file, null, expected, columnar, description.toString());
    } finally {
      owned.forEach(
          (vector, open) -> {
            if (open) {
              vector.close();
            }
          });
      dictionaries.close();
    }
  }
}
