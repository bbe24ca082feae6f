package io.rowbridge.bench;

import io.rowbridge.demo.Datasets;
import io.rowbridge.demo.Demo;
import io.rowbridge.spark.conf.RowbridgeConf;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.expressions.XXH64;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.metric.SQLMetric;
import scala.jdk.javaapi.CollectionConverters;

/**
 * TPC-H end to end (make bench-spark, java/rowbridge-bench/tpch.sh): the 22 TPC-H queries and
 * queries that materialise whole rows ({@link TpchQueries}) over the data tpch_data.py wrote, in
 * Spark local mode, each mode in a SparkSession of its own, all in one JVM:
 *
 * <ul>
 *   <li>{@code rowbridge}: format("rowbridge") columnar batches, rows by rowbridge's transition;
 *   <li>{@code spark-c2r}: the same batches, rows by Spark's own ColumnarToRow ({@code
 *       spark.rowbridge.columnarToRow.enabled=false});
 *   <li>{@code spark-c2r-aa}: exactly spark-c2r's configuration, timed as a mode of its own (an A/A
 *       twin: its ratio to spark-c2r is the noise);
 *   <li>{@code rows}: the source's row mode;
 *   <li>{@code parquet}: Spark's Parquet reader on a copy Spark wrote itself.
 * </ul>
 *
 * With Apache Comet (a JVM of their own: Comet's jar and rowbridge-comet on the class path,
 * arrow-c-data not; java/README.md, "With Apache Comet"), the modes read the Parquet copies with
 * Comet's native scans and operators:
 *
 * <ul>
 *   <li>{@code comet-rowbridge}: rowbridge's transitions where placement puts them;
 *   <li>{@code comet-jvm}: Comet's own JVM transition (its default);
 *   <li>{@code comet-jvm-aa}: comet-jvm's configuration again, the A/A twin;
 *   <li>{@code comet-direct}: Comet's direct Arrow to UnsafeRow converter;
 *   <li>{@code comet-native}: Comet's native converter.
 * </ul>
 *
 * Comet modes and the others cannot share a JVM; the Parquet copies come from a run with the {@code
 * parquet} mode.
 *
 * <p>Per query: one warm-up run per mode, then {@code --rounds} rounds of one run per mode, the
 * modes in turn, their order reversed every other round; the seconds are kept. Every run's answer
 * (rows sorted; doubles to 9 significant digits; a whole-row query's row count and a sum of
 * xxhash64 of every row's bytes) must be the same in every mode, else the run fails. The executed
 * plan's transition nodes give the transition's metrics of each timed run.
 *
 * <pre>
 * TpchBench --data DIR --scale SF [--rounds 5] [--modes m1,m2,...] [--queries q01,q02,...]
 *           [--master local[2]] [--nested-rows 100000] [--wide-rows 400000]
 *           [--comet-shuffle true|false] [--json FILE]
 * </pre>
 */
public final class TpchBench {
  static final List<String> TABLES =
      List.of("region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem");

  /**
   * Modes whose rows are not Spark's bytes (Comet's native converter): a whole-row query's digest
   * of theirs must count the same rows, and a differing hash is reported, not an error.
   */
  static final Set<String> NOT_SPARK_BYTES = Set.of("comet-native");

  static final String COMET_DIRECT = "spark.comet.exec.columnarToRow.direct.enabled";
  static final String COMET_NATIVE = "spark.comet.exec.columnarToRow.native.enabled";

  private final Map<String, String> options = new LinkedHashMap<>();
  private final PrintStream out = System.out;

  /** The options and their defaults, in pairs. */
  private static final String[] DEFAULTS = {
    "data",
    "build/tpch/sf1",
    "scale",
    "1",
    "rounds",
    "5",
    "modes",
    "rowbridge,spark-c2r,spark-c2r-aa,rows,parquet",
    "queries",
    "all",
    "master",
    "local[2]",
    "nested-rows",
    "100000",
    "wide-rows",
    "400000",
    "comet-shuffle",
    "true",
    "json",
    ""
  };

  private TpchBench(String[] args) {
    for (int i = 0; i < DEFAULTS.length; i += 2) {
      options.put(DEFAULTS[i], DEFAULTS[i + 1]);
    }
    Demo.parseOptions(options, args, "TpchBench");
  }

  public static void main(String[] args) throws Exception {
    new TpchBench(args).run();
  }

  /** A query's answer digest, its seconds per mode, and each timed run's transition metrics. */
  record Result(
      TpchQueries query,
      String answer,
      int answerLines,
      Map<String, List<Double>> seconds,
      Map<String, List<Transition>> transitions,
      List<String> bytesDiffer) {}

  /**
   * The transition nodes of an executed plan: rowbridge's (with its convertTime, nanoseconds) and
   * Spark's ColumnarToRowExec (no time metric), their rows and batches.
   */
  record Transition(
      int rowbridgeNodes,
      int sparkNodes,
      int cometNodes,
      long convertNanos,
      long rows,
      long batches) {}

  private void run() throws Exception {
    Path data = Path.of(options.get("data")).toAbsolutePath();
    List<String> modes = Arrays.asList(options.get("modes").split(","));
    int rounds = Integer.parseInt(options.get("rounds"));
    long nestedRows = Long.parseLong(options.get("nested-rows"));
    double scale = Double.parseDouble(options.get("scale"));
    if (!Files.exists(data.resolve("_tpch_data"))) {
      throw new IllegalStateException("no TPC-H data under " + data + " (tpch_data.py)");
    }
    prepareNested(data.resolve("nested"), nestedRows);
    long wideRows = Long.parseLong(options.get("wide-rows"));

    boolean comet = modes.stream().anyMatch(mode -> mode.startsWith("comet-"));
    if (comet && !modes.stream().allMatch(mode -> mode.startsWith("comet-"))) {
      throw new IllegalArgumentException("Comet modes run in a JVM of their own: " + modes);
    }
    if (comet
        && !(Files.exists(data.resolve("nested-parquet").resolve("_SUCCESS"))
            && Files.exists(data.resolve("wide-parquet").resolve("_SUCCESS")))) {
      throw new IllegalStateException(
          "no Parquet copies under " + data + ": run the parquet mode first (tpch.sh does)");
    }
    SparkSession base =
        comet
            ? cometSession(options.get("master"), options.get("comet-shuffle"))
            : Demo.localSession(options.get("master"), "rowbridge TPC-H");
    try {
      if (!comet) {
        prepareWide(base, data, wideRows);
      }
      if (modes.contains("parquet")) {
        prepareParquet(base, data);
      }
      Map<String, SparkSession> sessions = new LinkedHashMap<>();
      for (String mode : modes) {
        sessions.put(mode, session(base, mode, data));
      }
      List<TpchQueries> queries = new ArrayList<>();
      for (TpchQueries query : TpchQueries.all(scale, nestedRows)) {
        if (options.get("queries").equals("all")
            || Arrays.asList(options.get("queries").split(",")).contains(query.name())) {
          queries.add(query);
        }
      }
      out.printf(
          Locale.ROOT,
          "== TPC-H SF %s: Spark %s, %s, %d cores, JVM options %s; "
              + "modes %s; warm-up + %d interleaved rounds per query%n",
          options.get("scale"),
          base.version(),
          options.get("master"),
          Runtime.getRuntime().availableProcessors(),
          jvmOptions(),
          modes,
          rounds);
      List<Result> results = new ArrayList<>();
      for (TpchQueries query : queries) {
        results.add(runQuery(query, modes, sessions, rounds));
        if (!options.get("json").isEmpty()) {
          writeJson(Path.of(options.get("json")), results, modes, rounds);
        }
      }
    } finally {
      base.stop();
    }
  }

  /** The nested dataset of make run (Datasets.writeNested): two files, nestedRows in all. */
  private void prepareNested(Path dir, long rows) throws IOException {
    String manifest = "nested 2x" + (rows / 2) + ", seed " + Datasets.SEED + "\n";
    Path stamp = dir.resolveSibling("_nested");
    if (Files.exists(stamp) && Files.readString(stamp).equals(manifest)) {
      return;
    }
    Files.deleteIfExists(dir.resolveSibling("nested-parquet").resolve("_SUCCESS"));
    try (BufferAllocator allocator = new RootAllocator()) {
      Datasets.writeNested(dir, 2, rows / 2, allocator);
    }
    Files.writeString(stamp, manifest);
  }

  /**
   * The wide table: {@code rows} rows of 100 columns (an id, then 33 longs, 33 doubles and 33
   * strings of 4 to 20 bytes, a tenth of each null), written by Spark as {@code
   * format("rowbridge")} ({@code wide}) and as Parquet ({@code wide-parquet}), remade when the row
   * count changes.
   */
  private void prepareWide(SparkSession spark, Path data, long rows) throws IOException {
    String manifest = "wide " + rows + "\n";
    Path stamp = data.resolve("_wide");
    if (Files.exists(stamp) && Files.readString(stamp).equals(manifest)) {
      return;
    }
    List<String> columns = new ArrayList<>(List.of("id"));
    for (int i = 0; i < 33; i++) {
      String nullable = "IF(pmod(hash(id, " + i + "), 10) = 0, NULL, ";
      columns.add(nullable + "CAST(hash(id, " + (100 + i) + ") AS BIGINT) * 7919) AS l" + i);
      columns.add(nullable + "hash(id, " + (200 + i) + ") / 3.0D) AS d" + i);
      columns.add(
          nullable
              + "substr(concat('w', sha1(CAST(hash(id, "
              + (300 + i)
              + ") AS STRING))), 1, 4 + pmod(hash(id, "
              + (400 + i)
              + "), 17))) AS s"
              + i);
    }
    long start = System.nanoTime();
    Dataset<Row> wide = spark.range(0, rows, 1, 4).selectExpr(columns.toArray(new String[0]));
    wide.write().mode("overwrite").format("rowbridge").save(data.resolve("wide").toString());
    wide.write().mode("overwrite").parquet(data.resolve("wide-parquet").toString());
    Files.writeString(stamp, manifest);
    out.printf(
        Locale.ROOT,
        "-- Spark wrote the wide table (%d rows) in %.1f s%n",
        rows,
        (System.nanoTime() - start) / 1e9);
  }

  /**
   * Spark's own Parquet copies: each generated table read with Spark's Parquet reader and written
   * again by Spark; the nested dataset read through rowbridge and written by Spark.
   */
  private void prepareParquet(SparkSession spark, Path data) throws IOException {
    for (String table : TABLES) {
      Path copy = data.resolve("spark-parquet").resolve(table);
      if (!Files.exists(copy.resolve("_SUCCESS"))) {
        long start = System.nanoTime();
        spark
            .read()
            .parquet(data.resolve("generated").resolve(table + ".parquet").toString())
            .write()
            .mode("overwrite")
            .parquet(copy.toString());
        out.printf(
            Locale.ROOT,
            "-- Spark wrote %s as Parquet in %.1f s%n",
            table,
            (System.nanoTime() - start) / 1e9);
      }
    }
    Path nested = data.resolve("nested-parquet");
    if (!Files.exists(nested.resolve("_SUCCESS"))) {
      spark
          .read()
          .format("rowbridge")
          .load(data.resolve("nested").toString())
          .write()
          .mode("overwrite")
          .parquet(nested.toString());
    }
  }

  /**
   * The Comet modes' base session: Comet's plugin, extension and shuffle manager (off-heap memory
   * as Comet needs it) beside rowbridge's extension, otherwise as {@link Demo#localSession};
   * Comet's shuffle on or off ({@code spark.comet.shuffle.enabled}).
   */
  private static SparkSession cometSession(String master, String shuffle) {
    return Demo.start(
        Demo.localBuilder(master, "rowbridge TPC-H with Comet")
            .config("spark.plugins", "org.apache.spark.CometPlugin")
            .config(
                "spark.sql.extensions",
                "io.rowbridge.spark.RowbridgeExtensions,org.apache.comet.CometSparkSessionExtensions")
            .config(
                "spark.shuffle.manager",
                "org.apache.spark.sql.comet.execution.shuffle.CometShuffleManager")
            .config("spark.comet.enabled", "true")
            .config("spark.comet.exec.enabled", "true")
            .config("spark.comet.shuffle.enabled", shuffle)
            .config("spark.memory.offHeap.enabled", "true")
            .config("spark.memory.offHeap.size", "4g"));
  }

  /** A SparkSession of its own per mode: the tables as temporary views, the transition's switch. */
  private static SparkSession session(SparkSession base, String mode, Path data) {
    SparkSession session = base.newSession();
    session.conf().set(RowbridgeConf.ENABLED, String.valueOf(!mode.startsWith("spark-c2r")));
    if (mode.startsWith("comet-")) {
      // Comet's transition of the mode; rowbridge's rule on in comet-rowbridge only.
      session.conf().set(RowbridgeConf.ENABLED, String.valueOf(mode.equals("comet-rowbridge")));
      session.conf().set(COMET_DIRECT, String.valueOf(mode.equals("comet-direct")));
      session.conf().set(COMET_NATIVE, String.valueOf(mode.equals("comet-native")));
    }
    List<String> tables = new ArrayList<>(TABLES);
    tables.add("nested");
    tables.add("wide");
    for (String table : tables) {
      Dataset<Row> frame;
      boolean extra = table.equals("nested") || table.equals("wide");
      if (mode.equals("parquet") || mode.startsWith("comet-")) {
        frame =
            session
                .read()
                .parquet(
                    (extra
                            ? data.resolve(table + "-parquet")
                            : data.resolve("spark-parquet").resolve(table))
                        .toString());
      } else {
        frame =
            session
                .read()
                .format("rowbridge")
                .option("mode", mode.equals("rows") ? "rows" : "auto")
                .load(
                    (extra ? data.resolve(table) : data.resolve("arrow").resolve(table))
                        .toString());
      }
      frame.createOrReplaceTempView(table);
    }
    return session;
  }

  private Result runQuery(
      TpchQueries query, List<String> modes, Map<String, SparkSession> sessions, int rounds) {
    Map<String, List<Double>> seconds = new LinkedHashMap<>();
    Map<String, List<Transition>> transitions = new LinkedHashMap<>();
    String[] reference = new String[2]; // the first answer's digest and mode
    String[] referenceLine = new String[1]; // and its first line
    // The whole-row digests of modes whose rows are not Spark's bytes: mode and digest line.
    List<String[]> otherBytes = new ArrayList<>();
    int[] lines = new int[1];
    for (String mode : modes) {
      seconds.put(mode, new ArrayList<>());
      transitions.put(mode, new ArrayList<>());
    }
    for (int round = -1; round < rounds; round++) {
      List<String> order = new ArrayList<>(modes);
      if (round % 2 != 0) { // the warm-up (-1) and odd rounds run the modes in reverse
        Collections.reverse(order);
      }
      for (String mode : order) {
        long start = System.nanoTime();
        Run run = execute(sessions.get(mode), query);
        double elapsed = (System.nanoTime() - start) / 1e9;
        String digest = sha256(run.answer());
        if (query.digest() && NOT_SPARK_BYTES.contains(mode)) {
          otherBytes.add(new String[] {mode, run.answer().get(0)});
        } else if (reference[0] == null) {
          reference[0] = digest;
          reference[1] = mode;
          lines[0] = run.answer().size();
          referenceLine[0] = run.answer().get(0);
        } else if (!reference[0].equals(digest)) {
          throw new IllegalStateException(
              "answers differ for "
                  + query.name()
                  + ": "
                  + reference[1]
                  + " and "
                  + mode
                  + " ("
                  + mode
                  + ": "
                  + preview(run.answer())
                  + ")");
        }
        if (round >= 0) {
          seconds.get(mode).add(elapsed);
          transitions.get(mode).add(run.transition());
        }
      }
    }
    // Their rows must be as many as the others'; their bytes may differ (reported).
    Set<String> bytesDiffer = new java.util.TreeSet<>();
    for (String[] other : otherBytes) {
      String rows = other[1].substring(0, other[1].indexOf(','));
      if (referenceLine[0] == null || !referenceLine[0].startsWith(rows + ",")) {
        throw new IllegalStateException(
            "answers differ for " + query.name() + ": " + other[0] + " gave " + other[1]);
      }
      if (!referenceLine[0].equals(other[1])) {
        bytesDiffer.add(other[0]);
      }
    }
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "   %-22s", query.name()));
    for (String mode : modes) {
      line.append(String.format(Locale.ROOT, " %s %.3f", mode, Collections.min(seconds.get(mode))));
    }
    if (!bytesDiffer.isEmpty()) {
      line.append(" (rows not Spark's bytes: ").append(String.join(", ", bytesDiffer)).append(')');
    }
    out.println(line);
    return new Result(
        query, reference[0], lines[0], seconds, transitions, List.copyOf(bytesDiffer));
  }

  record Run(List<String> answer, Transition transition) {}

  /** Runs the query once: its answer (sorted lines) and the executed plan's transitions. */
  private static Run execute(SparkSession session, TpchQueries query) {
    Dataset<Row> frame = session.sql(query.sql());
    QueryExecution execution = ((org.apache.spark.sql.classic.Dataset<Row>) frame).queryExecution();
    List<String> answer = new ArrayList<>();
    if (query.digest()) {
      long rows = 0;
      long hash = 0;
      for (long[] part : execution.toRdd().toJavaRDD().mapPartitions(new RowDigest()).collect()) {
        rows += part[0];
        hash += part[1];
      }
      answer.add("rows " + rows + ", sum of xxhash64 " + hash);
    } else {
      answer.add(String.join(" | ", frame.columns()));
      List<String> rows = new ArrayList<>();
      for (Row row : frame.collectAsList()) {
        rows.add(format(row));
      }
      Collections.sort(rows);
      answer.addAll(rows);
    }
    return new Run(answer, transitions(execution.executedPlan()));
  }

  /** Per partition: the number of rows and the sum of xxhash64 over each UnsafeRow's bytes. */
  static final class RowDigest implements FlatMapFunction<Iterator<InternalRow>, long[]> {
    private static final long serialVersionUID = 1L;

    @Override
    public Iterator<long[]> call(Iterator<InternalRow> rows) {
      long count = 0;
      long hash = 0;
      while (rows.hasNext()) {
        InternalRow row = rows.next();
        if (!(row instanceof UnsafeRow unsafe)) {
          throw new IllegalStateException("not an UnsafeRow: " + row.getClass().getName());
        }
        count++;
        hash +=
            XXH64.hashUnsafeBytes(
                unsafe.getBaseObject(), unsafe.getBaseOffset(), unsafe.getSizeInBytes(), 42L);
      }
      return List.of(new long[] {count, hash}).iterator();
    }
  }

  /** A row as text; doubles and floats to 9 significant digits (sums in any order agree). */
  private static String format(Row row) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < row.length(); i++) {
      Object value = row.get(i);
      text.append(i == 0 ? "" : " | ");
      if (value instanceof Double || value instanceof Float) {
        text.append(String.format(Locale.ROOT, "%.9g", ((Number) value).doubleValue()));
      } else if (value instanceof BigDecimal decimal) {
        text.append(decimal.toPlainString());
      } else {
        text.append(value);
      }
    }
    return text.toString();
  }

  /** The executed plan's transitions, AQE's stages and subqueries included, each once. */
  static Transition transitions(SparkPlan root) {
    int[] nodes = new int[3];
    long[] sums = new long[3];
    Set<SparkPlan> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    List<SparkPlan> stack = new ArrayList<>(List.of(root));
    while (!stack.isEmpty()) {
      SparkPlan plan = stack.remove(stack.size() - 1);
      if (!seen.add(plan)) {
        continue;
      }
      String name = plan.getClass().getSimpleName();
      if (name.equals("RowbridgeColumnarToRowExec")
          || name.equals("ColumnarToRowExec")
          || name.equals("CometColumnarToRowExec")
          || name.equals("CometNativeColumnarToRowExec")) {
        nodes[name.startsWith("Rowbridge") ? 0 : name.startsWith("Comet") ? 2 : 1]++;
        sums[0] += metric(plan, "convertTime");
        sums[1] += metric(plan, "numOutputRows");
        sums[2] += metric(plan, "numInputBatches");
      }
      if (plan instanceof AdaptiveSparkPlanExec adaptive) {
        stack.add(adaptive.executedPlan());
      } else if (plan instanceof QueryStageExec stage) {
        stack.add(stage.plan());
      }
      stack.addAll(CollectionConverters.asJava(plan.children()));
      for (Object subquery : CollectionConverters.asJava(plan.subqueries())) {
        stack.add((SparkPlan) subquery);
      }
    }
    return new Transition(nodes[0], nodes[1], nodes[2], sums[0], sums[1], sums[2]);
  }

  private static long metric(SparkPlan plan, String name) {
    scala.Option<SQLMetric> metric = plan.metrics().get(name);
    return metric.isDefined() ? metric.get().value() : 0;
  }

  private static String preview(List<String> answer) {
    return String.join(" / ", answer.subList(0, Math.min(answer.size(), 4)))
        + (answer.size() > 4 ? " / ... (" + answer.size() + " lines)" : "");
  }

  private static String sha256(List<String> lines) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (String line : lines) {
        digest.update(line.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) '\n');
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String jvmOptions() {
    List<String> arrow = new ArrayList<>();
    for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (argument.startsWith("-Darrow.") || argument.startsWith("-Xmx")) {
        arrow.add(argument);
      }
    }
    return arrow.isEmpty() ? "(default)" : String.join(" ", arrow);
  }

  private void writeJson(Path file, List<Result> results, List<String> modes, int rounds)
      throws IOException {
    StringBuilder json = new StringBuilder();
    json.append("{\"scale_factor\":")
        .append(options.get("scale"))
        .append(",\"master\":\"")
        .append(options.get("master"))
        .append("\",\"cores\":")
        .append(Runtime.getRuntime().availableProcessors())
        .append(",\"jvm_options\":\"")
        .append(jvmOptions())
        .append("\",\"rounds\":")
        .append(rounds)
        .append(",\"modes\":[")
        .append(quoted(modes))
        .append("],\"queries\":[");
    for (int q = 0; q < results.size(); q++) {
      Result result = results.get(q);
      json.append(q == 0 ? "\n" : ",\n")
          .append("{\"name\":\"")
          .append(result.query().name())
          .append("\",\"whole_row\":")
          .append(result.query().wholeRow())
          .append(",\"answer_sha256\":\"")
          .append(result.answer())
          .append("\",\"answer_lines\":")
          .append(result.answerLines())
          .append(",\"rows_not_spark_bytes\":[")
          .append(quoted(result.bytesDiffer()))
          .append(']')
          .append(",\"seconds\":{");
      String separator = "";
      for (String mode : modes) {
        json.append(separator)
            .append('"')
            .append(mode)
            .append("\":")
            .append(result.seconds().get(mode));
        separator = ",";
      }
      json.append("},\"transitions\":{");
      separator = "";
      for (String mode : modes) {
        json.append(separator).append('"').append(mode).append("\":[");
        String inner = "";
        for (Transition t : result.transitions().get(mode)) {
          json.append(inner)
              .append(
                  String.format(
                      Locale.ROOT,
                      "{\"rowbridge_nodes\":%d,\"spark_nodes\":%d,\"comet_nodes\":%d,"
                          + "\"convert_time_ns\":%d,\"rows\":%d,\"batches\":%d}",
                      t.rowbridgeNodes(),
                      t.sparkNodes(),
                      t.cometNodes(),
                      t.convertNanos(),
                      t.rows(),
                      t.batches()));
          inner = ",";
        }
        json.append(']');
        separator = ",";
      }
      json.append("}}");
    }
    json.append("\n]}\n");
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, json.toString());
  }

  private static String quoted(List<String> values) {
    StringBuilder text = new StringBuilder();
    for (String value : values) {
      text.append(text.length() == 0 ? "" : ",").append('"').append(value).append('"');
    }
    return text.toString();
  }
}
