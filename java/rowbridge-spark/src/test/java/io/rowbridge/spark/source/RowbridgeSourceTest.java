package io.rowbridge.spark.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.conf.RowbridgeConf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * format("rowbridge") in Spark local mode over files Arrow Java wrote (TestFiles): files and
 * batch-range partitions, column pruning, empty files, corrupt files, a cancelled job's streams,
 * metrics, and the same answers with rowbridge's row conversion on, off, and in the row mode.
 */
class RowbridgeSourceTest {
  private static SparkSession spark;
  private static Path dir;

  /** ids 0-9999 in 10 batches of 1000 rows, then 10000-14999 in 5, then an empty file. */
  private static Path three;

  private static long batchBytes;

  @BeforeAll
  static void start() throws IOException {
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("rowbridge-source-test")
            .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "3")
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate();
    dir = Files.createTempDirectory("rowbridge-source-test");
    three = Files.createDirectory(dir.resolve("three"));
    TestFiles.write(three.resolve("part-0.arrow"), 0, 10, 1000);
    TestFiles.write(three.resolve("part-1.arrow"), 10000, 5, 1000);
    TestFiles.write(three.resolve("part-2.arrow"), 20000, 0, 1000);
    // Not read: hidden, or not named *.arrow / *.feather / *.ipc.
    Files.writeString(three.resolve("_SUCCESS"), "");
    Files.writeString(three.resolve(".part-3.arrow.crc"), "garbage");
    Files.writeString(three.resolve("notes.txt"), "garbage");
    batchBytes = blocks(three.resolve("part-0.arrow")).get(0).getBodyLength();
  }

  @AfterAll
  static void stop() throws IOException {
    if (spark != null) {
      spark.stop();
    }
    TestFiles.deleteTree(dir);
  }

  private static List<ArrowBlock> blocks(Path file) throws IOException {
    try (RootAllocator allocator = new RootAllocator();
        ArrowFileReader reader = new ArrowFileReader(FileChannel.open(file), allocator)) {
      return reader.getRecordBlocks();
    }
  }

  private static DataFrameReader reader(String... options) {
    DataFrameReader reader = spark.read().format("rowbridge");
    for (int i = 0; i < options.length; i += 2) {
      reader = reader.option(options[i], options[i + 1]);
    }
    return reader;
  }

  private static List<String> strings(Dataset<Row> frame) {
    List<String> out = new ArrayList<>();
    for (Row row : frame.collectAsList()) {
      out.add(row.toString());
    }
    return out;
  }

  private static BatchScanExec scanOf(Dataset<Row> frame) {
    List<BatchScanExec> found = new ArrayList<>();
    SparkPlan plan = frame.queryExecution().executedPlan();
    plan.foreach(
        node -> {
          if (node instanceof BatchScanExec scan) {
            found.add(scan);
          }
          return null;
        });
    assertFalse(found.isEmpty(), "a BatchScanExec in\n" + plan);
    return found.get(0);
  }

  private static String messages(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      out.append(t.getMessage()).append('\n');
    }
    return out.toString();
  }

  @Test
  void everyFileInOrderOnePartitionPerFile() {
    Dataset<Row> frame = reader().load(three.toString());
    assertEquals(2, frame.rdd().getNumPartitions(), "one per non-empty file");
    List<Row> rows = frame.collectAsList();
    assertEquals(15000, rows.size());
    for (int i = 0; i < rows.size(); i++) {
      Row row = rows.get(i);
      assertEquals((long) i, row.getLong(0));
      assertEquals(i % 97, row.getInt(1));
      assertEquals(i / 4.0, row.getDouble(2));
      assertEquals(i % 7 == 3 ? null : "value_" + i, row.getString(3));
      assertEquals(i % 11 == 5 ? -1 : i % 4, row.isNullAt(4) ? -1 : row.getList(4).size());
    }
    assertEquals(
        "struct<a:bigint,b:int,c:double,d:string,e:array<int>>", frame.schema().simpleString());
  }

  @Test
  void splitsFilesIntoBatchRangesBySize() {
    // About three batch bodies per partition: 10 batches -> 4 ranges, 5 -> 2.
    Dataset<Row> frame =
        reader("splitBytes", String.valueOf(3 * batchBytes - 1)).load(three.toString());
    assertEquals(6, frame.rdd().getNumPartitions());
    List<Row> rows = frame.select("a").collectAsList();
    assertEquals(15000, rows.size());
    for (int i = 0; i < rows.size(); i++) {
      assertEquals((long) i, rows.get(i).getLong(0));
    }
    spark.conf().set("spark.rowbridge.scan.splitBytes", "1");
    try {
      assertEquals(
          15,
          reader().load(three.toString()).rdd().getNumPartitions(),
          "the session's configuration: one batch per partition");
    } finally {
      spark.conf().unset("spark.rowbridge.scan.splitBytes");
    }
  }

  @Test
  void severalPathsAndFileUris() {
    Dataset<Row> frame =
        reader()
            .load(
                three.resolve("part-1.arrow").toUri().toString(),
                three.resolve("part-0.arrow").toString());
    List<Row> rows = frame.select("a").collectAsList();
    assertEquals(15000, rows.size());
    assertEquals(10000L, rows.get(0).getLong(0), "paths in the order given");
    assertEquals(
        15000L,
        spark.read().format(RowbridgeSource.class.getName()).load(three.toString()).count(),
        "by class name");
  }

  @Test
  void streamFormatFilesAreOnePartition() throws IOException {
    Path streams = Files.createDirectories(dir.resolve("streams"));
    TestFiles.writeStream(streams.resolve("part-0.arrows"), 0, 6, 500);
    for (String mode : List.of("auto", "rows")) {
      Dataset<Row> frame = reader("mode", mode, "splitBytes", "1").load(streams.toString());
      assertEquals(1, frame.rdd().getNumPartitions());
      List<Row> rows = frame.select("a", "d").collectAsList();
      assertEquals(3000, rows.size());
      assertEquals(2999L, rows.get(2999).getLong(0));
      assertEquals("value_2998", rows.get(2998).getString(1)); // 2999 % 7 == 3: null
    }
  }

  @Test
  void prunesColumns() {
    Dataset<Row> frame = reader().load(three.toString()).select("d", "a").where("a % 1000 = 1");
    BatchScanExec scan = scanOf(frame);
    assertEquals("struct<a:bigint,d:string>", scan.scan().readSchema().simpleString());
    List<Row> rows = frame.collectAsList();
    assertEquals(15, rows.size());
    assertEquals("value_1", rows.get(0).getString(0));
    // No column at all: the rows are still counted.
    assertEquals(15000L, reader().load(three.toString()).count());
    assertEquals(15000L, reader("mode", "rows").load(three.toString()).count());
  }

  @Test
  void emptyFilesAndDirectoriesOfEmptyFiles() throws IOException {
    Path empty = Files.createDirectories(dir.resolve("empty"));
    TestFiles.write(empty.resolve("none.arrow"), 0, 0, 10);
    TestFiles.write(empty.resolve("zero-rows.arrow"), 0, 2, 0);
    for (String mode : List.of("auto", "rows")) {
      Dataset<Row> frame = reader("mode", mode).load(empty.toString());
      assertEquals(5, frame.schema().size());
      assertEquals(0, frame.collectAsList().size());
      assertEquals(0L, frame.count());
    }
    Path nothing = Files.createDirectories(dir.resolve("nothing"));
    Exception e = assertThrows(Exception.class, () -> reader().load(nothing.toString()));
    assertTrue(messages(e).contains("no Arrow IPC file"), messages(e));
  }

  @Test
  void rowConversionOnOffAndRowModeAgree() {
    reader().load(three.toString()).createOrReplaceTempView("cols");
    reader("mode", "rows").load(three.toString()).createOrReplaceTempView("rows_t");
    reader("splitBytes", String.valueOf(2 * batchBytes))
        .load(three.resolve("part-0.arrow").toString())
        .createOrReplaceTempView("small");
    List<String> queries =
        List.of(
            "SELECT * FROM %s WHERE b < 3 OR d IS NULL ORDER BY a",
            "SELECT b, count(*), sum(a), max(d), sum(size(e)) FROM %s GROUP BY b ORDER BY b",
            "SELECT x.a, x.d, y.c, y.e FROM %s x JOIN small y ON x.a = y.a + 5000 ORDER BY x.a",
            "SELECT d, count(*) FROM %s GROUP BY d ORDER BY d LIMIT 20",
            "SELECT e, count(*) FROM %s GROUP BY e ORDER BY count(*) DESC, e[0] LIMIT 10");
    for (String query : queries) {
      String columnar = String.format(query, "cols");
      spark.conf().set(RowbridgeConf.ENABLED, "true");
      List<String> withRowbridge = strings(spark.sql(columnar));
      spark.conf().set(RowbridgeConf.ENABLED, "false");
      List<String> withSpark = strings(spark.sql(columnar));
      spark.conf().set(RowbridgeConf.ENABLED, "true");
      List<String> rowMode = strings(spark.sql(String.format(query, "rows_t")));
      assertFalse(withSpark.isEmpty(), query);
      assertEquals(withSpark, withRowbridge, "rowbridge's conversion: " + query);
      assertEquals(withSpark, rowMode, "the row mode: " + query);
    }
  }

  @Test
  void rowModeNeedsNoProjection() {
    Dataset<Row> frame = reader("mode", "rows").load(three.toString()).select("a", "d");
    String plan = frame.queryExecution().executedPlan().toString();
    assertFalse(plan.contains("Project"), plan);
    assertEquals(15000, frame.collectAsList().size());
    spark.conf().set(RowbridgeConf.ENABLED, "false");
    try {
      Dataset<Row> off = reader("mode", "rows").load(three.toString()).select("a", "d");
      String sparkPlan = off.queryExecution().executedPlan().toString();
      assertTrue(sparkPlan.contains("Project"), "Spark's own plan: " + sparkPlan);
      assertEquals(strings(frame), strings(off));
    } finally {
      spark.conf().set(RowbridgeConf.ENABLED, "true");
    }
  }

  @Test
  void metricsInTheScanNode() {
    Dataset<Row> frame =
        reader("splitBytes", String.valueOf(4 * batchBytes)).load(three.toString());
    frame.collectAsList();
    var metrics = scanOf(frame).metrics();
    assertEquals(15000L, metrics.apply(ScanMetrics.ROWS).value());
    assertEquals(15L, metrics.apply(ScanMetrics.BATCHES).value());
    assertTrue(
        metrics.apply(ScanMetrics.BYTES).value() >= 15 * batchBytes,
        "bytes " + metrics.apply(ScanMetrics.BYTES).value());
    assertTrue(metrics.apply(ScanMetrics.DECODE).value() > 0);
    assertNotNull(metrics.apply(ScanMetrics.WAIT));
    Dataset<Row> rows = reader("mode", "rows").load(three.toString());
    rows.collectAsList();
    assertEquals(15000L, scanOf(rows).metrics().apply(ScanMetrics.ROWS).value());
    assertEquals(15L, scanOf(rows).metrics().apply(ScanMetrics.BATCHES).value());
  }

  @Test
  void corruptAndTruncatedFilesNameTheFile() throws IOException {
    Path bad = Files.createDirectories(dir.resolve("bad"));
    byte[] good = Files.readAllBytes(three.resolve("part-0.arrow"));
    // Truncated: no footer, found when the scan is planned.
    Path truncated = bad.resolve("truncated.arrow");
    Files.write(truncated, Arrays.copyOf(good, good.length / 2));
    Exception e =
        assertThrows(Exception.class, () -> reader().load(truncated.toString()).collectAsList());
    assertTrue(messages(e).contains(truncated.toString()), messages(e));
    // A batch body overwritten with 0xff (offsets of -1): the task fails, naming file and batch.
    Path corrupt = bad.resolve("corrupt.arrow");
    Files.write(corrupt, good);
    ArrowBlock block = blocks(corrupt).get(3);
    try (FileChannel channel = FileChannel.open(corrupt, StandardOpenOption.WRITE)) {
      byte[] garbage = new byte[(int) block.getBodyLength()];
      Arrays.fill(garbage, (byte) 0xff);
      channel.write(ByteBuffer.wrap(garbage), block.getOffset() + block.getMetadataLength());
    }
    for (String mode : List.of("auto", "rows")) {
      Exception failure =
          assertThrows(
              Exception.class, () -> reader("mode", mode).load(corrupt.toString()).collectAsList());
      String text = messages(failure);
      assertTrue(text.contains("cannot read " + corrupt + " (batches 0-9)"), text);
      assertTrue(text.contains("batch 3"), text);
    }
    assertEquals(15000L, reader().load(three.toString()).count(), "the executor still works");
    assertEquals(0, StreamTask.OPEN_STREAMS.get(), "every stream closed");
  }

  /** Set by the test, read by the UDF on the executor (local mode: the same JVM). */
  private static volatile CountDownLatch paused;

  @Test
  void aCancelledJobClosesItsStreams() throws Exception {
    Path big = Files.createDirectories(dir.resolve("big"));
    TestFiles.write(big.resolve("part-0.arrow"), 0, 400, 1000);
    TestFiles.write(big.resolve("part-1.arrow"), 400000, 400, 1000);
    // The UDF stops at row 1500 of each task until the task is killed.
    spark
        .udf()
        .register(
            "pause",
            (UDF1<Long, Boolean>)
                id -> {
                  if (id % 400000 == 1500) {
                    paused.countDown();
                    while (!TaskContext.get().isInterrupted()) {
                      Thread.sleep(5);
                    }
                  }
                  return true;
                },
            DataTypes.BooleanType);
    for (String mode : List.of("auto", "rows")) {
      paused = new CountDownLatch(2);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      Thread job =
          new Thread(
              () -> {
                spark.sparkContext().setJobGroup("rowbridge-cancel", "cancel test", false);
                try {
                  reader("mode", mode, "prefetch", "2")
                      .load(big.toString())
                      .where("pause(a)")
                      .collectAsList();
                } catch (Throwable t) {
                  failure.set(t);
                }
              });
      job.start();
      assertTrue(paused.await(120, TimeUnit.SECONDS), "both tasks reached the pause");
      assertEquals(2, StreamTask.OPEN_STREAMS.get(), mode);
      spark.sparkContext().cancelJobGroup("rowbridge-cancel");
      job.join(TimeUnit.SECONDS.toMillis(120));
      assertFalse(job.isAlive(), "the job ended");
      assertNotNull(failure.get(), "the job was cancelled");
      assertTrue(messages(failure.get()).contains("cancel"), messages(failure.get()));
      // Tasks end (and close their streams) shortly after the job reports its cancellation.
      for (int i = 0; i < 1200 && StreamTask.OPEN_STREAMS.get() != 0; i++) {
        Thread.sleep(50);
      }
      assertEquals(0, StreamTask.OPEN_STREAMS.get(), "the killed tasks closed their streams");
    }
    assertEquals(800000L, reader().load(big.toString()).count(), "the executor still works");
  }

  @Test
  void badOptionsAreClearErrors() {
    Exception mode =
        assertThrows(
            Exception.class, () -> reader("mode", "fast").load(three.toString()).collectAsList());
    assertTrue(messages(mode).contains("auto or rows"), messages(mode));
    Exception missing =
        assertThrows(Exception.class, () -> reader().load(dir.resolve("missing.arrow").toString()));
    assertTrue(messages(missing).contains("missing.arrow"), messages(missing));
  }
}
