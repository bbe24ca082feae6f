package io.rowbridge.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.RDDInfo;
import org.apache.spark.storage.StorageLevel;

/**
 * One mode of the cache benchmark of {@code make bench-spark} (docs/BENCHMARKS.md, "Cache"), in a
 * JVM of its own: the cache serializer is a static setting, so {@code cache-bench.sh} starts a JVM
 * per mode and alternates them. Modes:
 *
 * <ul>
 *   <li>{@code spark}, and {@code spark-aa} (the same, its A/A twin): Spark's default serializer
 *       with its default settings (its own compression schemes on);
 *   <li>{@code spark-plain}: Spark's serializer with {@code
 *       spark.sql.inMemoryColumnarStorage.compressed=false};
 *   <li>{@code rowbridge-none}, {@code rowbridge-lz4}, {@code rowbridge-zstd}: rowbridge's {@code
 *       ArrowCachedBatchSerializer}, uncompressed, with LZ4 and with zstd; {@code rowbridge}: with
 *       its default.
 * </ul>
 *
 * <p>Per dataset (TPC-H lineitem from tpchgen-cli's Parquet, and make run's nested dataset from its
 * Arrow files): the time to read the source into Spark's noop sink (the part of a build that is the
 * same in every mode; after a warm-up), a warm-up build, then the timed build ({@code
 * persist(MEMORY_ONLY)} and {@code count()}), the size the block manager reports, and three queries
 * over the cache (an aggregate, a selective filter, and every column of every row into Spark's noop
 * sink), each run once to warm up and then {@code runs} times. Appends one JSON line per dataset to
 * {@code --json}.
 *
 * <pre>
 * CacheBench --mode MODE --lineitem FILE --nested DIR [--runs 3] [--json FILE] [--conf k=v,...]
 * </pre>
 */
public final class CacheBench {
  private static final List<String> MODES =
      List.of(
          "spark",
          "spark-aa",
          "spark-plain",
          "rowbridge",
          "rowbridge-none",
          "rowbridge-lz4",
          "rowbridge-zstd");

  private CacheBench() {}

  /** One dataset: where it is read from, and its three queries over the cached view t. */
  private record Case(String name, String format, String path, Map<String, String> queries) {}

  public static void main(String[] args) throws IOException {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("runs", "3");
    options.put("json", "");
    options.put("master", "local[2]");
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    String mode = options.get("mode");
    if (!MODES.contains(mode)) {
      throw new IllegalArgumentException("--mode must be one of " + MODES + ", not " + mode);
    }
    int runs = Integer.parseInt(options.get("runs"));
    List<Case> cases =
        List.of(
            new Case(
                "lineitem",
                "parquet",
                options.get("lineitem"),
                queries(
                    "SELECT l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice),"
                        + " avg(l_discount), count(*) FROM t GROUP BY l_returnflag,"
                        + " l_linestatus",
                    "SELECT * FROM t WHERE l_orderkey BETWEEN 3000000 AND 3003000")),
            new Case(
                "nested",
                "rowbridge",
                options.get("nested"),
                queries(
                    "SELECT count(s.a), sum(size(ints)), sum(size(tags)), max(s.b) FROM t",
                    "SELECT * FROM t WHERE id BETWEEN 300000 AND 302000")));

    SparkSession.Builder builder =
        SparkSession.builder()
            .master(options.get("master"))
            .appName("rowbridge-cache-bench-" + mode)
            .config("spark.ui.enabled", "false")
            .config("spark.sql.extensions", "io.rowbridge.spark.RowbridgeExtensions")
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2");
    if (mode.startsWith("rowbridge")) {
      builder.config("spark.sql.cache.serializer", "io.rowbridge.spark.ArrowCachedBatchSerializer");
      if (!mode.equals("rowbridge")) {
        builder.config("spark.rowbridge.cache.compression", mode.substring("rowbridge-".length()));
      }
    }
    for (String setting : options.getOrDefault("conf", "").split(",")) {
      if (!setting.isBlank()) {
        String[] pair = setting.split("=", 2);
        builder.config(pair[0].trim(), pair[1].trim());
      }
    }
    if (mode.equals("spark-plain")) {
      builder.config("spark.sql.inMemoryColumnarStorage.compressed", "false");
    }
    SparkSession spark = builder.getOrCreate();
    try {
      for (Case c : cases) {
        String line = measure(spark, mode, c, runs);
        System.out.println(line);
        if (!options.get("json").isEmpty()) {
          Files.writeString(
              Path.of(options.get("json")),
              line + "\n",
              StandardOpenOption.CREATE,
              StandardOpenOption.APPEND);
        }
      }
    } finally {
      spark.stop();
    }
  }

  private static Map<String, String> queries(String aggregate, String filter) {
    Map<String, String> queries = new LinkedHashMap<>();
    queries.put("aggregate", aggregate);
    queries.put("filter", filter);
    queries.put("every-row", "SELECT * FROM t");
    return queries;
  }

  private static String measure(SparkSession spark, String mode, Case c, int runs) {
    Dataset<Row> data = spark.read().format(c.format()).load(c.path());
    data.write().format("noop").mode("overwrite").save(); // warm-up
    long scanStart = System.nanoTime();
    data.write().format("noop").mode("overwrite").save();
    double scanSeconds = (System.nanoTime() - scanStart) / 1e9;
    build(data); // warm-up
    data.unpersist(true);
    long start = System.nanoTime();
    long rows = build(data);
    double buildSeconds = (System.nanoTime() - start) / 1e9;
    long memory = 0;
    long disk = 0;
    for (RDDInfo info : spark.sparkContext().getRDDStorageInfo()) {
      memory += info.memSize();
      disk += info.diskSize();
    }
    data.createOrReplaceTempView("t");
    StringBuilder json = new StringBuilder();
    json.append(
        String.format(
            Locale.ROOT,
            "{\"mode\": \"%s\", \"dataset\": \"%s\", \"rows\": %d, \"scan_s\": %.4f,"
                + " \"build_s\": %.4f, \"memory_bytes\": %d, \"disk_bytes\": %d",
            mode,
            c.name(),
            rows,
            scanSeconds,
            buildSeconds,
            memory,
            disk));
    for (Map.Entry<String, String> query : c.queries().entrySet()) {
      List<Double> seconds = new ArrayList<>();
      String answer = run(spark, query.getKey(), query.getValue()); // warm-up
      for (int i = 0; i < runs; i++) {
        long t0 = System.nanoTime();
        run(spark, query.getKey(), query.getValue());
        seconds.add((System.nanoTime() - t0) / 1e9);
      }
      double[] sorted = seconds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      json.append(
          String.format(
              Locale.ROOT,
              ", \"%s_s\": %.4f, \"%s_answer\": \"%s\"",
              query.getKey(),
              sorted[sorted.length / 2],
              query.getKey(),
              answer));
    }
    data.unpersist(true);
    return json.append(", \"runs\": ").append(runs).append('}').toString();
  }

  private static long build(Dataset<Row> data) {
    data.persist(StorageLevel.MEMORY_ONLY());
    return data.count();
  }

  /** Runs a query; returns a short digest of its answer, compared across modes by the report. */
  private static String run(SparkSession spark, String name, String sql) {
    Dataset<Row> frame = spark.sql(sql);
    if (name.equals("every-row")) {
      frame.write().format("noop").mode("overwrite").save();
      return "noop";
    }
    List<Row> rows = frame.collectAsList();
    List<String> text = new ArrayList<>();
    for (Row row : rows) {
      text.add(row.toString());
    }
    String[] sorted = text.toArray(new String[0]);
    Arrays.sort(sorted);
    return rows.size() + " rows, hash " + Integer.toHexString(Arrays.hashCode(sorted));
  }
}
