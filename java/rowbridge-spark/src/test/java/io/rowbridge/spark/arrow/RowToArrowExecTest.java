package io.rowbridge.spark.arrow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.SortedAnswer;
import io.rowbridge.spark.conf.RowbridgeConf;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.RowToColumnarExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * RowToArrowExec in Spark local mode, under a test columnar operator that counts the kind of
 * vectors it receives (ArrowConsumerExtensions): with spark.rowbridge.rowToColumnar.enabled the
 * rule puts rowbridge's transition in place of RowToColumnarExec, every batch the operator gets is
 * Arrow-backed, and the answers equal plain Spark's for values of every kind.
 */
class RowToArrowExecTest {
  private static SparkSession spark;

  private static final String QUERY =
      "SELECT id, CAST(id AS INT) AS i, CAST(id AS SMALLINT) AS sh,"
          + " id % 2 = 0 AS b, id / 3.0D AS dbl, CAST(id / 7 AS FLOAT) AS f,"
          + " CAST(id AS DECIMAL(20, 3)) AS dec_big, CAST(id AS DECIMAL(9, 2)) AS dec_small,"
          + " IF(id % 5 = 0, NULL, CONCAT('name-', id, REPEAT('x', CAST(id % 40 AS INT)))) AS s,"
          + " CAST(CONCAT('b', id) AS BINARY) AS bin, DATE_ADD(DATE'2020-01-01', CAST(id AS INT)) AS d,"
          + " TIMESTAMP_SECONDS(id * 1000) AS ts, CAST(TIMESTAMP_SECONDS(id) AS TIMESTAMP_NTZ) AS ntz,"
          + " MAKE_YM_INTERVAL(CAST(id % 30 AS INT), 1) AS ym, MAKE_DT_INTERVAL(1, 2, 3, id) AS dt,"
          + " IF(id % 4 = 0, NULL, NAMED_STRUCT('x', id, 'y', CAST(id AS STRING))) AS st,"
          + " IF(id % 6 = 0, NULL, SEQUENCE(0, CAST(id % 5 AS INT))) AS arr,"
          + " MAP(CAST(id AS STRING), IF(id % 3 = 0, NULL, id)) AS m,"
          + " ARRAY(NAMED_STRUCT('k', ARRAY(id, NULL), 'v', MAP('a', CAST(id AS STRING)))) AS deep"
          + " FROM range(0, 4000, 1, 3) WHERE id % 7 != 3";

  @BeforeAll
  static void start() {
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("rowbridge-row-to-arrow-test")
            .config(
                "spark.sql.extensions",
                RowbridgeExtensions.class.getName() + "," + ArrowConsumerExtensions.class.getName())
            .config("spark.ui.enabled", "false")
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.sql.session.timeZone", "America/Los_Angeles")
            .config("spark.sql.inMemoryColumnarStorage.batchSize", "250")
            .getOrCreate();
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  @BeforeEach
  void reset() {
    ArrowConsumingExec.reset();
    spark.conf().set("rowbridge.test.arrowConsumer", "false");
    spark.conf().set(RowbridgeConf.ROW_TO_COLUMNAR_ENABLED, "false");
  }

  private static List<String> rows(Dataset<Row> frame) {
    return SortedAnswer.of(frame);
  }

  private static boolean contains(SparkPlan plan, Class<?> type) {
    return !plan.collect(
            new scala.PartialFunction<SparkPlan, SparkPlan>() {
              @Override
              public boolean isDefinedAt(SparkPlan node) {
                return type.isInstance(node);
              }

              @Override
              public SparkPlan apply(SparkPlan node) {
                return node;
              }
            })
        .isEmpty();
  }

  @Test
  void rowbridgeFeedsArrowBatchesWithSparksAnswers() {
    List<String> expected = rows(spark.sql(QUERY));
    spark.conf().set("rowbridge.test.arrowConsumer", "true");
    spark.conf().set(RowbridgeConf.ROW_TO_COLUMNAR_ENABLED, "true");
    Dataset<Row> frame = spark.sql(QUERY);
    List<String> actual = rows(frame);
    SparkPlan plan = frame.queryExecution().executedPlan();
    assertTrue(contains(plan, RowToArrowExec.class), plan.toString());
    assertFalse(contains(plan, RowToColumnarExec.class), plan.toString());
    assertEquals(expected, actual);
    assertEquals(0, ArrowConsumingExec.otherBatches().get());
    // 3428 rows in 3 partitions, at most 250 rows per batch
    assertEquals(expected.size(), ArrowConsumingExec.rows().get());
    assertTrue(
        ArrowConsumingExec.arrowBatches().get() >= 15,
        "batches: " + ArrowConsumingExec.arrowBatches().get());
  }

  @Test
  void withoutTheSettingSparksTransitionStays() {
    List<String> expected = rows(spark.sql(QUERY));
    spark.conf().set("rowbridge.test.arrowConsumer", "true");
    Dataset<Row> frame = spark.sql(QUERY);
    assertEquals(expected, rows(frame));
    SparkPlan plan = frame.queryExecution().executedPlan();
    assertTrue(contains(plan, RowToColumnarExec.class), plan.toString());
    assertFalse(contains(plan, RowToArrowExec.class), plan.toString());
    assertEquals(0, ArrowConsumingExec.arrowBatches().get());
    assertTrue(ArrowConsumingExec.otherBatches().get() > 0);
  }
}
