package io.rowbridge.spark.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.SortedAnswer;
import io.rowbridge.spark.source.ClusterProbe;
import io.rowbridge.spark.source.PyarrowFiles;
import io.rowbridge.spark.source.TestData;
import io.rowbridge.spark.storage.LocalS3;
import io.rowbridge.spark.storage.MiniHdfs;
import io.rowbridge.spark.storage.StorageSessions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
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
 * format("rowbridge") over HDFS (a mini cluster in this JVM) and S3 (S3Proxy through s3a://) with
 * executors in other JVMs ({@code local-cluster[2,1,1024]}, as {@link LocalClusterTest}): the
 * answers of local mode over the local copies (Arrow Java's and pyarrow's files); a server killed
 * while tasks read fails them with an error naming the file and the bytes, and the executors then
 * read correctly once it is back; a file deleted while its tasks read is such an error too. In make
 * test-long.
 */
class StorageClusterTest {
  private static final int SLOW_BATCHES = 30;
  private static Path dir;
  private static MiniHdfs hdfs;
  private static LocalS3 s3;
  private static SparkSession spark;
  private static List<String> localRead;
  private static List<String> localPruned;
  private static final Map<String, List<String>> localPyarrow = new TreeMap<>();

  @BeforeAll
  static void start() throws Exception {
    assertTrue(Boolean.getBoolean("spark.testing"), "the suite's Surefire execution sets it");
    dir = Files.createTempDirectory("rowbridge-storage-cluster-test");
    TestData.writePartitioned(dir.resolve("parted"));
    TestData.writeLarge(dir.resolve("large"), 2, SLOW_BATCHES);
    PyarrowFiles.write(Files.createDirectories(dir.resolve("pyarrow")));
    hdfs = MiniHdfs.start();
    s3 = LocalS3.launch();
    for (String tree : new String[] {"parted", "pyarrow"}) {
      hdfs.fileSystem()
          .copyFromLocalFile(
              false,
              true,
              new org.apache.hadoop.fs.Path(dir.resolve(tree).toUri()),
              new org.apache.hadoop.fs.Path(hdfs.uri() + "/" + tree));
    }
    try (var files = Files.walk(dir)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        s3.put(file, dir.relativize(file).toString());
      }
    }
    spark = session("local[2]");
    localRead = SortedAnswer.of(spark.read().format("rowbridge").load(local("parted")));
    localPruned =
        SortedAnswer.of(
            spark
                .read()
                .format("rowbridge")
                .load(local("parted"))
                .where("kind = 'a'")
                .select("a", "d", "day"));
    for (String name : pyarrowInputs()) {
      localPyarrow.put(
          name, SortedAnswer.of(spark.read().format("rowbridge").load(local("pyarrow/" + name))));
    }
    spark.stop();
    spark = session("local-cluster[2,1,1024]");
  }

  private static SparkSession session(String master) {
    return StorageSessions.builder(master, "rowbridge-storage-cluster-test", hdfs, s3)
        .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
        .config("spark.executor.memory", "768m")
        .config("spark.executor.extraJavaOptions", System.getProperty("rowbridge.test.opens", ""))
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.task.maxFailures", "1")
        .getOrCreate();
  }

  @AfterAll
  static void stop() throws IOException {
    try {
      StorageSessions.stopAll(spark, s3, hdfs);
    } finally {
      TestData.deleteTree(dir);
    }
  }

  private static String local(String relative) {
    return dir.resolve(relative).toString();
  }

  @Test
  void hdfsAndS3GiveLocalModesAnswers() {
    for (String root : new String[] {hdfs.uri() + "/parted", s3.uri() + "parted"}) {
      for (String mode : new String[] {"auto", "rows"}) {
        assertEquals(
            localRead,
            SortedAnswer.of(spark.read().format("rowbridge").option("mode", mode).load(root)),
            mode + " " + root);
        assertEquals(
            localPruned,
            SortedAnswer.of(
                spark
                    .read()
                    .format("rowbridge")
                    .option("mode", mode)
                    .load(root)
                    .where("kind = 'a'")
                    .select("a", "d", "day")),
            mode + " pruned " + root);
      }
    }
    for (Map.Entry<String, List<String>> input : localPyarrow.entrySet()) {
      for (String root : new String[] {hdfs.uri() + "/pyarrow/", s3.uri() + "pyarrow/"}) {
        assertEquals(
            input.getValue(),
            SortedAnswer.of(spark.read().format("rowbridge").load(root + input.getKey())),
            root + input.getKey());
      }
    }
    List<String> executors = ClusterProbe.executorProcesses(spark);
    assertEquals(2, executors.stream().distinct().count(), "two executor JVMs: " + executors);
  }

  private static List<String> pyarrowInputs() throws IOException {
    try (var files = Files.list(dir.resolve("pyarrow"))) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> !n.endsWith(".readable.arrow"))
          .sorted()
          .toList();
    }
  }

  /**
   * Runs a slow read of {@code files} large files (a quarter second per batch, one task each) and
   * calls {@code midRead} once every task has started; returns the job's failure.
   */
  private static Throwable slowReadFailure(String path, int files, Runnable midRead)
      throws Exception {
    spark
        .udf()
        .register(
            "slowBatch",
            (UDF1<Long, Boolean>)
                id -> {
                  if (id % 1000 == 0) {
                    Thread.sleep(250);
                  }
                  return true;
                },
            DataTypes.BooleanType);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch started = new CountDownLatch(files);
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
              try {
                spark
                    .read()
                    .format("rowbridge")
                    .option("prefetch", "0")
                    .option("inFlight", "1")
                    .load(path)
                    .where("slowBatch(a)")
                    .count();
              } catch (Throwable t) {
                failure.set(t);
              }
            });
    job.start();
    try {
      assertTrue(started.await(120, TimeUnit.SECONDS), "tasks started");
      Thread.sleep(3000); // mid-scan: a few batches read, most to go
      midRead.run();
      job.join(TimeUnit.SECONDS.toMillis(120));
    } finally {
      spark.sparkContext().removeSparkListener(listener);
    }
    assertFalse(job.isAlive(), "the job ended");
    assertNotNull(failure.get(), "the read failed");
    return failure.get();
  }

  @Test
  void aServerKilledMidReadFailsTheTaskNamingTheFileAndBytes() throws Exception {
    String path = s3.uri() + "large";
    Throwable failure = slowReadFailure(path, 2, () -> s3.stop());
    String text = StorageSessions.messages(failure);
    assertTrue(
        text.contains("rowbridge: cannot read " + path + "/part-") && text.contains("(bytes "),
        text);
    s3.start();
    assertEquals(
        localRead,
        SortedAnswer.of(spark.read().format("rowbridge").load(s3.uri() + "parted")),
        "the executors read again once the server is back");
  }

  @Test
  void aFileDeletedMidReadIsANamedError() throws Exception {
    TestData.writeLarge(dir.resolve("doomed"), 1, SLOW_BATCHES);
    org.apache.hadoop.fs.Path doomed =
        s3.put(dir.resolve("doomed/part-0.arrow"), "doomed/part-0.arrow");
    Throwable failure =
        slowReadFailure(
            doomed.toString(),
            1,
            () -> {
              try {
                s3.fileSystem().delete(doomed, false);
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    String text = StorageSessions.messages(failure);
    assertTrue(text.contains("rowbridge: cannot read " + doomed + " (bytes "), text);
  }
}
