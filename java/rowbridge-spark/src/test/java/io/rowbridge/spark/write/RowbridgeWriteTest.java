package io.rowbridge.spark.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.shim.SparkTypeShim;
import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.SortedAnswer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code df.write.format("rowbridge")} in Spark local mode (two task attempts allowed): files
 * round-trip through {@code format("rowbridge")} with every codec and are read by pyarrow, the four
 * SaveModes behave as Parquet's, partitionBy writes Hive-style directories the reader discovers, a
 * task that fails mid-write is retried without duplicating a row, a failed job leaves no visible
 * file, and a type rows cannot decode is refused when the write is planned.
 */
class RowbridgeWriteTest {
  private static SparkSession spark;

  /** Every kind of value, nested ones included, 3 partitions of ~1000 rows. */
  private static final String DATA =
      "SELECT id, CAST(id AS INT) AS i, id % 2 = 0 AS b,"
          + " CAST(id % 128 AS TINYINT) AS t, CAST(id AS SMALLINT) AS sh, id / 3.0D AS dbl,"
          + " CAST(id / 7 AS FLOAT) AS f, CAST(id AS DECIMAL(20, 3)) AS dec_big,"
          + " CAST(id AS DECIMAL(9, 2)) AS dec_small,"
          + " IF(id % 5 = 0, NULL, CONCAT('name-', id, REPEAT('é', CAST(id % 40 AS INT)))) AS s,"
          + " CAST(CONCAT('b', id) AS BINARY) AS bin, DATE_ADD(DATE'2020-01-01', CAST(id AS INT)) AS d,"
          + " TIMESTAMP_SECONDS(id * 1000) AS ts, CAST(TIMESTAMP_SECONDS(id) AS TIMESTAMP_NTZ) AS ntz,"
          + " MAKE_YM_INTERVAL(CAST(id % 30 AS INT), 1) AS ym, MAKE_DT_INTERVAL(1, 2, 3, id) AS dt,"
          + " IF(id % 4 = 0, NULL, NAMED_STRUCT('x', id, 'y', CAST(id AS STRING))) AS st,"
          + " IF(id % 6 = 0, NULL, SEQUENCE(0, CAST(id % 5 AS INT))) AS arr,"
          + " MAP(CAST(id AS STRING), IF(id % 3 = 0, NULL, id)) AS m,"
          + " ARRAY(NAMED_STRUCT('k', ARRAY(id, NULL), 'v', MAP('a', CAST(id AS STRING)))) AS deep,"
          + " CAST(id % 3 AS INT) AS p, CAST(id % 2 AS STRING) AS q"
          + " FROM range(0, 3000, 1, 3)";

  @BeforeAll
  static void start() {
    spark =
        SparkSession.builder()
            .master("local[2,2]")
            .appName("rowbridge-write-test")
            .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
            .config("spark.ui.enabled", "false")
            .config("spark.sql.session.timeZone", "America/Los_Angeles")
            .config("spark.sql.timeType.enabled", "true")
            // A task that ends holding task memory fails: the staging and the encoded batches
            // are given back whatever the task's end.
            .config("spark.unsafe.exceptionOnMemoryLeak", "true")
            .getOrCreate();
    spark
        .udf()
        .register(
            "fail_first_attempt",
            (UDF1<Long, Long>)
                id -> {
                  TaskContext task = TaskContext.get();
                  if (task.attemptNumber() == 0 && task.partitionId() == 1 && id == 1900) {
                    throw new IllegalStateException(
                        "the first attempt fails mid-write, on purpose");
                  }
                  return id;
                },
            DataTypes.LongType);
    spark
        .udf()
        .register(
            "fail_always",
            (UDF1<Long, Long>)
                id -> {
                  if (id == 2500) {
                    throw new IllegalStateException("this job fails, on purpose");
                  }
                  return id;
                },
            DataTypes.LongType);
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  private static Dataset<Row> data() {
    return spark.sql(DATA);
  }

  private static Dataset<Row> read(Path dir) {
    return spark.read().format("rowbridge").load(dir.toString());
  }

  /** The visible data files under {@code dir} (Spark's listing skips names from _ and .). */
  private static List<Path> dataFiles(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .filter(f -> !hidden(dir.relativize(f)))
          .filter(f -> !f.getFileName().toString().endsWith(".crc"))
          .toList();
    }
  }

  private static boolean hidden(Path relative) {
    for (Path part : relative) {
      String name = part.toString();
      if (name.startsWith("_") || name.startsWith(".")) {
        return true;
      }
    }
    return false;
  }

  /** Has pyarrow read every file under {@code from} and write them into one file in {@code to}. */
  private static String pyarrowRewrite(Path from, Path to) throws Exception {
    String python = System.getProperty("rowbridge.test.python", "build/venv/bin/python3");
    String program =
        String.join(
            "\n",
            "import sys, pathlib, pyarrow as pa, pyarrow.ipc as ipc",
            "src, dst = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])",
            "tables = []",
            "for f in sorted(src.rglob('*.arrow')):",
            "    if any(p.startswith(('_', '.')) for p in f.relative_to(src).parts): continue",
            "    with ipc.open_file(f) as reader:",
            "        tables.append(reader.read_all())",
            "table = pa.concat_tables(tables)",
            "table.validate(full=True)",
            "dst.mkdir(parents=True, exist_ok=True)",
            "with ipc.new_file(dst / 'all.arrow', table.schema) as writer:",
            "    writer.write_table(table, max_chunksize=700)",
            "print(len(tables), 'files', table.num_rows, 'rows')");
    Process process =
        new ProcessBuilder(python, "-c", program, from.toString(), to.toString())
            .redirectErrorStream(true)
            .start();
    String log = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), "pyarrow failed to read the files: " + log);
    return log.trim();
  }

  @Test
  void filesRoundTripWithEveryCodecAndPyarrowReadsThem(@TempDir Path dir) throws Exception {
    Dataset<Row> data = data();
    List<String> expected = SortedAnswer.of(data);
    for (String codec : new String[] {"none", "lz4", "zstd"}) {
      Path out = dir.resolve(codec);
      data.write()
          .format("rowbridge")
          .option(WriteConf.COMPRESSION, codec)
          .option(WriteConf.MAX_ROWS, "300")
          .option(WriteConf.IN_FLIGHT, "2")
          .save(out.toString());
      List<Path> files = dataFiles(out);
      assertEquals(3, files.size(), codec + ": " + files);
      for (Path file : files) {
        String name = file.getFileName().toString();
        assertTrue(name.endsWith(codec.equals("none") ? ".arrow" : "." + codec + ".arrow"), name);
      }
      Dataset<Row> back = read(out);
      assertEquals(data.schema().fieldNames().length, back.schema().fieldNames().length);
      assertEquals(expected, SortedAnswer.of(back), codec);
      Path rewritten = dir.resolve(codec + "-pyarrow");
      String log = pyarrowRewrite(out, rewritten);
      assertEquals("3 files 3000 rows", log, codec);
      assertEquals(expected, SortedAnswer.of(read(rewritten)), codec + " through pyarrow");
    }
  }

  /** What a sequence of writes leaves, as row counts (or the error), for one format. */
  private static List<String> saveModes(String format, Path dir) {
    Dataset<Row> first = spark.sql("SELECT id, CAST(id AS STRING) AS s FROM range(0, 100, 1, 2)");
    Dataset<Row> second = spark.sql("SELECT id, CAST(id AS STRING) AS s FROM range(100, 130)");
    String path = dir.resolve(format).toString();
    List<String> outcome = new ArrayList<>();
    first.write().format(format).save(path); // ErrorIfExists, the default, on a new path
    outcome.add("created " + spark.read().format(format).load(path).count());
    AnalysisException exists =
        assertThrows(
            AnalysisException.class,
            () -> second.write().format(format).mode(SaveMode.ErrorIfExists).save(path));
    // errorClass: the condition, on every Spark line (3.5 has no getCondition)
    outcome.add("error " + exists.errorClass().get());
    second.write().format(format).mode(SaveMode.Ignore).save(path);
    outcome.add("ignored " + spark.read().format(format).load(path).count());
    second.write().format(format).mode(SaveMode.Append).save(path);
    outcome.add("appended " + spark.read().format(format).load(path).count());
    second.write().format(format).mode(SaveMode.Overwrite).save(path);
    outcome.add("overwritten " + spark.read().format(format).load(path).count());
    outcome.add(String.join(",", SortedAnswer.of(spark.read().format(format).load(path))));
    return outcome;
  }

  @Test
  void saveModesBehaveAsParquets(@TempDir Path dir) {
    List<String> parquet = saveModes("parquet", dir);
    List<String> rowbridge = saveModes("rowbridge", dir);
    assertEquals(parquet, rowbridge);
    assertEquals("overwritten 30", rowbridge.get(4));
  }

  @Test
  void partitionByWritesDirectoriesTheReaderDiscovers(@TempDir Path dir) throws IOException {
    Dataset<Row> data = data();
    Path out = dir.resolve("partitioned");
    data.write()
        .format("rowbridge")
        .partitionBy("p", "q")
        .option(WriteConf.COMPRESSION, "zstd")
        .save(out.toString());
    for (int p = 0; p < 3; p++) {
      for (int q = 0; q < 2; q++) {
        Path leaf = out.resolve("p=" + p).resolve("q=" + q);
        assertTrue(Files.isDirectory(leaf), leaf.toString());
        assertTrue(!dataFiles(leaf).isEmpty(), leaf.toString());
      }
    }
    // Partition columns come last when read back.
    List<String> columns = new ArrayList<>(List.of(data.columns()));
    Dataset<Row> back = read(out).selectExpr(columns.toArray(new String[0]));
    assertEquals(SortedAnswer.of(data), SortedAnswer.of(back));
    assertEquals(1000, read(out).where("p = 1").count());
  }

  @Test
  void aTaskThatFailsMidWriteIsRetriedWithoutDuplicates(@TempDir Path dir) throws IOException {
    Path out = dir.resolve("retried");
    spark
        .sql(
            "SELECT fail_first_attempt(id) AS id, CONCAT('v', id) AS s"
                + " FROM range(0, 3000, 1, 3)")
        .write()
        .format("rowbridge")
        .option(WriteConf.MAX_ROWS, "100")
        .save(out.toString());
    assertEquals(3, dataFiles(out).size(), dataFiles(out).toString());
    Dataset<Row> back = read(out);
    assertEquals(3000, back.count());
    assertEquals(3000, back.distinct().count());
  }

  @Test
  void aFailedJobLeavesNoVisibleFile(@TempDir Path dir) throws IOException {
    Path out = dir.resolve("failed");
    Exception failure =
        assertThrows(
            Exception.class,
            () ->
                spark
                    .sql(
                        "SELECT fail_always(id) AS id, CONCAT('v', id) AS s FROM range(0, 3000, 1, 3)")
                    .write()
                    .format("rowbridge")
                    .option(WriteConf.MAX_ROWS, "100")
                    .save(out.toString()));
    assertTrue(
        String.valueOf(failure.getMessage()).contains("fails, on purpose")
            || String.valueOf(failure.getCause()).contains("fails, on purpose"),
        failure.toString());
    assertEquals(List.of(), dataFiles(out));
  }

  @Test
  void badOptionsAreRefusedUpFront(@TempDir Path dir) {
    IllegalArgumentException codec =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                data()
                    .write()
                    .format("rowbridge")
                    .option(WriteConf.COMPRESSION, "snappy")
                    .save(dir.resolve("codec").toString()));
    assertTrue(codec.getMessage().contains("none, lz4 or zstd"), codec.getMessage());
  }

  /** The newer types this Spark line has: variants (4.0+) and times (4.1+). */
  @Test
  void variantsAndTimesRoundTrip(@TempDir Path dir) {
    List<String> columns = new ArrayList<>(List.of("id"));
    List<String> shown = new ArrayList<>(List.of("id"));
    if (SparkTypeShim.hasVariant()) {
      columns.addAll(List.of("parse_json(j) AS v", "array(parse_json(j), NULL) AS a"));
      shown.addAll(List.of("to_json(v)", "to_json(a[0])", "a[1] IS NULL"));
    }
    if (SparkTypeShim.hasTime()) {
      columns.add("make_time(id % 24, 30, 15.25) AS t");
      shown.add("t");
    }
    String query =
        "SELECT "
            + String.join(", ", columns)
            + ", j FROM VALUES"
            + " (0, '{\"a\": [1, true]}'), (1, '\"text\"'), (2, NULL), (3, '-2.5') AS s(id, j)";
    String out = dir.resolve("variant").toString();
    spark.sql(query).write().format("rowbridge").save(out);
    shown.add("j");
    String[] selected = shown.toArray(new String[0]);
    List<Row> expected = spark.sql(query).selectExpr(selected).orderBy("id").collectAsList();
    assertEquals(4, expected.size());
    assertEquals(
        expected,
        spark
            .read()
            .format("rowbridge")
            .load(out)
            .selectExpr(selected)
            .orderBy("id")
            .collectAsList());
  }
}
