package io.rowbridge.comet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.RowbridgeException;
import io.rowbridge.spark.conf.RowbridgeConf;
import io.rowbridge.spark.transition.RowbridgeColumnarToRowExec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import scala.jdk.javaapi.CollectionConverters;

/**
 * rowbridge's extension and Apache Comet's plugin in one Spark 4.1 session, in both registration
 * orders (Spark applies post-transition rules in reverse registration order, so in one order
 * rowbridge's rule sees Comet's transitions and in the other Spark's ColumnarToRowExec, which
 * Comet's rule has yet to turn into its own). Each query runs over Parquet files Comet scans
 * natively and hands rows to Spark: it asserts that Comet operators run, that rowbridge's
 * transition replaced each of Comet's (comparing with the plan of the same query with rowbridge's
 * rule off), that the answers are the same, and that the replaced transitions' rows are
 * byte-identical to those of Comet's JVM transition, an UnsafeProjection of the same batches
 * (Comet's native converter's rows are not).
 */
class CometSessionTest {
  private static final String ROWBRIDGE = "io.rowbridge.spark.RowbridgeExtensions";
  private static final String COMET = "org.apache.comet.CometSparkSessionExtensions";
  private static final String COMET_TRANSITION =
      "org.apache.spark.sql.comet.CometColumnarToRowExec";
  private static final String COMET_NATIVE_TRANSITION =
      "org.apache.spark.sql.comet.CometNativeColumnarToRowExec";

  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class RowbridgeRegisteredFirst extends Queries {
    RowbridgeRegisteredFirst() {
      super(ROWBRIDGE + "," + COMET);
    }
  }

  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class CometRegisteredFirst extends Queries {
    CometRegisteredFirst() {
      super(COMET + "," + ROWBRIDGE);
    }
  }

  /** The queries, in a session with the extensions registered in the given order. */
  abstract static class Queries {
    private final String extensions;
    private SparkSession spark;
    private Path dir;

    Queries(String extensions) {
      this.extensions = extensions;
    }

    @BeforeAll
    void start() throws IOException {
      String given = System.getProperty("rowbridge.test.seed", "");
      long seed = given.isEmpty() ? System.nanoTime() % 1_000_000 : Long.parseLong(given.trim());
      System.out.println(
          "CometSessionTest [" + extensions + "]: seed " + seed + " (-Drowbridge.test.seed)");
      spark =
          SparkSession.builder()
              .master("local[2]")
              .appName("rowbridge-comet")
              .config("spark.ui.enabled", "false")
              .config("spark.plugins", "org.apache.spark.CometPlugin")
              .config("spark.sql.extensions", extensions)
              .config("spark.comet.enabled", "true")
              .config("spark.comet.exec.enabled", "true")
              .config(
                  "spark.shuffle.manager",
                  "org.apache.spark.sql.comet.execution.shuffle.CometShuffleManager")
              .config("spark.memory.offHeap.enabled", "true")
              .config("spark.memory.offHeap.size", "512m")
              .config("spark.sql.shuffle.partitions", "2")
              .config("spark.sql.session.timeZone", "UTC")
              .getOrCreate();
      dir = Files.createTempDirectory("rowbridge-comet");
      spark
          .range(0, 30_000, 1, 3)
          .selectExpr(
              "id",
              "IF(pmod(hash(id, "
                  + seed
                  + "), 17) = 0, NULL,"
                  + " CAST(pmod(hash(id, "
                  + (seed + 1)
                  + "), 100000) AS INT) - 50000) AS qty",
              "CASE pmod(hash(id, "
                  + (seed + 2)
                  + "), 31) WHEN 0 THEN NULL"
                  + " WHEN 1 THEN double('NaN') ELSE hash(id, "
                  + (seed + 3)
                  + ") / 7.0d END"
                  + " AS price",
              "IF(pmod(hash(id, "
                  + (seed + 4)
                  + "), 13) = 0, NULL, concat('name-', hex(hash(id, "
                  + (seed + 5)
                  + ")), repeat('x', pmod(hash(id, "
                  + (seed + 6)
                  + "), 40))))"
                  + " AS name",
              "element_at(array('red', 'green', 'blue', 'cyan', 'black'), pmod(hash(id, "
                  + (seed + 7)
                  + "), 5) + 1) AS colour",
              "CAST(hash(id, " + (seed + 8) + ") / 100.0 AS DECIMAL(12, 2)) AS amount",
              "CAST(hash(id, " + (seed + 9) + ") AS DECIMAL(22, 4)) AS big",
              "date_add(DATE'2000-01-01', pmod(hash(id, " + (seed + 10) + "), 20000)) AS day",
              "timestamp_micros(CAST(hash(id, " + (seed + 11) + ") AS BIGINT) * 1000003) AS ts",
              "pmod(hash(id, " + (seed + 12) + "), 3) = 0 AS flag")
          .write()
          .parquet(dir.resolve("flat").toString());
      spark
          .range(0, 5_000, 1, 2)
          .selectExpr(
              "id",
              "named_struct('a', CAST(id AS INT), 'b', concat('s', id)) AS st",
              "IF(id % 7 = 0, NULL, sequence(0, CAST(pmod(hash(id, "
                  + seed
                  + "), 5) AS INT)))"
                  + " AS arr",
              "map(concat('k', id % 3), CAST(id AS INT)) AS m",
              "IF(id % 11 = 0, NULL, array(named_struct('c', element_at(array('red', 'green',"
                  + " NULL), CAST(id % 3 AS INT) + 1), 'd', sequence(CAST(id % 4 AS INT), 2),"
                  + " 'e', CAST(id / 7.0 AS DECIMAL(12, 3))), named_struct('c', 'blue', 'd',"
                  + " array(CAST(NULL AS INT)), 'e', NULL))) AS deep",
              "named_struct('p', named_struct('q', concat('q', id % 5), 'r', id), 's',"
                  + " timestamp_micros(id * 1000003)) AS two_levels")
          .write()
          .parquet(dir.resolve("nested").toString());
      spark.read().parquet(dir.resolve("flat").toString()).createOrReplaceTempView("flat");
      spark.read().parquet(dir.resolve("nested").toString()).createOrReplaceTempView("nested");
      spark
          .udf()
          .register(
              "label",
              (UDF2<String, Integer, String>)
                  (name, qty) ->
                      name == null
                          ? null
                          : name.substring(0, Math.min(8, name.length()))
                              + "/"
                              + (qty == null ? "none" : Integer.toString(Math.floorMod(qty, 10))),
              DataTypes.StringType);
    }

    @AfterAll
    void stop() throws IOException {
      if (spark != null) {
        spark.stop();
      }
      if (dir != null) {
        try (var files = Files.walk(dir)) {
          files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
      }
    }

    /** A collect of every flat column: the transition carries whole rows (auto placement). */
    @Test
    void collectOfFlatColumnsTakesRowbridgesTransition() {
      Checked checked = check("SELECT * FROM flat WHERE qty IS NULL OR qty > -40000", "auto");
      assertEquals(0, checked.sparkBatches, "every Comet batch converted natively");
    }

    /** A Java UDF in a projection Comet cannot run, with rowbridge placed everywhere. */
    @Test
    void udfProjectionReadsRowbridgesRows() {
      Checked checked =
          check("SELECT id, label(name, qty) AS l, price, day FROM flat WHERE flag", "rowbridge");
      assertEquals(0, checked.sparkBatches, "every Comet batch converted natively");
    }

    /** A UDF feeding an aggregation through an exchange under adaptive execution. */
    @Test
    void udfGroupedThroughAnExchange() {
      check(
          "SELECT label(colour, qty) AS l, count(*) AS n, sum(amount) AS total FROM flat"
              + " GROUP BY label(colour, qty)",
          "rowbridge");
    }

    /**
     * Nested columns at any depth (lists, structs, maps, lists of structs of lists, a
     * low-cardinality string inside them): Comet's nested vectors convert natively.
     */
    @Test
    void collectOfNestedColumns() {
      Checked checked = check("SELECT * FROM nested", "auto");
      assertEquals(0, checked.sparkBatches, "every Comet batch converted natively");
    }

    /** Nested and flat columns together, after a Comet filter. */
    @Test
    void nestedAndFlatColumnsAfterAFilter() {
      Checked checked =
          check("SELECT id, deep, m, two_levels FROM nested WHERE id % 3 <> 1", "rowbridge");
      assertEquals(0, checked.sparkBatches, "every Comet batch converted natively");
    }

    /** Comet's native transition, when enabled, is replaced too. */
    @Test
    void cometsNativeTransitionIsReplaced() {
      spark.conf().set("spark.comet.exec.columnarToRow.native.enabled", "true");
      try {
        assertTrue(
            nodes(plan("SELECT * FROM flat WHERE flag", false)).stream()
                .anyMatch(node -> node.getClass().getName().equals(COMET_NATIVE_TRANSITION)),
            "Comet's native transition in the plan without rowbridge");
        check("SELECT * FROM flat WHERE flag", "auto");
      } finally {
        spark.conf().unset("spark.comet.exec.columnarToRow.native.enabled");
      }
    }

    /**
     * The data source needs arrow-c-data's org.apache.arrow.c classes; with Comet's copy of them on
     * the class path (and not arrow-c-data's) it refuses with an error that says so, before any
     * call into Comet's copy could fail with a NoSuchMethodError.
     */
    @Test
    void dataSourceRefusesCometsCopyOfTheCDataClasses() throws IOException {
      Path file = dir.resolve("refused.arrow");
      Files.write(file, new byte[] {'A', 'R', 'R', 'O', 'W', '1', 0, 0});
      Exception refusal =
          assertThrows(
              Exception.class,
              () -> spark.read().format("rowbridge").load(file.toString()).collectAsList());
      Throwable cause = refusal;
      while (!(cause instanceof RowbridgeException) && cause.getCause() != null) {
        cause = cause.getCause();
      }
      assertTrue(cause instanceof RowbridgeException, "a RowbridgeException: " + refusal);
      String message = cause.getMessage();
      assertTrue(
          message.contains("format(\"rowbridge\") needs Arrow Java's C Data module")
              && message.contains("relocated Arrow")
              && message.contains("comet-spark"),
          message);
    }

    /** The figures a check reports. */
    record Checked(long sparkBatches) {}

    /**
     * Runs {@code sql} with rowbridge's rule on (with {@code placement}) and off and asserts what
     * the class comment says; returns the replaced transitions' count of batches Spark converted.
     */
    private Checked check(String sql, String placement) {
      spark.conf().set(RowbridgeConf.PLACEMENT, placement);
      try {
        Dataset<Row> withRowbridge = spark.sql(sql);
        List<String> answer = sorted(withRowbridge.collectAsList());
        List<SparkPlan> nodes = nodes(withRowbridge.queryExecution().executedPlan());
        assertTrue(
            nodes.stream().anyMatch(node -> CometInput.isComet(node)),
            "Comet operators in the plan:\n" + withRowbridge.queryExecution().executedPlan());
        List<RowbridgeColumnarToRowExec> replaced = new ArrayList<>();
        for (SparkPlan node : nodes) {
          if (node instanceof RowbridgeColumnarToRowExec transition
              && transition.engine().contains("comet")) {
            replaced.add(transition);
          }
        }
        assertFalse(
            replaced.isEmpty(),
            "rowbridge's transition in the plan:\n"
                + withRowbridge.queryExecution().executedPlan());

        spark.conf().set(RowbridgeConf.ENABLED, "false");
        Dataset<Row> withComet = spark.sql(sql);
        assertEquals(answer, sorted(withComet.collectAsList()), sql);
        assertEquals(
            replaced.size(),
            cometTransitions(withComet).size(),
            "each of Comet's transitions replaced:\n" + withComet.queryExecution().executedPlan());
        // Comet's native converter's rows are not Spark's bytes: compare with its JVM transition.
        String nativeKey = "spark.comet.exec.columnarToRow.native.enabled";
        String nativeSetting = spark.conf().get(nativeKey, "false");
        spark.conf().set(nativeKey, "false");
        Dataset<Row> withCometJvm = spark.sql(sql);
        withCometJvm.collectAsList(); // the final plan, under adaptive execution
        spark.conf().set(nativeKey, nativeSetting);
        List<SparkPlan> cometTransitions = cometTransitions(withCometJvm);

        long sparkBatches = 0;
        for (int i = 0; i < replaced.size(); i++) {
          RowbridgeColumnarToRowExec ours = replaced.get(i);
          List<byte[]> ourRows = rowBytes(ours);
          List<byte[]> cometRows = rowBytes(cometTransitions.get(i));
          assertEquals(cometRows.size(), ourRows.size(), "rows of transition " + i);
          for (int row = 0; row < ourRows.size(); row++) {
            if (!Arrays.equals(cometRows.get(row), ourRows.get(row))) {
              throw new AssertionError(
                  "transition " + i + ", row " + row + ": rowbridge's bytes differ from Comet's");
            }
          }
          sparkBatches += ours.metrics().apply("numSparkBatches").value();
          assertTrue(ours.metrics().apply("numInputBatches").value() > 0, "batches read");
        }
        return new Checked(sparkBatches);
      } finally {
        spark.conf().unset(RowbridgeConf.ENABLED);
        spark.conf().unset(RowbridgeConf.PLACEMENT);
      }
    }

    private static List<SparkPlan> cometTransitions(Dataset<Row> query) {
      return nodes(query.queryExecution().executedPlan()).stream()
          .filter(node -> isCometTransition(node))
          .toList();
    }

    private SparkPlan plan(String sql, boolean rowbridge) {
      spark.conf().set(RowbridgeConf.ENABLED, Boolean.toString(rowbridge));
      try {
        return spark.sql(sql).queryExecution().executedPlan();
      } finally {
        spark.conf().unset(RowbridgeConf.ENABLED);
      }
    }
  }

  private static boolean isCometTransition(SparkPlan node) {
    String name = node.getClass().getName();
    return name.equals(COMET_TRANSITION) || name.equals(COMET_NATIVE_TRANSITION);
  }

  /** Every node of {@code plan}, depth first, through adaptive plans and query stages. */
  static List<SparkPlan> nodes(SparkPlan plan) {
    List<SparkPlan> nodes = new ArrayList<>();
    collect(plan, nodes);
    return nodes;
  }

  private static void collect(SparkPlan plan, List<SparkPlan> out) {
    if (plan instanceof AdaptiveSparkPlanExec adaptive) {
      collect(adaptive.executedPlan(), out);
    } else if (plan instanceof QueryStageExec stage) {
      collect(stage.plan(), out);
    } else {
      out.add(plan);
      for (SparkPlan child : CollectionConverters.asJava(plan.children())) {
        collect(child, out);
      }
    }
  }

  /** The rows a transition makes, run on its own, each as its bytes. */
  private static List<byte[]> rowBytes(SparkPlan transition) {
    return transition
        .execute()
        .toJavaRDD()
        .map(row -> ((UnsafeRow) row).copy().getBytes())
        .collect();
  }

  private static List<String> sorted(List<Row> rows) {
    List<String> strings = new ArrayList<>();
    for (Row row : rows) {
      strings.add(row.toString());
    }
    strings.sort(null);
    return strings;
  }
}
