package io.rowbridge.spark.transition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.spark.ArrowTestSource;
import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.conf.RowbridgeConf;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.CodegenSupport;
import org.apache.spark.sql.execution.FilterExec;
import org.apache.spark.sql.execution.InputAdapter;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.WholeStageCodegenExec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operator in Spark local mode: every query runs with the extension on and off, over a
 * DataSource V2 source of Arrow-backed batches, and the results must be equal (joins, aggregations
 * with string and struct keys, broadcast joins, collect of nested types, batches only Spark's path
 * can read).
 */
class RowbridgeOperatorTest {
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("rowbridge-operator-test")
            .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "3")
            .config("spark.sql.adaptive.enabled", "false")
            // every eligible transition is rowbridge's here (TransitionPlacementTest tests "auto")
            .config(RowbridgeConf.PLACEMENT, "rowbridge")
            // generated code that does not compile fails the query instead of running interpreted
            .config("spark.sql.codegen.fallback", "false")
            .config("spark.sql.session.timeZone", "UTC")
            // the test source prunes top-level columns only
            .config("spark.sql.optimizer.nestedSchemaPruning.enabled", "false")
            .getOrCreate();
    view("t", "rows", "700", "partitions", "3", "batchRows", "64");
    view("u", "rows", "500", "partitions", "2", "batchRows", "100", "offset", "300");
    view("c", "rows", "600", "partitions", "2", "batchRows", "50", "constantEvery", "3");
    view("big", "rows", "20000", "partitions", "2", "batchRows", "4096");
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  private static void view(String name, String... options) {
    var reader = spark.read().format(ArrowTestSource.class.getName());
    for (int i = 0; i < options.length; i += 2) {
      reader = reader.option(options[i], options[i + 1]);
    }
    reader.load().createOrReplaceTempView(name);
  }

  /** The rows of a query, as sorted strings (order-insensitive comparison). */
  private static List<String> rows(Dataset<Row> frame) {
    List<String> out = new ArrayList<>();
    for (Row row : frame.collectAsList()) {
      out.add(row.toString());
    }
    out.sort(null);
    return out;
  }

  private static RowbridgeColumnarToRowExec find(SparkPlan plan) {
    List<SparkPlan> found = new ArrayList<>();
    plan.foreach(
        node -> {
          if (node instanceof RowbridgeColumnarToRowExec) {
            found.add(node);
          }
          return null;
        });
    return found.isEmpty() ? null : (RowbridgeColumnarToRowExec) found.get(0);
  }

  /**
   * Runs the query with rowbridge on and off, each with whole-stage code generation on and off; the
   * four answers must be equal. Returns the operator's node of the run with rowbridge and code
   * generation on, after checking that the operator shares its parent's generated stage.
   */
  private static RowbridgeColumnarToRowExec compare(String sql) {
    RowbridgeColumnarToRowExec node = null;
    List<String> expected = null;
    for (String codegen : new String[] {"true", "false"}) {
      spark.conf().set(WHOLE_STAGE, codegen);
      try {
        spark.conf().set(RowbridgeConf.ENABLED, "true");
        Dataset<Row> on = spark.sql(sql);
        List<String> withRowbridge = rows(on);
        SparkPlan plan = on.queryExecution().executedPlan();
        RowbridgeColumnarToRowExec found = find(plan);
        assertNotNull(found, "rowbridge's operator is in the plan of " + sql + ":\n" + plan);
        if (codegen.equals("true")) {
          assertSharesItsParentsStage(plan, found, sql);
          node = found;
        } else {
          assertTrue(
              plan.find(p -> p instanceof WholeStageCodegenExec).isEmpty(),
              "no generated stage with " + WHOLE_STAGE + "=false:\n" + plan);
        }
        spark.conf().set(RowbridgeConf.ENABLED, "false");
        Dataset<Row> off = spark.sql(sql);
        List<String> withSpark = rows(off);
        assertTrue(find(off.queryExecution().executedPlan()) == null, "disabled");
        assertEquals(withSpark.size(), withRowbridge.size(), sql);
        assertEquals(withSpark, withRowbridge, sql + " (codegen " + codegen + ")");
        assertFalse(withSpark.isEmpty(), "the query returns rows: " + sql);
        if (expected == null) {
          expected = withSpark;
        } else {
          assertEquals(expected, withSpark, sql + ": code generation on and off");
        }
      } finally {
        spark.conf().set(RowbridgeConf.ENABLED, "true");
        spark.conf().unset(WHOLE_STAGE);
      }
    }
    return node;
  }

  private static final String WHOLE_STAGE = "spark.sql.codegen.wholeStage";

  /**
   * The operator is in a generated stage (explain marks it "*(n)"), and so is its parent when the
   * parent generates code: the same n, with no stage boundary between them.
   */
  private static SparkPlan assertSharesItsParentsStage(
      SparkPlan plan, RowbridgeColumnarToRowExec node, String sql) {
    Map<SparkPlan, Integer> stages = new IdentityHashMap<>();
    Map<SparkPlan, SparkPlan> parents = new IdentityHashMap<>();
    assignStages(plan, null, -1, stages, parents);
    Integer stage = stages.get(node);
    assertNotNull(stage, "rowbridge's operator is in a generated stage:\n" + plan);
    String explain = plan.treeString();
    assertTrue(explain.contains("*(" + stage + ") RowbridgeColumnarToRow"), explain);
    SparkPlan parent = parents.get(node);
    if (parent instanceof CodegenSupport && ((CodegenSupport) parent).supportCodegen()) {
      assertEquals(
          stage,
          stages.get(parent),
          "the operator and its parent "
              + parent.nodeName()
              + " share one stage in "
              + sql
              + ":\n"
              + explain);
    }
    return parent;
  }

  /** Each node's generated stage (none under an InputAdapter), and its parent past the stage. */
  private static void assignStages(
      SparkPlan node,
      SparkPlan parent,
      int stage,
      Map<SparkPlan, Integer> stages,
      Map<SparkPlan, SparkPlan> parents) {
    if (node instanceof WholeStageCodegenExec) {
      SparkPlan child = ((WholeStageCodegenExec) node).child();
      assignStages(child, parent, ((WholeStageCodegenExec) node).codegenStageId(), stages, parents);
      return;
    }
    if (node instanceof InputAdapter) {
      assignStages(((InputAdapter) node).child(), parent, -1, stages, parents);
      return;
    }
    if (stage >= 0) {
      stages.put(node, stage);
    }
    if (parent != null) {
      parents.put(node, parent);
    }
    scala.collection.Iterator<SparkPlan> children = node.children().iterator();
    while (children.hasNext()) {
      assignStages(children.next(), node, stage, stages, parents);
    }
  }

  @Test
  void collectOfEveryColumn() {
    RowbridgeColumnarToRowExec node = compare("SELECT * FROM t");
    assertEquals(2100L, node.metrics().apply("numOutputRows").value());
    assertEquals(3 * 11L, node.metrics().apply("numInputBatches").value());
    assertEquals(0L, node.metrics().apply("numSparkBatches").value());
    assertTrue(node.metrics().apply("convertTime").value() > 0);
  }

  @Test
  void aFilterAboveTheOperatorIsGeneratedInItsStage() {
    String sql = "SELECT id, s FROM t WHERE id % 7 = 3";
    compare(sql);
    Dataset<Row> frame = spark.sql(sql);
    SparkPlan plan = frame.queryExecution().executedPlan();
    SparkPlan parent = assertSharesItsParentsStage(plan, find(plan), sql);
    assertTrue(parent instanceof FilterExec, "the operator's parent is the filter:\n" + plan);
  }

  @Test
  void aLimitStopsTheGeneratedLoop() {
    compare("SELECT id, s, st FROM big WHERE id % 2 = 0 LIMIT 25");
    assertEquals(7, spark.sql("SELECT * FROM big LIMIT 7").collectAsList().size());
  }

  @Test
  void projectionsFiltersAndNestedFields() {
    compare(
        "SELECT id, st.b, m['k1'], try_element_at(arr, 2), s FROM t WHERE id % 5 = 0 OR s IS NULL");
  }

  @Test
  void aggregationsWithStringDecimalAndStructKeys() {
    compare("SELECT k, count(*), sum(d), max(s), min(dec), sum(size(arr)) FROM t GROUP BY k");
    compare("SELECT s, count(*), avg(d) FROM t GROUP BY s");
    compare("SELECT st, count(*) FROM t GROUP BY st");
    compare("SELECT DISTINCT arr FROM t");
  }

  @Test
  void sortMergeJoin() {
    spark.conf().set("spark.sql.autoBroadcastJoinThreshold", "-1");
    try {
      compare("SELECT t.id, t.s, u.dec, u.m FROM t JOIN u ON t.id = u.id");
      compare("SELECT t.s, count(*) FROM t JOIN u ON t.s = u.s GROUP BY t.s");
    } finally {
      spark.conf().unset("spark.sql.autoBroadcastJoinThreshold");
    }
  }

  @Test
  void broadcastJoinsBothWays() {
    compare("SELECT /*+ BROADCAST(u) */ t.id, u.st, u.arr FROM t JOIN u ON t.id = u.id");
    compare("SELECT /*+ BROADCAST(t) */ t.st, t.s, u.id FROM t JOIN u ON t.st.a = u.k");
  }

  @Test
  void batchesOnlySparkCanReadTakeSparksPath() {
    RowbridgeColumnarToRowExec node = compare("SELECT id, k, s FROM c");
    long sparkBatches = node.metrics().apply("numSparkBatches").value();
    long batches = node.metrics().apply("numInputBatches").value();
    assertEquals(24L, batches);
    assertEquals(8L, sparkBatches, "every third batch has a ConstantColumnVector");
    compare("SELECT k, count(*) FROM c GROUP BY k");
  }

  @Test
  void largeBatchesAndSmallChunks() {
    compare("SELECT sum(id), count(s), max(st.b) FROM big");
    spark.conf().set(RowbridgeConf.MAX_CHUNK_BYTES, "8k");
    try {
      RowbridgeColumnarToRowExec node = compare("SELECT id, s, m FROM big WHERE id % 3 = 1");
      assertEquals(40000L, node.metrics().apply("numOutputRows").value());
    } finally {
      spark.conf().unset(RowbridgeConf.MAX_CHUNK_BYTES);
    }
  }

  @Test
  void aRowAboveTheCapIsAClearError() {
    aRowAboveTheCapIsAClearError("true");
    aRowAboveTheCapIsAClearError("false");
  }

  private void aRowAboveTheCapIsAClearError(String codegen) {
    spark.conf().set(RowbridgeConf.MAX_CHUNK_BYTES, "16");
    spark.conf().set(WHOLE_STAGE, codegen);
    try {
      Exception e =
          org.junit.jupiter.api.Assertions.assertThrows(
              Exception.class, () -> spark.sql("SELECT * FROM t").collectAsList());
      Throwable cause = e;
      while (cause.getCause() != null && !(cause instanceof io.rowbridge.RowbridgeException)) {
        cause = cause.getCause();
      }
      String message = String.valueOf(cause.getMessage()) + " / " + e.getMessage();
      assertTrue(message.contains(RowbridgeConf.MAX_CHUNK_BYTES), message);
    } finally {
      spark.conf().unset(RowbridgeConf.MAX_CHUNK_BYTES);
      spark.conf().unset(WHOLE_STAGE);
    }
  }
}
