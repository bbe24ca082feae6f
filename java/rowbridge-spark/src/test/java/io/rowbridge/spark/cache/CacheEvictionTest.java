package io.rowbridge.spark.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.spark.ArrowCachedBatchSerializer;
import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.SortedAnswer;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.columnar.InMemoryRelation$;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.storage.RDDInfo;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;

/**
 * The Arrow cache under memory pressure: with about 29 MiB of unified memory, a second cached frame
 * evicts the first one's blocks to disk (MEMORY_AND_DISK), and both read back with the answers of
 * the uncached data; a MEMORY_ONLY frame that does not fit is recomputed, as Spark does.
 */
class CacheEvictionTest {
  private static final long ROWS = 60000;
  private static final String QUERY =
      "SELECT id, c_string, c_dec38, c_nested FROM %s WHERE id %% 97 = 1 OR c_int IS NULL";

  @Test
  void evictedBlocksAreReadBackFromDisk() {
    InMemoryRelation$.MODULE$.clearSerializer();
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("rowbridge-cache-eviction-test")
            .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
            .config("spark.sql.cache.serializer", ArrowCachedBatchSerializer.class.getName())
            .config("spark.ui.enabled", "false")
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.testing.memory", String.valueOf(48L << 20))
            .config("spark.testing.reservedMemory", "0")
            .config("spark.memory.fraction", "0.6")
            .config("spark.memory.storageFraction", "0.5")
            .config("spark.rowbridge.cache.compression", "none")
            .getOrCreate();
    try {
      Dataset<Row> first = CacheData.rows(spark, ROWS, 4);
      Dataset<Row> second = CacheData.rows(spark, ROWS, 4).selectExpr("*", "id * 2 AS twice");
      first.createOrReplaceTempView("first");
      second.createOrReplaceTempView("second");
      List<String> firstAnswer = SortedAnswer.of(spark.sql(String.format(QUERY, "first")));
      List<String> secondAnswer = SortedAnswer.of(spark.sql(String.format(QUERY, "second")));

      first.persist(StorageLevel.MEMORY_AND_DISK());
      assertEquals(ROWS, first.count());
      second.persist(StorageLevel.MEMORY_AND_DISK());
      assertEquals(ROWS, second.count());
      long onDisk = 0;
      long total = 0;
      for (RDDInfo info : spark.sparkContext().getRDDStorageInfo()) {
        onDisk += info.diskSize();
        total += info.memSize() + info.diskSize();
        assertEquals(info.numPartitions(), info.numCachedPartitions(), info.toString());
      }
      assertTrue(onDisk > 0, "blocks went to disk: " + onDisk + " of " + total + " bytes");
      assertEquals(firstAnswer, SortedAnswer.of(spark.sql(String.format(QUERY, "first"))));
      assertEquals(secondAnswer, SortedAnswer.of(spark.sql(String.format(QUERY, "second"))));
      first.unpersist(true);
      second.unpersist(true);

      Dataset<Row> memoryOnly = CacheData.rows(spark, ROWS * 2, 2);
      memoryOnly.persist(StorageLevel.MEMORY_ONLY());
      memoryOnly.createOrReplaceTempView("m");
      assertEquals(ROWS * 2, memoryOnly.count());
      assertEquals(
          SortedAnswer.of(
              CacheData.rows(spark, ROWS * 2, 2)
                  .where("id % 97 = 1 OR c_int IS NULL")
                  .select("id", "c_string", "c_dec38", "c_nested")),
          SortedAnswer.of(spark.sql(String.format(QUERY, "m"))));
      memoryOnly.unpersist(true);
      assertEquals(0, spark.sparkContext().getRDDStorageInfo().length);
      assertEquals(0, ArrowUtils.rootAllocator().getAllocatedMemory());
    } finally {
      spark.stop();
      InMemoryRelation$.MODULE$.clearSerializer();
    }
  }
}
