package io.rowbridge.demo;

import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.conf.RowbridgeConf;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The end-to-end demonstration ({@code make run}): Arrow IPC datasets ({@link Datasets}) queried in
 * Spark local mode through {@code format("rowbridge")}, in each of the ways rowbridge reads them,
 * and through Spark's Parquet reader over a copy Spark wrote itself, in one JVM.
 *
 * <pre>
 * Demo [--data DIR] [--master local[2]] [--record-files N] [--record-rows ROWS_PER_FILE]
 *      [--nested-files N] [--nested-rows ROWS_PER_FILE] [--runs R]
 *      [--suite demo|data] [--variants v1,v2,...]
 * </pre>
 *
 * {@code --suite data} writes the datasets alone (the benchmarks that read them). Variants: {@code
 * rowbridge} (columnar batches, rows by rowbridge's columnar-to-row operator), {@code spark-c2r}
 * (columnar batches, rows by Spark's own ColumnarToRow), {@code rows} (the source's row mode:
 * UnsafeRows converted in the native stream's workers), {@code parquet} (Spark's vectorized Parquet
 * reader). Every variant must give the same answers.
 *
 * <p>The data source benchmark ({@code io.rowbridge.bench.SourceBench}) runs its own queries the
 * same way: {@link #options}, then {@link #compare}.
 */
public final class Demo {
  private final Map<String, String> options;
  private final PrintStream out = System.out;

  /** A demonstration of {@code options}: {@link #options}' names, set. */
  public Demo(Map<String, String> options) {
    this.options = options;
  }

  /** The options of a run and their defaults, in a map of the caller's to change. */
  public static Map<String, String> options() {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("data", "build/demo");
    options.put("master", "local[2]");
    options.put("record-files", "4");
    options.put("record-rows", "2000000");
    options.put("nested-files", "2");
    options.put("nested-rows", "250000");
    options.put("runs", "3");
    options.put("variants", "rowbridge,spark-c2r,rows,parquet");
    return options;
  }

  /** Sets {@code options} (their defaults) from {@code --NAME VALUE} pairs. */
  public static void parseOptions(Map<String, String> options, String[] args, String program) {
    for (int i = 0; i < args.length; i += 2) {
      String name = args[i].replaceFirst("^--", "");
      if (!options.containsKey(name) || i + 1 >= args.length) {
        throw new IllegalArgumentException(
            "usage: "
                + program
                + " [--NAME VALUE]... with NAME "
                + "one of "
                + options.keySet()
                + " (got "
                + args[i]
                + ")");
      }
      options.put(name, args[i + 1]);
    }
  }

  /** A local-mode session with rowbridge's extensions, no UI, UTC, 8 shuffle partitions. */
  public static SparkSession localSession(String master, String appName) {
    return start(localBuilder(master, appName));
  }

  /** The builder of {@link #localSession}, for sessions that add settings. */
  public static SparkSession.Builder localBuilder(String master, String appName) {
    return SparkSession.builder()
        .master(master)
        .appName(appName)
        .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
        .config("spark.ui.enabled", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "8");
  }

  /** The builder's session, logging warnings and errors only. */
  public static SparkSession start(SparkSession.Builder builder) {
    SparkSession spark = builder.getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    return spark;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = options();
    options.put("suite", "demo");
    parseOptions(options, args, "Demo");
    String suite = options.remove("suite");
    Demo demo = new Demo(options);
    switch (suite) {
      case "demo" -> demo.compare("demo", Query.demo(), true);
      case "data" -> demo.prepareArrow(); // the datasets alone (make bench-python, cache-bench.sh)
      default -> throw new IllegalArgumentException("--suite demo or data, not " + suite);
    }
  }

  private int integer(String name) {
    return Integer.parseInt(options.get(name));
  }

  private Path data() {
    return Path.of(options.get("data")).toAbsolutePath();
  }

  /** The rows of the record dataset. */
  public long recordRows() {
    return (long) integer("record-files") * integer("record-rows");
  }

  /**
   * Writes the datasets (unless there), then runs each query in each variant, the variants taking
   * turns, and prints the table of times ({@code title} names the run); prints each query's answer
   * with {@code printAnswers}. Without nested files, the queries read the record dataset alone.
   */
  public List<Result> compare(String title, List<Query> queries, boolean printAnswers)
      throws IOException {
    Path data = data();
    boolean withNested = integer("nested-files") > 0;
    List<String> variants = Arrays.asList(options.get("variants").split(","));
    Path record = data.resolve("record");
    Path nested = data.resolve("nested");
    prepareArrow();

    SparkSession spark = localSession(options.get("master"), "rowbridge " + title);
    try {
      if (variants.contains("parquet")) {
        prepareParquet(spark, data, record, nested, withNested);
      }
      out.printf(
          Locale.ROOT,
          "== rowbridge %s: Spark %s, %s, %d cores; data in %s%n",
          title,
          spark.version(),
          options.get("master"),
          Runtime.getRuntime().availableProcessors(),
          data);
      out.printf(
          Locale.ROOT,
          "   record: %d files, %,d rows, %s of Arrow IPC",
          integer("record-files"),
          recordRows(),
          size(record));
      if (withNested) {
        out.printf(
            Locale.ROOT,
            "; nested: %d files, %,d rows, %s",
            integer("nested-files"),
            (long) integer("nested-files") * integer("nested-rows"),
            size(nested));
      }
      out.println();
      List<Result> results = new ArrayList<>();
      for (Query query : queries) {
        results.add(runQuery(spark, query, variants, data, printAnswers));
      }
      printTable(results, variants);
      return results;
    } finally {
      spark.stop();
    }
  }

  /** Writes the Arrow datasets unless a previous run left them with the same sizes. */
  private void prepareArrow() throws IOException {
    Path data = data();
    String manifest =
        "record "
            + options.get("record-files")
            + "x"
            + options.get("record-rows")
            + ", nested "
            + options.get("nested-files")
            + "x"
            + options.get("nested-rows")
            + ", seed "
            + Datasets.SEED
            + "\n";
    Path stamp = data.resolve("_arrow_datasets");
    if (Files.exists(stamp) && Files.readString(stamp).equals(manifest)) {
      return;
    }
    deleteTree(data);
    Files.createDirectories(data);
    long start = System.nanoTime();
    try (BufferAllocator allocator = new RootAllocator()) {
      Datasets.writeRecord(
          data.resolve("record"), integer("record-files"), integer("record-rows"), allocator);
      if (integer("nested-files") > 0) {
        Datasets.writeNested(
            data.resolve("nested"), integer("nested-files"), integer("nested-rows"), allocator);
      }
    }
    Files.writeString(stamp, manifest);
    out.printf(
        Locale.ROOT,
        "-- wrote the Arrow IPC datasets (%s) in %.1f s%n",
        manifest.trim(),
        (System.nanoTime() - start) / 1e9);
  }

  /** Spark writes its own Parquet copy of each dataset, read from the Arrow files by rowbridge. */
  private void prepareParquet(
      SparkSession spark, Path data, Path record, Path nested, boolean withNested)
      throws IOException {
    List<Path[]> copies = new ArrayList<>();
    copies.add(new Path[] {record, data.resolve("record-parquet")});
    if (withNested) {
      copies.add(new Path[] {nested, data.resolve("nested-parquet")});
    }
    for (Path[] copy : copies) {
      if (Files.exists(copy[1].resolve("_SUCCESS"))) {
        continue;
      }
      long start = System.nanoTime();
      spark
          .read()
          .format("rowbridge")
          .load(copy[0].toString())
          .write()
          .mode("overwrite")
          .parquet(copy[1].toString());
      out.printf(
          Locale.ROOT,
          "-- Spark wrote %s as Parquet (%s) in %.1f s%n",
          data.relativize(copy[0]),
          size(copy[1]),
          (System.nanoTime() - start) / 1e9);
    }
  }

  /** A query's answer and its times per variant, sorted. */
  public record Result(Query query, List<String> answer, Map<String, double[]> seconds) {}

  /**
   * Runs the query {@code runs} times per variant, the variants taking turns (so that warm-up and
   * the machine's noise fall on all of them alike); keeps every time, sorted.
   */
  private Result runQuery(
      SparkSession spark, Query query, List<String> variants, Path data, boolean print) {
    Map<String, double[]> seconds = new LinkedHashMap<>();
    Map<String, List<String>> answers = new LinkedHashMap<>();
    int runs = integer("runs");
    for (String variant : variants) {
      register(spark, variant, data, query);
      seconds.put(variant, new double[runs]);
    }
    for (int run = 0; run < runs; run++) {
      for (String variant : variants) {
        spark.conf().set(RowbridgeConf.ENABLED, String.valueOf(!variant.equals("spark-c2r")));
        long start = System.nanoTime();
        List<String> answer = query.run(spark, variant.replace('-', '_'));
        seconds.get(variant)[run] = (System.nanoTime() - start) / 1e9;
        answers.put(variant, answer);
      }
    }
    spark.conf().set(RowbridgeConf.ENABLED, "true");
    List<String> reference = answers.get(variants.get(0));
    for (String variant : variants) {
      Arrays.sort(seconds.get(variant));
      if (!answers.get(variant).equals(reference)) {
        throw new IllegalStateException(
            "answers differ for "
                + query.name()
                + ": "
                + variants.get(0)
                + " "
                + reference
                + " vs "
                + variant
                + " "
                + answers.get(variant));
      }
    }
    if (print) {
      out.println();
      out.println(
          "-- "
              + query.name()
              + ": "
              + query.sql().replace("{record}", "record").replace("{nested}", "nested"));
      for (String line : reference) {
        out.println("   " + line);
      }
    }
    return new Result(query, reference, seconds);
  }

  private static void register(SparkSession spark, String variant, Path data, Query query) {
    for (String table : List.of("record", "nested")) {
      if (!query.sql().contains("{" + table + "}")) {
        continue;
      }
      Dataset<Row> frame =
          variant.equals("parquet")
              ? spark.read().parquet(data.resolve(table + "-parquet").toString())
              : spark
                  .read()
                  .format("rowbridge")
                  .option("mode", variant.equals("rows") ? "rows" : "auto")
                  .load(data.resolve(table).toString());
      frame.createOrReplaceTempView(table + "_" + variant.replace('-', '_'));
    }
  }

  private void printTable(List<Result> results, List<String> variants) {
    out.println();
    out.printf(
        Locale.ROOT,
        "-- timings: seconds, best of %s runs (ratio to Parquet)%n",
        options.get("runs"));
    StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "   %-22s", "query"));
    for (String variant : variants) {
      header.append(String.format(Locale.ROOT, " %20s", Variant.label(variant)));
    }
    out.println(header);
    for (Result result : results) {
      StringBuilder line =
          new StringBuilder(String.format(Locale.ROOT, "   %-22s", result.query().name()));
      double[] parquet = result.seconds().get("parquet");
      for (String variant : variants) {
        double best = result.seconds().get(variant)[0];
        String cell =
            parquet == null || variant.equals("parquet")
                ? String.format(Locale.ROOT, "%.2f", best)
                : String.format(Locale.ROOT, "%.2f (%.2fx)", best, best / parquet[0]);
        line.append(String.format(Locale.ROOT, " %20s", cell));
      }
      out.println(line);
    }
    out.println("   " + Variant.legend(variants));
  }

  /** The bytes of the files under {@code dir}, in MiB. */
  public static String size(Path dir) throws IOException {
    long bytes;
    try (Stream<Path> files = Files.walk(dir)) {
      bytes = files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
    return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
  }

  /** Deletes {@code dir} and everything under it, if it exists. */
  public static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path path : files.sorted((x, y) -> y.compareTo(x)).toList()) {
        Files.delete(path);
      }
    }
  }
}
