package io.rowbridge.spark.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.SortedAnswer;
import io.rowbridge.spark.source.ClusterProbe;
import io.rowbridge.spark.source.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * format("rowbridge") and rowbridge's transition with executors in other JVMs: Spark's {@code
 * local-cluster[2,1,1024]} mode, whose Master and Workers run in this JVM and whose Workers fork
 * {@code CoarseGrainedExecutorBackend}s. Under {@code spark.testing} (set with {@code
 * SPARK_TESTING}, {@code spark.test.home} and {@code SPARK_SCALA_VERSION} by this suite's own
 * Surefire execution) the executors run with this JVM's class path. Every answer is compared with
 * local mode's, computed first in this JVM under the same setting.
 */
class LocalClusterTest {
  private static final Map<String, String> QUERIES = new LinkedHashMap<>();
  private static final Map<String, List<String>> LOCAL = new LinkedHashMap<>();
  private static Path dir;
  private static SparkSession spark;

  static {
    QUERIES.put("read", "SELECT * FROM t");
    QUERIES.put("rows", "SELECT a, d, kind FROM r WHERE a % 7 = 3");
    QUERIES.put(
        "shuffle join",
        "SELECT x.kind, count(*), sum(y.b) FROM t x JOIN t y "
            + "ON x.a = y.a + 1 GROUP BY x.kind");
    QUERIES.put("pruned", "SELECT a, day, kind FROM t WHERE kind = 'a' AND day IS NOT NULL");
  }

  @BeforeAll
  static void start() throws IOException {
    assertTrue(Boolean.getBoolean("spark.testing"), "the suite's Surefire execution sets it");
    dir = Files.createTempDirectory("rowbridge-local-cluster-test");
    TestData.writePartitioned(dir.resolve("parted"));
    spark = session("local[2]");
    for (Map.Entry<String, String> query : QUERIES.entrySet()) {
      LOCAL.put(query.getKey(), SortedAnswer.of(spark.sql(query.getValue())));
    }
    spark.stop();
    spark = session("local-cluster[2,1,1024]");
  }

  private static SparkSession session(String master) {
    SparkSession session =
        SparkSession.builder()
            .master(master)
            .appName("rowbridge-local-cluster-test")
            .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
            .config("spark.ui.enabled", "false")
            .config("spark.executor.memory", "768m")
            .config(
                "spark.executor.extraJavaOptions", System.getProperty("rowbridge.test.opens", ""))
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.sql.autoBroadcastJoinThreshold", "-1")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.task.maxFailures", "1")
            .getOrCreate();
    session
        .read()
        .format("rowbridge")
        .load(dir.resolve("parted").toString())
        .createOrReplaceTempView("t");
    session
        .read()
        .format("rowbridge")
        .option("mode", "rows")
        .load(dir.resolve("parted").toString())
        .createOrReplaceTempView("r");
    return session;
  }

  @AfterAll
  static void stop() throws IOException {
    if (spark != null) {
      spark.stop();
    }
    TestData.deleteTree(dir);
  }

  @Test
  void answersAreLocalModesWithExecutorsInOtherJvms() {
    for (Map.Entry<String, String> query : QUERIES.entrySet()) {
      List<String> rows = SortedAnswer.of(spark.sql(query.getValue()));
      assertFalse(rows.isEmpty(), query.getKey());
      assertEquals(LOCAL.get(query.getKey()), rows, query.getKey());
    }
    List<String> executors = ClusterProbe.executorProcesses(spark);
    assertEquals(2, executors.stream().distinct().count(), "two executor JVMs: " + executors);
    assertFalse(executors.contains(ClusterProbe.thisProcess()), "none of them this JVM");
  }

  @Test
  void aKilledTaskClosesItsStreamAndTheExecutorReadsOn() throws Exception {
    spark
        .udf()
        .register(
            "slow",
            (UDF1<Long, Boolean>)
                id -> {
                  Thread.sleep(2);
                  return true;
                },
            DataTypes.BooleanType);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(2);
    SparkListener listener =
        new SparkListener() {
          @Override
          public void onTaskStart(SparkListenerTaskStart taskStart) {
            started.countDown();
          }
        };
    spark.sparkContext().addSparkListener(listener);
    Thread job =
        new Thread(
            () -> {
              spark.sparkContext().setJobGroup("rowbridge-kill", "kill test", true);
              try {
                spark.sql("SELECT a FROM t WHERE slow(a)").collectAsList();
              } catch (Throwable t) {
                failure.set(t);
              }
            });
    job.start();
    try {
      assertTrue(started.await(120, TimeUnit.SECONDS), "tasks started");
      Thread.sleep(1000); // the tasks are mid-scan, inside the UDF's sleeps
      spark.sparkContext().cancelJobGroup("rowbridge-kill");
      job.join(TimeUnit.SECONDS.toMillis(120));
    } finally {
      spark.sparkContext().removeSparkListener(listener);
    }
    assertFalse(job.isAlive(), "the job ended");
    assertNotNull(failure.get(), "the job was cancelled");
    List<String> rows = SortedAnswer.of(spark.sql(QUERIES.get("read")));
    assertEquals(LOCAL.get("read"), rows, "the executors read on");
    for (int attempt = 0; attempt < 100; attempt++) {
      if (ClusterProbe.openStreams(spark).stream().allMatch(n -> n == 0)) {
        break;
      }
      Thread.sleep(100);
    }
    List<Integer> open = ClusterProbe.openStreams(spark);
    assertNotEquals(0, open.size());
    open.forEach(n -> assertEquals(0, n, "streams still open on an executor: " + open));
  }
}
