package io.rowbridge.spark.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.RowbridgeException;
import io.rowbridge.spark.conf.RowbridgeConf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.memory.TaskMemoryManager;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The native memory a scan holds for a task is accounted to the task's memory manager: the row
 * mode's batches and converters, the columnar mode's batches decoded ahead; in Spark local mode
 * with a small off-heap Tungsten pool (so that the manager's limit is reachable) and
 * spark.unsafe.exceptionOnMemoryLeak (a task ending with memory still acquired fails).
 */
class ScanMemoryTest {
  /** The task's off-heap execution memory: 4 MB. */
  private static final long POOL_BYTES = 4L << 20;

  private static SparkSession spark;
  private static Path dir;

  @BeforeAll
  static void start() throws IOException {
    spark =
        SparkSession.builder()
            .master("local[1]")
            .appName("rowbridge-row-mode-memory")
            .config("spark.ui.enabled", "false")
            .config("spark.memory.offHeap.enabled", "true")
            .config("spark.memory.offHeap.size", String.valueOf(POOL_BYTES))
            .config("spark.unsafe.exceptionOnMemoryLeak", "true")
            .getOrCreate();
    dir = Files.createTempDirectory("rowbridge-row-mode-memory");
    TestFiles.write(dir.resolve("small.arrow"), 0, 20, 1000);
    // One converter's rows for 60000 rows of TestFiles' schema exceed the pool.
    TestFiles.write(dir.resolve("large.arrow"), 0, 2, 60000);
    // Compressed: each decoded batch owns its decompressed buffers, ~200 KB for 5000 rows, and
    // three 60000-row batches ahead exceed the pool.
    TestFiles.writeCompressed(dir.resolve("small.zstd.arrow"), 0, 12, 5000);
    TestFiles.writeCompressed(dir.resolve("large.zstd.arrow"), 0, 6, 60000);
  }

  @AfterAll
  static void stop() throws IOException {
    if (spark != null) {
      spark.stop();
    }
    TestFiles.deleteTree(dir);
  }

  /**
   * Reads the rows of the task's partition, sampling the task's acquired memory at each row:
   * returns [rows, the most acquired during the read, acquired once the read ended]. Every {@code
   * pauseEvery} rows (0: never) it waits a moment, so that the scan's workers fill their window
   * ahead of the task.
   */
  private static final class Sampler implements MapPartitionsFunction<Row, Long> {
    private final int pauseEvery;

    Sampler() {
      this(0);
    }

    Sampler(int pauseEvery) {
      this.pauseEvery = pauseEvery;
    }

    @Override
    public Iterator<Long> call(Iterator<Row> input) throws InterruptedException {
      TaskMemoryManager manager = TaskContext.get().taskMemoryManager();
      long rows = 0;
      long most = 0;
      while (input.hasNext()) {
        input.next();
        rows++;
        most = Math.max(most, manager.getMemoryConsumptionForThisTask());
        if (pauseEvery > 0 && rows % pauseEvery == 0) {
          Thread.sleep(100);
        }
      }
      long after = manager.getMemoryConsumptionForThisTask();
      return List.of(rows, most, after).iterator();
    }
  }

  /**
   * Expects a Sampler's [rows, most acquired, acquired after] of one partition: {@code rows} rows,
   * at least {@code least} bytes acquired while reading but less than the pool, none after.
   */
  private static void assertHeldWhileReadingOnly(List<Long> sampled, long rows, long least) {
    assertEquals(3, sampled.size(), "one partition: " + sampled);
    assertEquals(rows, sampled.get(0));
    assertTrue(sampled.get(1) >= least, "acquired while reading: " + sampled);
    assertTrue(sampled.get(1) < POOL_BYTES, "acquired while reading: " + sampled);
    assertEquals(0L, sampled.get(2), "acquired after the read: " + sampled);
  }

  /**
   * Expects {@code failure} to be a refusal of the task memory manager (a RowbridgeException with
   * ENOMEM among its causes) whose messages name each of {@code names}.
   */
  private static void assertRefused(Throwable failure, String... names) {
    RowbridgeException refused = null;
    StringBuilder messages = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      messages.append(t.getMessage()).append('\n');
      if (refused == null && t instanceof RowbridgeException r) {
        refused = r;
      }
    }
    String text = messages.toString();
    assertNotNull(refused, "a RowbridgeException among the causes:\n" + text);
    assertEquals(RowbridgeException.ENOMEM, refused.code(), text);
    assertTrue(text.contains("the task memory manager granted"), text);
    for (String name : names) {
      assertTrue(text.contains(name), name + " in:\n" + text);
    }
  }

  @Test
  void aRowModeReadHoldsTaskMemoryWhileItReadsAndNoneAfter() {
    List<Long> sampled =
        spark
            .read()
            .format("rowbridge")
            .option("mode", "rows")
            .option("prefetch", "2")
            .option("inFlight", "2")
            .load(dir.resolve("small.arrow").toString())
            .mapPartitions(new Sampler(), Encoders.LONG())
            .collectAsList();
    // At least the rows of the batch in hand: 1000 rows of 48 fixed bytes (bitset, 5 slots); at
    // most K + W + 1 converters (uncompressed: the batches own nothing), well under the pool.
    assertHeldWhileReadingOnly(sampled, 20000, 1000L * 48);
  }

  @Test
  void aRefusedReadFailsNamingTheSettingsToLower() {
    Exception failure =
        assertThrows(
            Exception.class,
            () ->
                spark
                    .read()
                    .format("rowbridge")
                    .option("mode", "rows")
                    .load(dir.resolve("large.arrow").toString())
                    .collectAsList());
    assertRefused(
        failure,
        "large.arrow",
        "prefetch (now 1) or inFlight (now 2) or " + RowbridgeConf.MAX_CHUNK_BYTES);
    // The task released what it held (no leak: the session fails tasks that leak), and the
    // executor still reads.
    assertEquals(
        20000L,
        spark
            .read()
            .format("rowbridge")
            .option("mode", "rows")
            .load(dir.resolve("small.arrow").toString())
            .count());
  }

  @Test
  void aColumnarReadHoldsTaskMemoryForTheBatchesAheadAndNoneAfter() {
    // The workers decode up to K + W = 3 batches ahead while the task pauses after each batch;
    // every batch is read when the task asks for the next, so the count is sampled with them.
    List<Long> sampled =
        spark
            .read()
            .format("rowbridge")
            .option("prefetch", "2")
            .option("inFlight", "1")
            .load(dir.resolve("small.zstd.arrow").toString())
            .mapPartitions(new Sampler(5000), Encoders.LONG())
            .collectAsList();
    // At least one decoded batch ahead: 5000 rows of column a alone take 40 KB.
    assertHeldWhileReadingOnly(sampled, 60000, 5000L * 8);
  }

  @Test
  void aRefusedColumnarReadFailsNamingTheSettingsToLower() {
    Exception failure =
        assertThrows(
            Exception.class,
            () ->
                spark
                    .read()
                    .format("rowbridge")
                    .option("prefetch", "2")
                    .option("inFlight", "1")
                    .load(dir.resolve("large.zstd.arrow").toString())
                    .mapPartitions(new Sampler(60000), Encoders.LONG())
                    .collectAsList());
    assertRefused(
        failure,
        "large.zstd.arrow",
        "the columnar scan's native batches decoded ahead",
        "prefetch (now 2) or inFlight (now 1)");
    // Nothing leaked (the session fails tasks that leak), and the executor still reads.
    assertEquals(
        60000L,
        spark.read().format("rowbridge").load(dir.resolve("small.zstd.arrow").toString()).count());
  }
}
