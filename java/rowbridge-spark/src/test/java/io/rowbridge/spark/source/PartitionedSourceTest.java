package io.rowbridge.spark.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.NewerLayouts;
import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.SortedAnswer;
import io.rowbridge.spark.conf.RowbridgeConf;
import io.rowbridge.spark.transition.RowbridgeColumnarToRowExec;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.FilePartition;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * format("rowbridge") over Hive-style partition directories and Spark's file-source options, in
 * Spark local mode, with Spark's own Parquet reader over the same layout as the oracle: the Parquet
 * copy of each Arrow file sits in the same partition directory, so partition discovery, type
 * inference, basePath, null partitions, static and dynamic pruning must give the same schema and
 * rows.
 */
class PartitionedSourceTest {
  private static SparkSession spark;
  private static Path dir;
  private static Path arrow;
  private static Path parquet;

  @BeforeAll
  static void start() throws IOException {
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("rowbridge-partitioned-test")
            .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate();
    dir = Files.createTempDirectory("rowbridge-partitioned-test");
    arrow = dir.resolve("arrow");
    parquet = dir.resolve("parquet");
    Path[] files = TestData.writePartitioned(arrow);
    for (int p = 0; p < files.length; p++) {
      spark
          .read()
          .format("rowbridge")
          .load(files[p].toString())
          .write()
          .parquet(parquet.resolve(TestData.PARTITIONS[p]).toString());
    }
  }

  @AfterAll
  static void stop() throws IOException {
    if (spark != null) {
      spark.stop();
    }
    TestFiles.deleteTree(dir);
  }

  @AfterEach
  void defaults() {
    spark.conf().unset("spark.sql.sources.partitionColumnTypeInference.enabled");
    spark.conf().unset(RowbridgeConf.ENABLED);
  }

  private static DataFrameReader reader(String... options) {
    DataFrameReader reader = spark.read().format("rowbridge");
    for (int i = 0; i < options.length; i += 2) {
      reader = reader.option(options[i], options[i + 1]);
    }
    return reader;
  }

  /** The same schema and rows as Parquet's, in the columnar and row modes, rowbridge on and off. */
  private static void sameAsParquet(String query, String... options) {
    spark
        .read()
        .options(optionMap(options))
        .parquet(parquet.toString())
        .createOrReplaceTempView("expected");
    Dataset<Row> expected = spark.sql(query.replace("{t}", "expected"));
    List<String> expectedRows = SortedAnswer.of(expected);
    assertFalse(expectedRows.isEmpty(), query);
    for (String mode : List.of("auto", "rows")) {
      for (String enabled : List.of("true", "false")) {
        spark.conf().set(RowbridgeConf.ENABLED, enabled);
        List<String> all = new ArrayList<>(List.of(options));
        all.add("mode");
        all.add(mode);
        reader(all.toArray(new String[0])).load(arrow.toString()).createOrReplaceTempView("actual");
        Dataset<Row> actual = spark.sql(query.replace("{t}", "actual"));
        String where = query + " (mode " + mode + ", rowbridge's transition " + enabled + ")";
        assertEquals(expected.schema().simpleString(), actual.schema().simpleString(), where);
        assertEquals(expectedRows, SortedAnswer.of(actual), where);
      }
    }
    spark.conf().unset(RowbridgeConf.ENABLED);
  }

  private static java.util.Map<String, String> optionMap(String... options) {
    java.util.Map<String, String> map = new java.util.HashMap<>();
    for (int i = 0; i < options.length; i += 2) {
      map.put(options[i], options[i + 1]);
    }
    return map;
  }

  private static BatchScanExec scanOf(Dataset<Row> frame) {
    List<BatchScanExec> found = new ArrayList<>();
    frame
        .queryExecution()
        .executedPlan()
        .foreach(
            node -> {
              if (node instanceof BatchScanExec scan && scan.scan() instanceof RowbridgeScan) {
                found.add(scan);
              }
              return null;
            });
    assertEquals(1, found.size(), frame.queryExecution().executedPlan().toString());
    return found.get(0);
  }

  private static List<String> filesOf(InputPartition[] partitions) {
    List<String> files = new ArrayList<>();
    for (InputPartition partition : partitions) {
      for (PartitionedFile file : ((FilePartition) partition).files()) {
        files.add(file.filePath().toString());
      }
    }
    return files;
  }

  @Test
  void discoversPartitionColumnsAsSparkDoes() {
    sameAsParquet("SELECT * FROM {t}");
    Dataset<Row> frame = reader().load(arrow.toString());
    assertEquals(
        "struct<a:bigint,b:int,c:double,d:string,e:array<int>,day:date,kind:string>",
        frame.schema().simpleString());
    assertEquals(800, frame.where("day IS NULL").count(), "__HIVE_DEFAULT_PARTITION__ is null");
  }

  @Test
  void partitionTypeInferenceCanBeTurnedOff() {
    spark.conf().set("spark.sql.sources.partitionColumnTypeInference.enabled", "false");
    sameAsParquet("SELECT a, day, kind FROM {t}");
    assertEquals(
        "string", reader().load(arrow.toString()).schema().apply("day").dataType().simpleString());
  }

  @Test
  void basePathKeepsThePartitionColumnsOfASubdirectory() {
    String base = arrow.toString();
    Dataset<Row> frame = reader("basePath", base).load(arrow.resolve("day=2026-12-01").toString());
    assertEquals(List.of("a", "b", "c", "d", "e", "day", "kind"), List.of(frame.columns()));
    assertEquals(800 + 400, frame.count());
    assertEquals(
        List.of("[2026-12-01,a,400]", "[2026-12-01,b,800]"),
        SortedAnswer.of(frame.groupBy("day", "kind").count()));
  }

  @Test
  void filtersOnPartitionColumnsPruneDirectoriesBeforeAnyFileIsOpened() {
    sameAsParquet("SELECT a, d, kind FROM {t} WHERE kind = 'a' AND day = DATE'2026-12-01'");
    Dataset<Row> frame =
        reader().load(arrow.toString()).where("kind = 'a' AND day = DATE'2026-12-01'");
    List<String> files = filesOf(scanOf(frame).scan().toBatch().planInputPartitions());
    assertEquals(1, files.size(), files.toString());
    assertTrue(files.get(0).contains("day=2026-12-01/kind=a"), files.toString());
  }

  @Test
  void joinsPruneAtRuntime() throws IOException {
    Path dims = dir.resolve("dims");
    spark
        .sql("SELECT * FROM VALUES ('a', 'keep'), ('b', 'drop'), ('c', 'drop') AS v(kind, tag)")
        .write()
        .parquet(dims.toString());
    spark.read().parquet(dims.toString()).createOrReplaceTempView("dims");
    String query =
        "SELECT f.a, f.kind FROM {t} f JOIN dims d ON f.kind = d.kind WHERE d.tag = 'keep'";
    sameAsParquet(query);
    reader().load(arrow.toString()).createOrReplaceTempView("fact");
    Dataset<Row> frame = spark.sql(query.replace("{t}", "fact"));
    assertEquals(800, frame.collectAsList().size());
    BatchScanExec scan = scanOf(frame);
    assertFalse(scan.runtimeFilters().isEmpty(), "dynamic partition pruning: " + scan);
    List<String> files = filesOf(scan.scan().toBatch().planInputPartitions());
    assertEquals(2, files.size(), "only the kind=a files after the runtime filter: " + files);
    files.forEach(file -> assertTrue(file.contains("kind=a"), file));
  }

  @Test
  void theTransitionConvertsPartitionColumnsNatively() {
    Dataset<Row> frame = reader().load(arrow.toString());
    List<String> rows = SortedAnswer.of(frame);
    assertEquals(SortedAnswer.of(spark.read().parquet(parquet.toString())), rows);
    List<RowbridgeColumnarToRowExec> transitions = new ArrayList<>();
    frame
        .queryExecution()
        .executedPlan()
        .foreach(
            node -> {
              if (node instanceof RowbridgeColumnarToRowExec exec) {
                transitions.add(exec);
              }
              return null;
            });
    assertEquals(1, transitions.size(), frame.queryExecution().executedPlan().toString());
    SparkPlan transition = transitions.get(0);
    assertEquals(6L, transition.metrics().apply("numInputBatches").value());
    // Arrow Java 12 (Spark 3.5) has no run-end encoding for the constants: Spark's projection
    // makes those batches' rows (java/README.md, "Spark versions").
    assertEquals(
        NewerLayouts.available() ? 0L : 6L,
        transition.metrics().apply("numSparkBatches").value(),
        "batches with ConstantColumnVectors (a null one among them) convert natively");
  }

  @Test
  void pathGlobFilterAndRecursiveFileLookup() throws IOException {
    Path globbed = Files.createDirectories(dir.resolve("globbed"));
    TestFiles.write(globbed.resolve("part-0.arrow"), 0, 1, 100);
    TestFiles.write(globbed.resolve("part-1.arrow"), 100, 1, 50);
    List<Row> rows =
        reader("pathGlobFilter", "*-1.arrow").load(globbed.toString()).select("a").collectAsList();
    assertEquals(50, rows.size());
    assertEquals(100L, rows.get(0).getLong(0));
    Dataset<Row> recursive = reader("recursiveFileLookup", "true").load(arrow.toString());
    assertEquals(
        List.of("a", "b", "c", "d", "e"),
        List.of(recursive.columns()),
        "no partition columns when looking up files recursively");
    assertEquals(2400, recursive.count());
  }

  @Test
  void missingAndCorruptFilesFailNamingThemOrAreSkipped() throws IOException {
    Path flaky = Files.createDirectories(dir.resolve("flaky"));
    TestFiles.write(flaky.resolve("part-0.arrow"), 0, 2, 100);
    TestFiles.write(flaky.resolve("part-1.arrow"), 200, 2, 100);
    Files.write(flaky.resolve("part-2.arrow"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    Exception corrupt =
        assertThrows(Exception.class, () -> reader().load(flaky.toString()).collectAsList());
    assertTrue(
        messages(corrupt).contains(flaky.resolve("part-2.arrow").toString()), messages(corrupt));
    assertEquals(400, reader("ignoreCorruptFiles", "true").load(flaky.toString()).count());

    // Planned, then a file deleted before the tasks read it.
    for (String ignore : List.of("false", "true")) {
      Path file = flaky.resolve("part-1.arrow");
      TestFiles.write(file, 200, 2, 100);
      Dataset<Row> frame =
          reader("ignoreCorruptFiles", "true", "ignoreMissingFiles", ignore)
              .load(flaky.toString())
              .select("a");
      frame.queryExecution().executedPlan();
      scanOf(frame).scan().toBatch().planInputPartitions();
      Files.delete(file);
      if (ignore.equals("true")) {
        assertEquals(200, frame.collectAsList().size());
      } else {
        Exception missing = assertThrows(Exception.class, frame::collectAsList);
        assertTrue(messages(missing).contains(file + " (bytes "), messages(missing));
        assertTrue(messages(missing).contains("no such file"), messages(missing));
      }
    }
  }

  @Test
  void filesThatDisagreeOnTheirColumnsAreAnErrorNamingTheFile() throws IOException {
    Path mixed = Files.createDirectories(dir.resolve("mixed"));
    TestFiles.write(mixed.resolve("part-0.arrow"), 0, 1, 10);
    Path other = mixed.resolve("part-1.arrow");
    try (RootAllocator allocator = new RootAllocator();
        VectorSchemaRoot root =
            VectorSchemaRoot.create(
                new Schema(List.of(Field.nullable("a", new ArrowType.Int(32, true)))), allocator);
        FileChannel channel =
            FileChannel.open(other, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        ArrowFileWriter writer = new ArrowFileWriter(root, null, channel)) {
      ((IntVector) root.getVector(0)).setSafe(0, 7);
      root.setRowCount(1);
      writer.start();
      writer.writeBatch();
      writer.end();
    }
    Exception e =
        assertThrows(Exception.class, () -> reader().load(mixed.toString()).collectAsList());
    assertTrue(messages(e).contains(other.toString() + " has the columns"), messages(e));
  }

  private static String messages(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      out.append(t.getMessage()).append('\n');
    }
    return out.toString();
  }
}
