package io.rowbridge.spark.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.spark.ArrowCachedBatchSerializer;
import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.SortedAnswer;
import io.rowbridge.spark.memory.TaskMemoryAccounting;
import io.rowbridge.spark.source.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.columnar.InMemoryRelation$;
import org.apache.spark.sql.execution.columnar.InMemoryTableScanExec;
import org.apache.spark.sql.types.ObjectType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.storage.RDDInfo;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Arrow cache against Spark's own: the same data cached by Spark's default serializer (in a
 * first session, the oracle) and by rowbridge's (in a second: the serializer is a static setting),
 * with the same queries. Answers must be equal, and so must the number of batches each query reads
 * after pruning. Covers every storage level, each compression, the three ways a cache is read
 * (Arrow batches through rowbridge's transition or Spark's, and rows), columnar input from Parquet
 * and from rowbridge's own scan, the sizes the block manager reports, and that nothing native is
 * held after a query or after unpersist.
 */
class ArrowCacheTest {
  private static final long ROWS = 6000;
  private static final int BATCH_ROWS = 500;
  private static final String[] CODECS = {"none", "lz4", "zstd"};

  private static Path dir;
  private static Map<String, String> queries;
  private static final Map<String, List<String>> sparkAnswers = new LinkedHashMap<>();
  private static final Map<String, Long> sparkBatchesRead = new LinkedHashMap<>();
  private static SparkSession spark;

  @BeforeAll
  static void cacheWithSparksSerializerFirst() throws Exception {
    dir = Files.createTempDirectory("rowbridge-cache-test");
    SparkSession oracle = session(false);
    try {
      queries = CacheData.queries(oracle);
      CacheData.rows(oracle, ROWS, 3).write().parquet(dir.resolve("parquet").toString());
      Dataset<Row> data = CacheData.rows(oracle, ROWS, 3);
      data.persist(StorageLevel.MEMORY_ONLY());
      data.createOrReplaceTempView("c");
      assertEquals(ROWS, data.count());
      for (Map.Entry<String, String> query : queries.entrySet()) {
        Dataset<Row> frame = oracle.sql(query.getValue());
        sparkAnswers.put(query.getKey(), SortedAnswer.of(frame));
        sparkBatchesRead.put(query.getKey(), batchesRead(frame));
      }
      data.unpersist(true);
    } finally {
      oracle.stop();
      SparkSession.clearActiveSession();
      SparkSession.clearDefaultSession();
    }
    spark = session(true);
  }

  @AfterAll
  static void stop() throws Exception {
    if (spark != null) {
      spark.stop();
    }
    InMemoryRelation$.MODULE$.clearSerializer();
    TestData.deleteTree(dir);
  }

  /**
   * A session with Spark's cache serializer or rowbridge's. Spark keeps the first serializer it
   * made for the JVM's life; it is forgotten here, so that the new session's setting is read.
   */
  static SparkSession session(boolean rowbridgeCache) {
    InMemoryRelation$.MODULE$.clearSerializer();
    SparkSession.Builder builder =
        SparkSession.builder()
            .master("local[2]")
            .appName("rowbridge-cache-test")
            .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.sql.session.timeZone", "America/Los_Angeles")
            .config("spark.sql.inMemoryColumnarStorage.batchSize", String.valueOf(BATCH_ROWS))
            .config("spark.sql.inMemoryTableScanStatistics.enable", "true")
            .config("spark.memory.offHeap.enabled", "true")
            .config("spark.memory.offHeap.size", "64m");
    if (rowbridgeCache) {
      builder.config("spark.sql.cache.serializer", ArrowCachedBatchSerializer.class.getName());
    }
    return builder.getOrCreate();
  }

  @Test
  void everyStorageLevelAndCompressionAnswersAsSparksCache() {
    StorageLevel[] levels = {
      StorageLevel.MEMORY_ONLY(),
      StorageLevel.MEMORY_AND_DISK(),
      StorageLevel.MEMORY_ONLY_SER(),
      StorageLevel.MEMORY_AND_DISK_SER(),
      StorageLevel.DISK_ONLY(),
      StorageLevel.OFF_HEAP()
    };
    for (int i = 0; i < levels.length; i++) {
      String codec = CODECS[i % CODECS.length];
      String what = levels[i].description() + " with " + codec;
      spark.conf().set(ArrowCacheSerializer.Compression(), codec);
      Dataset<Row> data = CacheData.rows(spark, ROWS, 3);
      data.persist(levels[i]);
      data.createOrReplaceTempView("c");
      assertEquals(ROWS, data.count(), what);
      assertArrowBatches(data, what);
      RDDInfo stored = storedRdd(what);
      if (levels[i].useMemory()) {
        assertTrue(stored.memSize() > 0, what);
      } else {
        assertEquals(0, stored.memSize(), what);
      }
      if (levels[i].useDisk() && !levels[i].useMemory()) {
        assertTrue(stored.diskSize() > 0, what);
      }
      compareEveryQuery(what, true);
      data.unpersist(true);
      assertNothingHeld(what + ", after unpersist");
    }
  }

  @Test
  void rowsAndSparksOwnTransitionReadTheSame() {
    for (String codec : CODECS) {
      spark.conf().set(ArrowCacheSerializer.Compression(), codec);
      Dataset<Row> data = CacheData.rows(spark, ROWS, 3);
      data.persist(StorageLevel.MEMORY_ONLY());
      data.createOrReplaceTempView("c");
      data.count();
      try {
        spark.conf().set("spark.sql.inMemoryColumnarStorage.enableVectorizedReader", "false");
        compareEveryQuery("rows read with " + codec, true);
        spark.conf().set("spark.sql.inMemoryColumnarStorage.enableVectorizedReader", "true");
        spark.conf().set("spark.rowbridge.columnarToRow.enabled", "false");
        compareEveryQuery("Spark's transition with " + codec, true);
      } finally {
        spark.conf().unset("spark.sql.inMemoryColumnarStorage.enableVectorizedReader");
        spark.conf().unset("spark.rowbridge.columnarToRow.enabled");
        data.unpersist(true);
      }
      assertNothingHeld(codec);
    }
  }

  @Test
  void columnarInputIsCachedFromParquetAndFromArrow() throws Exception {
    Path arrow = dir.resolve("arrow");
    spark
        .read()
        .parquet(dir.resolve("parquet").toString())
        .write()
        .format("rowbridge")
        .save(arrow.toString());
    for (String format : new String[] {"parquet", "rowbridge"}) {
      Dataset<Row> data =
          spark
              .read()
              .format(format)
              .load((format.equals("parquet") ? dir.resolve("parquet") : arrow).toString());
      data.persist(StorageLevel.MEMORY_AND_DISK());
      data.createOrReplaceTempView("c");
      assertEquals(ROWS, data.count(), format);
      assertArrowBatches(data, format);
      compareEveryQuery("cached from " + format, false);
      data.unpersist(true);
      assertNothingHeld(format);
    }
  }

  @Test
  void calendarIntervalsAreCachedAsArrowWhereSparkReadsThem() {
    Dataset<Row> data =
        spark.sql(
            "SELECT id, IF(id % 3 = 0, NULL, make_interval(0, CAST(id AS INT), 0, 2, 0, 0,"
                + " id / 1000.0)) AS i FROM range(100)");
    List<String> expected = SortedAnswer.of(data);
    data.cache();
    assertEquals(100, data.count());
    // Spark 3.5's ArrowColumnVector lacks calendar intervals: its own serializer takes them.
    boolean arrow = !org.apache.spark.package$.MODULE$.SPARK_VERSION().startsWith("3.");
    Object first = scanOf(data.select("*")).relation().cacheBuilder().cachedColumnBuffers().first();
    assertEquals(arrow, first instanceof ArrowCachedBatch, first.getClass().getName());
    assertEquals(expected, SortedAnswer.of(data.select("*")));
    data.unpersist(true);
    assertNothingHeld("calendar intervals");
  }

  @Test
  void aTypeArrowLacksLeavesTheSchemaToSpark() {
    assertFalse(CacheBuilder.supports(new ObjectType(Object.class)));
    assertTrue(CacheBuilder.supports(CacheData.rows(spark, 1, 1).schema()));
  }

  @Test
  void anUnknownCompressionIsNamed() {
    spark.conf().set(ArrowCacheSerializer.Compression(), "snappy");
    try {
      Dataset<Row> data = spark.range(10).toDF();
      data.cache();
      Exception error = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, data::count);
      String message = String.valueOf(error.getMessage());
      assertTrue(
          message.contains("spark.rowbridge.cache.compression must be none, lz4 or zstd"), message);
      data.unpersist(true);
    } finally {
      spark.conf().unset(ArrowCacheSerializer.Compression());
    }
  }

  /** Every query's answer, and the batches it reads, against Spark's own cache. */
  private static void compareEveryQuery(String what, boolean samePruning) {
    for (Map.Entry<String, String> query : queries.entrySet()) {
      Dataset<Row> frame = spark.sql(query.getValue());
      String name = what + ": " + query.getKey();
      assertEquals(sparkAnswers.get(query.getKey()), SortedAnswer.of(frame), name);
      if (samePruning) {
        assertEquals(sparkBatchesRead.get(query.getKey()), batchesRead(frame), name + " (batches)");
      }
      assertNothingHeld(name);
    }
  }

  private static void assertArrowBatches(Dataset<Row> data, String what) {
    InMemoryTableScanExec scan = scanOf(data);
    Object first = scan.relation().cacheBuilder().cachedColumnBuffers().first();
    assertInstanceOf(ArrowCachedBatch.class, first, what);
  }

  private static RDDInfo storedRdd(String what) {
    List<RDDInfo> stored = new ArrayList<>();
    for (RDDInfo info : spark.sparkContext().getRDDStorageInfo()) {
      stored.add(info);
    }
    assertEquals(1, stored.size(), what + ": " + stored);
    RDDInfo info = stored.get(0);
    assertEquals(info.numPartitions(), info.numCachedPartitions(), what);
    return info;
  }

  private static void assertNothingHeld(String what) {
    assertEquals(0, ArrowUtils.rootAllocator().getAllocatedMemory(), what + ": Arrow memory held");
    assertEquals(0, TaskMemoryAccounting.heldInThisJvm(), what + ": native memory held");
  }

  /** The batches the frame's cache scan read after pruning (Spark's own scan statistics). */
  private static long batchesRead(Dataset<Row> frame) {
    frame.collectAsList(); // a fresh run of the plan below
    InMemoryTableScanExec scan = scanOf(frame);
    return scan.readBatches().value();
  }

  static InMemoryTableScanExec scanOf(Dataset<?> frame) {
    InMemoryTableScanExec scan = find(frame.queryExecution().executedPlan());
    assertNotNull(scan, frame.queryExecution().executedPlan().toString());
    return scan;
  }

  private static InMemoryTableScanExec find(SparkPlan plan) {
    if (plan instanceof InMemoryTableScanExec) {
      return (InMemoryTableScanExec) plan;
    }
    for (int i = 0; i < plan.children().size(); i++) {
      InMemoryTableScanExec found = find(plan.children().apply(i));
      if (found != null) {
        return found;
      }
    }
    return null;
  }
}
