package io.rowbridge.spark.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.source.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.TaskContext;
import org.apache.spark.deploy.master.Master;
import org.apache.spark.deploy.worker.Worker;
import org.apache.spark.rpc.RpcEnv;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.Option;
import scala.Tuple3;

/**
 * {@code df.write.format("rowbridge")} with executors in other JVMs and speculation on: one task's
 * first attempt is slow, Spark launches a speculative copy, the copy commits and the slow attempt
 * is killed mid-write. The output must hold every row exactly once, in one file per task.
 *
 * <p>Spark never speculates in local mode, and never runs a speculative copy on the host of the
 * attempt it copies, so {@code local-cluster} (every worker on one host) cannot speculate either.
 * The suite starts a standalone Master and two Workers in this JVM, as local-cluster does, but on
 * two loopback addresses (127.0.0.2 and 127.0.0.3), which Spark takes for two hosts. Under {@code
 * spark.testing} (set by this suite's Surefire execution) the Workers fork executors with this
 * JVM's class path.
 */
class WriteClusterTest {
  private static final int PARTITIONS = 4;
  private static final int ROWS = 4000;
  private static final List<RpcEnv> DAEMONS = new ArrayList<>();
  private static Path dir;
  private static SparkSession spark;

  @BeforeAll
  static void start() throws IOException {
    assertTrue(Boolean.getBoolean("spark.testing"), "the suite's Surefire execution sets it");
    dir = Files.createTempDirectory("rowbridge-write-cluster-test");
    SparkConf daemonConf = new SparkConf(false).set("spark.ui.enabled", "false");
    Tuple3<RpcEnv, Object, Option<Object>> master =
        Master.startRpcEnvAndEndpoint("127.0.0.1", 0, 0, daemonConf);
    DAEMONS.add(master._1());
    String url = "spark://127.0.0.1:" + master._1().address().port(); // _2: the web UI's
    for (int i = 0; i < 2; i++) {
      Path work = Files.createDirectories(dir.resolve("worker-" + i));
      DAEMONS.add(
          Worker.startRpcEnvAndEndpoint(
              "127.0.0." + (i + 2),
              0,
              0,
              1,
              1024,
              new String[] {url},
              work.toString(),
              Option.apply((Object) (i + 1)),
              new SparkConf(false).set("spark.ui.enabled", "false"),
              Option.empty()));
    }
    spark =
        SparkSession.builder()
            .master(url)
            .appName("rowbridge-write-cluster-test")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
            .config("spark.ui.enabled", "false")
            .config("spark.executor.memory", "768m")
            .config(
                "spark.executor.extraJavaOptions", System.getProperty("rowbridge.test.opens", ""))
            .config("spark.speculation", "true")
            .config("spark.speculation.interval", "100ms")
            .config("spark.speculation.quantile", "0.5")
            .config("spark.speculation.multiplier", "2")
            .config("spark.speculation.minTaskRuntime", "200ms")
            // Speculate on run time alone: the efficiency check compares input rates, which a
            // sleeping UDF over range() does not lower.
            .config("spark.speculation.efficiency.enabled", "false")
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate();
    // Both executors registered before the first job, so that the copy has a host to run on.
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (spark.sparkContext().getExecutorMemoryStatus().size() < 3) {
      assertTrue(System.nanoTime() < deadline, "the two executors did not register in 60 s");
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    // The first attempt of the last task sleeps on each row: slow enough to be speculated.
    spark
        .udf()
        .register(
            "slow_first_attempt",
            (UDF1<Long, Long>)
                id -> {
                  TaskContext task = TaskContext.get();
                  if (task.attemptNumber() == 0 && task.partitionId() == PARTITIONS - 1) {
                    Thread.sleep(20);
                  }
                  return id;
                },
            DataTypes.LongType);
  }

  @AfterAll
  static void stop() throws IOException {
    if (spark != null) {
      spark.stop();
    }
    for (int i = DAEMONS.size() - 1; i >= 0; i--) { // the Workers, then the Master
      DAEMONS.get(i).shutdown();
      DAEMONS.get(i).awaitTermination();
    }
    TestData.deleteTree(dir);
  }

  @Test
  void aSpeculativeDuplicateTaskDoesNotDuplicateRows() throws IOException, InterruptedException {
    AtomicInteger speculative = new AtomicInteger();
    AtomicInteger notSucceeded = new AtomicInteger();
    SparkListener listener =
        new SparkListener() {
          @Override
          public void onTaskStart(SparkListenerTaskStart start) {
            if (start.taskInfo().speculative()) {
              speculative.incrementAndGet();
            }
          }

          @Override
          public void onTaskEnd(SparkListenerTaskEnd end) {
            if (!end.taskInfo().successful()) {
              notSucceeded.incrementAndGet();
            }
          }
        };
    spark.sparkContext().addSparkListener(listener);
    Path out = dir.resolve("speculated");
    try {
      spark
          .sql(
              "SELECT slow_first_attempt(id) AS id, CONCAT('value-', id) AS s FROM range(0, "
                  + ROWS
                  + ", 1, "
                  + PARTITIONS
                  + ")")
          .write()
          .format("rowbridge")
          .option("maxRowsPerBatch", "50")
          .save(out.toString());
      // The slow attempt is killed once its copy committed: its end arrives after the job's.
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (notSucceeded.get() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
    } finally {
      spark.sparkContext().removeSparkListener(listener);
    }
    assertTrue(speculative.get() >= 1, "a speculative attempt ran");
    assertTrue(notSucceeded.get() >= 1, "the slow attempt was killed or lost the commit");
    try (Stream<Path> files = Files.walk(out)) {
      List<Path> visible =
          files
              .filter(Files::isRegularFile)
              .filter(
                  f ->
                      !out.relativize(f).toString().startsWith("_")
                          && !out.relativize(f).toString().startsWith("."))
              .filter(f -> f.toString().endsWith(".arrow"))
              .toList();
      assertEquals(PARTITIONS, visible.size(), visible.toString());
    }
    Dataset<Row> back = spark.read().format("rowbridge").load(out.toString());
    assertEquals(ROWS, back.count());
    assertEquals(ROWS, back.select("id").distinct().count());
  }
}
