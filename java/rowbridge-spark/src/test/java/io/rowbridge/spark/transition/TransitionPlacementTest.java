package io.rowbridge.spark.transition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.spark.ArrowTestSource;
import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.SortedAnswer;
import io.rowbridge.spark.conf.RowbridgeConf;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.ColumnarToRowExec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rule's placement in Spark local mode: with "auto", which transition each plan shape gets
 * (java/README.md, "Placement"), and that "rowbridge" and "spark" force either; answers are the
 * same whichever transition a plan has.
 */
class TransitionPlacementTest {
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("rowbridge-placement-test")
            .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.optimizer.nestedSchemaPruning.enabled", "false")
            .getOrCreate();
    spark
        .read()
        .format(ArrowTestSource.class.getName())
        .option("rows", "300")
        .option("partitions", "2")
        .option("batchRows", "64")
        .load()
        .createOrReplaceTempView("t");
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  @AfterEach
  void defaults() {
    spark.conf().unset(RowbridgeConf.PLACEMENT);
  }

  /**
   * The transitions of the query's executed plan ("R" for rowbridge's, "S" for Spark's, in the
   * plan's pre-order), after checking that its answer is the one Spark's transition gives.
   */
  private static String transitions(String sql) {
    String found = transitionsOnly(sql);
    List<String> placed = SortedAnswer.of(spark.sql(sql));
    spark.conf().set(RowbridgeConf.PLACEMENT, "spark");
    try {
      assertEquals(SortedAnswer.of(spark.sql(sql)), placed, "the same answer with Spark's: " + sql);
    } finally {
      spark.conf().unset(RowbridgeConf.PLACEMENT);
    }
    return found;
  }

  @Test
  void wholeRowsTakeRowbridgesTransition() {
    assertEquals("R", transitions("SELECT * FROM t"));
    assertEquals("R", transitions("SELECT * FROM t DISTRIBUTE BY k"));
    assertEquals("R", transitions("SELECT id, s, arr FROM t ORDER BY id"));
    assertEquals("R", transitions("SELECT * FROM t LIMIT 30"));
  }

  @Test
  void filteredRowsTakeRowbridgesUnlessNested() {
    assertEquals("R", transitions("SELECT id, s, d FROM t WHERE id % 7 = 1"));
    assertEquals("S", transitions("SELECT id, st, arr FROM t WHERE id % 7 = 1"));
    assertEquals("S", transitions("SELECT * FROM t WHERE id % 7 = 1 ORDER BY id"));
  }

  @Test
  void columnReadsFollowArrowJavasChecks() {
    String expected = TransitionPlacement.arrowChecksOn() ? "R" : "S";
    assertEquals(expected, transitions("SELECT k, count(*), sum(d) FROM t GROUP BY k"));
    assertEquals(expected, transitions("SELECT k, max(size(arr)) FROM t GROUP BY k"));
    assertEquals(expected, transitions("SELECT id + 1, upper(s) FROM t"));
  }

  @Test
  void theBuildSideOfAHashJoinTakesWholeRows() {
    String build =
        transitions("SELECT /*+ BROADCAST(b) */ a.id, b.s FROM t a JOIN t b " + "ON a.id = b.id");
    String streamed = TransitionPlacement.arrowChecksOn() ? "R" : "S";
    assertEquals(streamed + "R", build, "streamed side first, then the broadcast build side");
  }

  @Test
  void theStreamedSideOfAHashJoinKeepsSparksTransitionForStrings() {
    String fixedWidth = TransitionPlacement.arrowChecksOn() ? "R" : "S";
    assertEquals(
        fixedWidth + "R",
        transitions(
            "SELECT /*+ BROADCAST(b) */ a.id, a.d, b.s " + "FROM t a JOIN t b ON a.id = b.id"));
    assertEquals(
        "SR",
        transitions(
            "SELECT /*+ BROADCAST(b) */ a.id, a.s, b.d "
                + "FROM t a JOIN t b ON a.id = b.id WHERE a.id % 3 = 0"));
  }

  @Test
  void theSettingForcesEitherTransition() {
    spark.conf().set(RowbridgeConf.PLACEMENT, "rowbridge");
    assertEquals("R", transitionsOnly("SELECT id, st, arr FROM t WHERE id % 7 = 1"));
    spark.conf().set(RowbridgeConf.PLACEMENT, "SPARK");
    assertEquals("S", transitionsOnly("SELECT * FROM t"));
    spark.conf().set(RowbridgeConf.PLACEMENT, "sometimes");
    Throwable e = assertThrows(Exception.class, () -> spark.sql("SELECT * FROM t").collectAsList());
    while (!(e instanceof IllegalArgumentException) && e.getCause() != null) {
      e = e.getCause();
    }
    assertTrue(e.getMessage().contains(RowbridgeConf.PLACEMENT), e.getMessage());
  }

  private static String transitionsOnly(String sql) {
    StringBuilder found = new StringBuilder();
    spark
        .sql(sql)
        .queryExecution()
        .executedPlan()
        .foreach(
            node -> {
              found.append(
                  node instanceof RowbridgeColumnarToRowExec
                      ? "R"
                      : node instanceof ColumnarToRowExec ? "S" : "");
              return null;
            });
    return found.toString();
  }
}
