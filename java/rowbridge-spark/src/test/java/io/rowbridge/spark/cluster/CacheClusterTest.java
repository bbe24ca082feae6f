package io.rowbridge.spark.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.spark.ArrowCachedBatchSerializer;
import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.SortedAnswer;
import io.rowbridge.spark.cache.CacheData;
import io.rowbridge.spark.source.ClusterProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.columnar.InMemoryRelation$;
import org.apache.spark.storage.RDDInfo;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;

/**
 * The Arrow cache across executor JVMs ({@code local-cluster[2,1,1024]}): a frame is cached on both
 * executors, and one executor process is killed. The next queries must give the answers they gave
 * before, from the surviving blocks and the lost ones recomputed (and cached again).
 */
class CacheClusterTest {
  private static final String[] QUERIES = {
    "SELECT count(*), sum(id), count(c_string), max(c_dec18) FROM c",
    "SELECT id, c_string, c_map, c_nested FROM c WHERE id % 101 = 7",
    "SELECT c_bool, count(*), min(c_ts) FROM c GROUP BY c_bool"
  };

  @Test
  void blocksOfAKilledExecutorAreRecomputed() throws Exception {
    assertTrue(Boolean.getBoolean("spark.testing"), "the suite's Surefire execution sets it");
    InMemoryRelation$.MODULE$.clearSerializer();
    SparkSession spark =
        SparkSession.builder()
            .master("local-cluster[2,1,1024]")
            .appName("rowbridge-cache-cluster-test")
            .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
            .config("spark.sql.cache.serializer", ArrowCachedBatchSerializer.class.getName())
            .config("spark.rowbridge.cache.compression", "zstd")
            .config("spark.ui.enabled", "false")
            .config("spark.executor.memory", "768m")
            .config(
                "spark.executor.extraJavaOptions", System.getProperty("rowbridge.test.opens", ""))
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.task.maxFailures", "4")
            .getOrCreate();
    try {
      List<String> executors = ClusterProbe.executorProcesses(spark);
      assertEquals(2, executors.stream().distinct().count(), executors.toString());
      Dataset<Row> data = spark.sql("SELECT " + CacheData.COLUMNS + " FROM range(0, 20000, 1, 8)");
      List<List<String>> uncached = answers(spark, data);
      data.persist(StorageLevel.MEMORY_ONLY());
      assertEquals(20000, data.count());
      assertEquals(uncached, answers(spark, data), "cached");
      RDDInfo stored = spark.sparkContext().getRDDStorageInfo()[0];
      assertEquals(8, stored.numCachedPartitions());

      ProcessHandle victim = ProcessHandle.of(Long.parseLong(executors.get(0))).orElseThrow();
      assertTrue(victim.destroyForcibly(), "killed executor " + victim.pid());
      victim.onExit().get(60, TimeUnit.SECONDS);
      int cachedAfterLoss = 8;
      for (int attempt = 0; attempt < 300 && cachedAfterLoss == 8; attempt++) {
        Thread.sleep(100); // the driver learns of the loss and forgets that executor's blocks
        cachedAfterLoss = spark.sparkContext().getRDDStorageInfo()[0].numCachedPartitions();
      }
      assertTrue(cachedAfterLoss < 8, "blocks were lost with the executor: " + cachedAfterLoss);

      assertEquals(uncached, answers(spark, data), "after the executor's loss");
      assertEquals(8, spark.sparkContext().getRDDStorageInfo()[0].numCachedPartitions());
      assertFalse(
          ClusterProbe.executorProcesses(spark).contains(executors.get(0)),
          "the killed executor is gone");
      data.unpersist(true);
    } finally {
      spark.stop();
      InMemoryRelation$.MODULE$.clearSerializer();
    }
  }

  private static List<List<String>> answers(SparkSession spark, Dataset<Row> data) {
    data.createOrReplaceTempView("c");
    List<List<String>> answers = new ArrayList<>();
    for (String query : QUERIES) {
      answers.add(SortedAnswer.of(spark.sql(query)));
    }
    return answers;
  }
}
