package io.rowbridge.spark.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.source.ClusterProbe;
import io.rowbridge.spark.source.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.ExecutorLostFailure;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * An executor JVM killed mid-job (part of make test-long): in {@code local-cluster[2,1,1024]}, one
 * executor process is killed while both run scan tasks. Spark reruns its tasks on the survivor (and
 * on the executor the Worker starts in its place); the answer must be the one local mode gives, and
 * afterwards every executor must report no open stream, no native bytes held for tasks and no
 * native worker at work.
 */
class ExecutorLossTest {
  private static final String QUERY =
      "SELECT count(*), sum(a), sum(b), count(d) FROM big WHERE slow(a)";

  @Test
  void tasksOfAKilledExecutorRunAgainAndLeaveNothingBehind() throws Exception {
    assertTrue(Boolean.getBoolean("spark.testing"), "the suite's Surefire execution sets it");
    Path dir = Files.createTempDirectory("rowbridge-executor-loss-test");
    try {
      TestData.writeLarge(dir.resolve("big"), 4, 60);
      SparkSession spark = session("local[2]", dir);
      List<Row> local = spark.sql(QUERY).collectAsList();
      spark.stop();
      spark = session("local-cluster[2,1,1024]", dir);
      try {
        killOneExecutorMidJob(spark, local);
      } finally {
        spark.stop();
      }
    } finally {
      TestData.deleteTree(dir);
    }
  }

  private static void killOneExecutorMidJob(SparkSession spark, List<Row> local) throws Exception {
    Set<String> executors = new HashSet<>(ClusterProbe.executorProcesses(spark));
    assertEquals(2, executors.size(), executors.toString());
    CountDownLatch started = new CountDownLatch(2);
    AtomicInteger lostTasks = new AtomicInteger();
    SparkListener listener =
        new SparkListener() {
          @Override
          public void onTaskStart(SparkListenerTaskStart taskStart) {
            started.countDown();
          }

          @Override
          public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
            if (taskEnd.reason() instanceof ExecutorLostFailure) {
              lostTasks.incrementAndGet();
            }
          }
        };
    spark.sparkContext().addSparkListener(listener);
    AtomicReference<List<Row>> answer = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread job =
        new Thread(
            () -> {
              try {
                answer.set(spark.sql(QUERY).collectAsList());
              } catch (Throwable t) {
                failure.set(t);
              }
            });
    job.start();
    try {
      assertTrue(started.await(120, TimeUnit.SECONDS), "tasks started on both executors");
      Thread.sleep(2000); // mid-scan: each task sleeps in the UDF between rows
      long victim = Long.parseLong(executors.iterator().next());
      ProcessHandle process = ProcessHandle.of(victim).orElseThrow();
      assertTrue(process.destroyForcibly(), "killed executor " + victim);
      process.onExit().get(60, TimeUnit.SECONDS);
      job.join(TimeUnit.MINUTES.toMillis(5));
    } finally {
      spark.sparkContext().removeSparkListener(listener);
    }
    assertFalse(job.isAlive(), "the job ended");
    assertNull(failure.get(), "the job survived the executor's loss");
    assertEquals(local, answer.get());
    assertTrue(lostTasks.get() > 0, "tasks of the killed executor ran again");
    List<String> states = new ArrayList<>();
    for (int attempt = 0; attempt < 100; attempt++) {
      states = ClusterProbe.nativeState(spark);
      if (states.stream().allMatch("streams=0 bytes=0 workers=0"::equals)) {
        break;
      }
      Thread.sleep(100);
    }
    for (String state : states) {
      assertEquals("streams=0 bytes=0 workers=0", state, states.toString());
    }
  }

  private static SparkSession session(String master, Path dir) {
    SparkSession spark =
        SparkSession.builder()
            .master(master)
            .appName("rowbridge-executor-loss-test")
            .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
            .config("spark.ui.enabled", "false")
            .config("spark.executor.memory", "768m")
            .config(
                "spark.executor.extraJavaOptions", System.getProperty("rowbridge.test.opens", ""))
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.task.maxFailures", "4")
            .config("spark.rowbridge.scan.splitBytes", "1m")
            .getOrCreate();
    spark
        .udf()
        .register(
            "slow",
            (UDF1<Long, Boolean>)
                id -> {
                  if (id % 20 == 0) {
                    Thread.sleep(1);
                  }
                  return true;
                },
            DataTypes.BooleanType);
    spark
        .read()
        .format("rowbridge")
        .load(dir.resolve("big").toString())
        .createOrReplaceTempView("big");
    return spark;
  }
}
