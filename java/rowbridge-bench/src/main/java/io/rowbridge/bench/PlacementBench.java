package io.rowbridge.bench;

import io.rowbridge.demo.Datasets;
import io.rowbridge.demo.Demo;
import io.rowbridge.spark.conf.RowbridgeConf;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.spark.sql.SparkSession;

/**
 * The measurements behind the transition's placement (java/README.md, "Placement"): plan shapes
 * that differ in what consumes the transition's rows (whole rows leaving the stage, an aggregation
 * reading a few columns, a filter before whole rows leave) over fixed-width, string and nested
 * columns, each with rowbridge's transition and with Spark's, in one JVM.
 *
 * <p>Method: one warm-up run per mode, then {@code rounds} rounds in which the modes take turns,
 * their order reversed every other round; seconds are the best of the rounds. The mode {@code
 * spark-aa} is Spark's transition timed a second time, as a separate mode: its ratio to {@code
 * spark} is the noise a difference must exceed.
 *
 * <pre>
 * PlacementBench [--data DIR] [--record-rows ROWS_PER_FILE] [--nested-rows ROWS] [--rounds R]
 *                [--cases NAME,...]
 * </pre>
 */
public final class PlacementBench {
  /** A plan shape: its SQL over {@code record} or {@code nested}, and whether rows go to a sink. */
  record Case(String name, String sql, boolean sink) {}

  static final List<Case> CASES =
      List.of(
          new Case("fixed: rows out", "SELECT a, b, c FROM record", true),
          new Case(
              "fixed: aggregate", "SELECT b % 100, sum(a), max(c) FROM record GROUP BY 1", false),
          new Case("fixed: filter 1% out", "SELECT a, b, c FROM record WHERE b < 10000", true),
          new Case("fixed: filter 50% out", "SELECT a, b, c FROM record WHERE b < 500000", true),
          new Case("string: rows out", "SELECT * FROM record", true),
          new Case("string: shuffle", "SELECT * FROM record DISTRIBUTE BY b", true),
          new Case(
              "string: aggregate", "SELECT b % 100, max(d), sum(a) FROM record GROUP BY 1", false),
          new Case("string: filter 1% out", "SELECT * FROM record WHERE b < 10000", true),
          new Case("string: filter 50% out", "SELECT * FROM record WHERE b < 500000", true),
          new Case(
              "string: selective filter top 8",
              "SELECT a, b, round(c, 3) AS c, d FROM record WHERE d LIKE '%77777' AND b < 500000 "
                  + "ORDER BY a LIMIT 8",
              false),
          new Case("fixed: join 5% match out", joinSql("r.a, r.b, r.c", "record", "b", 20), true),
          new Case("string: join 5% match out", joinSql("r.*", "record", "b", 20), true),
          new Case("string: join all match out", joinSql("r.*", "record", "b", 1), true),
          new Case("nested: rows out", "SELECT * FROM nested", true),
          new Case(
              "nested: aggregate",
              "SELECT id % 10, sum(size(ints)), max(s.b), sum(tags['k1']) FROM nested GROUP BY 1",
              false),
          new Case("nested: filter 1% out", "SELECT * FROM nested WHERE id % 100 = 0", true),
          new Case("nested: filter 10% out", "SELECT * FROM nested WHERE id % 10 = 0", true),
          new Case("nested: filter 50% out", "SELECT * FROM nested WHERE id % 2 = 0", true),
          new Case("nested: join 5% match out", joinSql("r.*", "nested", "id", 20), true));

  /**
   * A broadcast hash join whose streamed side is the transition's rows and whose build side is
   * every {@code step}-th key of 0..1 000 000 (so 1/step of the record rows match, and of nested
   * ids below that bound); {@code columns} of the streamed side leave as the join's rows.
   */
  private static String joinSql(String columns, String table, String key, int step) {
    return "SELECT /*+ BROADCAST(k) */ "
        + columns
        + " FROM "
        + table
        + " r JOIN (SELECT id FROM "
        + "range(0, 1000000, "
        + step
        + ")) k ON r."
        + key
        + " = k.id";
  }

  static final List<String> MODES = List.of("rowbridge", "spark", "spark-aa");

  private final Map<String, String> options = new LinkedHashMap<>();

  private PlacementBench(String[] args) {
    options.put("data", "build/placement");
    options.put("record-rows", "2000000");
    options.put("nested-rows", "400000");
    options.put("rounds", "5");
    options.put("cases", "");
    Demo.parseOptions(options, args, "PlacementBench");
  }

  public static void main(String[] args) throws Exception {
    new PlacementBench(args).run();
  }

  private void run() throws Exception {
    Path data = Path.of(options.get("data")).toAbsolutePath();
    int recordRows = Integer.parseInt(options.get("record-rows"));
    int nestedRows = Integer.parseInt(options.get("nested-rows"));
    int rounds = Integer.parseInt(options.get("rounds"));
    String stamp = "record 2x" + recordRows + ", nested 1x" + nestedRows + "\n";
    Path stampFile = data.resolve("_placement_datasets");
    if (!Files.exists(stampFile) || !Files.readString(stampFile).equals(stamp)) {
      try (BufferAllocator allocator = new RootAllocator()) {
        Datasets.writeRecord(data.resolve("record"), 2, recordRows, allocator);
        Datasets.writeNested(data.resolve("nested"), 1, nestedRows, allocator);
      }
      Files.writeString(stampFile, stamp);
    }
    SparkSession spark = Demo.localSession("local[2]", "rowbridge placement");
    try {
      for (String table : List.of("record", "nested")) {
        spark
            .read()
            .format("rowbridge")
            .load(data.resolve(table).toString())
            .createOrReplaceTempView(table);
      }
      List<String> selected =
          options.get("cases").isEmpty()
              ? List.of()
              : Arrays.asList(options.get("cases").split(","));
      System.out.printf(
          Locale.ROOT,
          "%-24s %10s %10s %10s %16s %8s%n",
          "case",
          "rowbridge",
          "spark",
          "spark-aa",
          "spark/rowbridge",
          "A/A");
      for (Case c : CASES) {
        if (!selected.isEmpty() && !selected.contains(c.name())) {
          continue;
        }
        double[] best = time(spark, c, rounds);
        System.out.printf(
            Locale.ROOT,
            "%-24s %10.3f %10.3f %10.3f %16.2f %8.2f%n",
            c.name(),
            best[0],
            best[1],
            best[2],
            best[1] / best[0],
            best[2] / best[1]);
      }
    } finally {
      spark.stop();
    }
  }

  /** Best seconds per mode (MODES order), after a warm-up run of each; answers must agree. */
  private static double[] time(SparkSession spark, Case c, int rounds) {
    double[] best = new double[MODES.size()];
    Arrays.fill(best, Double.MAX_VALUE);
    List<String> reference = null;
    for (int round = -1; round < rounds; round++) {
      List<String> order = new ArrayList<>(MODES);
      if (round % 2 != 0) {
        java.util.Collections.reverse(order);
      }
      for (String mode : order) {
        spark.conf().set(RowbridgeConf.PLACEMENT, mode.equals("rowbridge") ? "rowbridge" : "spark");
        long start = System.nanoTime();
        List<String> answer = run(spark, c);
        double seconds = (System.nanoTime() - start) / 1e9;
        if (reference == null) {
          reference = answer;
        } else if (!reference.equals(answer)) {
          throw new IllegalStateException(c.name() + ": answers differ in mode " + mode);
        }
        if (round >= 0) {
          int index = MODES.indexOf(mode);
          best[index] = Math.min(best[index], seconds);
        }
      }
    }
    spark.conf().unset(RowbridgeConf.PLACEMENT);
    return best;
  }

  private static List<String> run(SparkSession spark, Case c) {
    List<String> answer = new ArrayList<>();
    if (c.sink()) {
      spark.sql(c.sql()).write().format("noop").mode("overwrite").save();
      return answer;
    }
    spark.sql(c.sql()).collectAsList().forEach(row -> answer.add(row.toString()));
    answer.sort(null);
    return answer;
  }
}
