package io.rowbridge.spark.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.RowbridgeException;
import io.rowbridge.spark.RowbridgeConf;

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
 * The row mode's native batches and row buffers are accounted to the task's memory manager:
 * in Spark local mode with a small off-heap Tungsten pool (so that the manager's limit is
 * reachable) and spark.unsafe.exceptionOnMemoryLeak (a task ending with memory still acquired
 * fails).
 */
class RowModeMemoryTest {
  /** The task's off-heap execution memory: 4 MB. */
  private static final long POOL_BYTES = 4L << 20;
  private static SparkSession spark;
  private static Path dir;

  @BeforeAll
  static void start() throws IOException {
    spark = SparkSession.builder().master("local[1]").appName("rowbridge-row-mode-memory")
        .config("spark.ui.enabled", "false")
        .config("spark.memory.offHeap.enabled", "true")
        .config("spark.memory.offHeap.size", String.valueOf(POOL_BYTES))
        .config("spark.unsafe.exceptionOnMemoryLeak", "true")
        .getOrCreate();
    dir = Files.createTempDirectory("rowbridge-row-mode-memory");
    TestFiles.write(dir.resolve("small.arrow"), 0, 20, 1000);
    // One converter's rows for 60000 rows of TestFiles' schema exceed the pool.
    TestFiles.write(dir.resolve("large.arrow"), 0, 2, 60000);
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
   * returns [rows, the most acquired during the read, acquired once the read ended].
   */
  private static final class Sampler implements MapPartitionsFunction<Row, Long> {
    @Override
    public Iterator<Long> call(Iterator<Row> input) {
      TaskMemoryManager manager = TaskContext.get().taskMemoryManager();
      long rows = 0;
      long most = 0;
      while (input.hasNext()) {
        input.next();
        rows++;
        most = Math.max(most, manager.getMemoryConsumptionForThisTask());
      }
      long after = manager.getMemoryConsumptionForThisTask();
      return List.of(rows, most, after).iterator();
    }
  }

  @Test
  void aRowModeReadHoldsTaskMemoryWhileItReadsAndNoneAfter() {
    List<Long> sampled = spark.read().format("rowbridge").option("mode", "rows")
        .option("prefetch", "2").option("inFlight", "2")
        .load(dir.resolve("small.arrow").toString())
        .mapPartitions(new Sampler(), Encoders.LONG()).collectAsList();
    assertEquals(3, sampled.size(), "one partition: " + sampled);
    assertEquals(20000L, sampled.get(0));
    // At least the rows of the batch in hand: 1000 rows of 48 fixed bytes (bitset, 5 slots).
    assertTrue(sampled.get(1) >= 1000L * 48, "acquired while reading: " + sampled);
    // At most K + W + 1 converters' rows and offsets (uncompressed: the batches own nothing),
    // well under the 4 MB pool.
    assertTrue(sampled.get(1) < POOL_BYTES, "acquired while reading: " + sampled);
    assertEquals(0L, sampled.get(2), "acquired after the read: " + sampled);
  }

  @Test
  void aRefusedReadFailsNamingTheSettingsToLower() {
    Exception failure = assertThrows(Exception.class, () -> spark.read().format("rowbridge")
        .option("mode", "rows").load(dir.resolve("large.arrow").toString()).collectAsList());
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
    assertTrue(text.contains("large.arrow"), text);
    assertTrue(text.contains("the task memory manager granted"), text);
    assertTrue(text.contains("prefetch (now 1) or inFlight (now 2) or "
        + RowbridgeConf.MAX_CHUNK_BYTES), text);
    // The task released what it held (no leak: the session fails tasks that leak), and the
    // executor still reads.
    assertEquals(20000L, spark.read().format("rowbridge").option("mode", "rows")
        .load(dir.resolve("small.arrow").toString()).count());
  }
}
