package io.rowbridge.bench;

import io.rowbridge.demo.Datasets;
import io.rowbridge.demo.Demo;
import io.rowbridge.spark.storage.LocalS3;
import io.rowbridge.spark.storage.MiniHdfs;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.spark.sql.SparkSession;

/**
 * The source's storage benchmark (make bench-spark; docs/BENCHMARKS.md, section Storage): the
 * record dataset read by format("rowbridge") from local files (memory-mapped), from an HDFS mini
 * cluster in this JVM (its DataNodes share the machine) and from S3Proxy through s3a://, in one
 * JVM: every variant warmed up first, then the variants taking turns, an A/A twin of the local read
 * to show the noise. The query is the benchmark's scan-and-aggregate (every row of every column
 * decoded and converted). HDFS is read twice: fetching on a Java thread per task (the default) and
 * on the task's own thread ({@code fetch=task}), which decided where fetching runs. Floors: every
 * byte of the files read through Hadoop alone, 8 MiB positioned reads on two threads (one file each
 * at a time), nothing decoded: what the storage path costs by itself.
 *
 * <p>Options: --data DIR (build/bench-storage), --files N (4), --rows N per file (3000000), --runs
 * N (5), --master (local[2]), --json FILE.
 */
public final class StorageBench {
  private static final String QUERY =
      "SELECT b % 100 AS k, count(*) AS n, sum(a) AS sum_a, "
          + "max(c) AS max_c, max(length(d)) AS max_len FROM {table} GROUP BY 1 ORDER BY 1";
  private static final List<String> VARIANTS =
      List.of("local", "hdfs", "s3", "local-again", "hdfs-task", "hdfs-bytes", "s3-bytes");

  private final Map<String, String> options = new LinkedHashMap<>();
  private final PrintStream out = System.out;
  private final Map<String, org.apache.hadoop.fs.Path> floors = new LinkedHashMap<>();
  private Configuration conf;

  private StorageBench(String[] args) {
    options.put("data", "build/bench-storage");
    options.put("files", "4");
    options.put("rows", "3000000");
    options.put("runs", "5");
    options.put("master", "local[2]");
    options.put("json", "");
    Demo.parseOptions(options, args, "StorageBench");
  }

  public static void main(String[] args) throws Exception {
    new StorageBench(args).run();
  }

  private void run() throws Exception {
    Path data = Path.of(options.get("data")).toAbsolutePath();
    Path record = data.resolve("record");
    int files = Integer.parseInt(options.get("files"));
    long rows = Long.parseLong(options.get("rows"));
    Demo.deleteTree(data);
    try (BufferAllocator allocator = new RootAllocator()) {
      Datasets.writeRecord(record, files, rows, allocator);
    }
    try (MiniHdfs hdfs = MiniHdfs.start(2, 128L << 20, 1);
        LocalS3 s3 = LocalS3.launch()) {
      long start = System.nanoTime();
      hdfs.fileSystem()
          .copyFromLocalFile(
              false,
              true,
              new org.apache.hadoop.fs.Path(record.toUri()),
              new org.apache.hadoop.fs.Path(hdfs.uri() + "/record"));
      try (var listed = Files.list(record)) {
        for (Path file : listed.sorted().toList()) {
          s3.put(file, "record/" + file.getFileName());
        }
      }
      out.printf(
          Locale.ROOT,
          "-- copied %d files (%s) to HDFS and S3 in %.1f s%n",
          files,
          Demo.size(record),
          (System.nanoTime() - start) / 1e9);
      SparkSession.Builder builder =
          SparkSession.builder()
              .master(options.get("master"))
              .appName("rowbridge storage benchmark")
              .config(
                  "spark.sql.extensions", io.rowbridge.spark.RowbridgeExtensions.class.getName())
              .config("spark.ui.enabled", "false")
              .config("spark.sql.session.timeZone", "UTC")
              .config("spark.sql.shuffle.partitions", "8");
      hdfs.sparkConf().forEach(builder::config);
      s3.sparkConf().forEach(builder::config);
      SparkSession spark = builder.getOrCreate();
      spark.sparkContext().setLogLevel("WARN");
      try {
        Map<String, String> paths =
            Map.of(
                "local",
                record.toString(),
                "local-again",
                record.toString(),
                "hdfs",
                hdfs.uri() + "/record",
                "hdfs-task",
                hdfs.uri() + "/record",
                "s3",
                s3.uri() + "record");
        for (String variant : VARIANTS) {
          if (!variant.endsWith("-bytes")) {
            spark
                .read()
                .format("rowbridge")
                .option("fetch", variant.endsWith("-task") ? "task" : "thread")
                .load(paths.get(variant))
                .createOrReplaceTempView(view(variant));
          }
        }
        floors.put("hdfs-bytes", new org.apache.hadoop.fs.Path(hdfs.uri() + "/record"));
        floors.put("s3-bytes", new org.apache.hadoop.fs.Path(s3.uri() + "record"));
        conf = spark.sparkContext().hadoopConfiguration();
        measure(spark, (long) files * rows);
      } finally {
        spark.stop();
      }
    }
    Demo.deleteTree(data);
  }

  private static String view(String variant) {
    return "record_" + variant.replace('-', '_');
  }

  private long bytes;

  private void measure(SparkSession spark, long rows) throws IOException {
    for (FileStatus status :
        floors.get("hdfs-bytes").getFileSystem(conf).listStatus(floors.get("hdfs-bytes"))) {
      bytes += status.getLen();
    }
    int runs = Integer.parseInt(options.get("runs"));
    Map<String, double[]> seconds = new LinkedHashMap<>();
    List<String> reference = null;
    for (String variant : VARIANTS) { // warm-up, and every answer must be the same
      seconds.put(variant, new double[runs]);
      if (floors.containsKey(variant)) {
        readAll(floors.get(variant));
        continue;
      }
      List<String> answer = answer(spark, variant);
      if (reference != null && !answer.equals(reference)) {
        throw new IllegalStateException(
            "answers differ: local " + reference + " vs " + variant + " " + answer);
      }
      reference = answer;
    }
    for (int run = 0; run < runs; run++) {
      for (String variant : VARIANTS) {
        long start = System.nanoTime();
        if (floors.containsKey(variant)) {
          readAll(floors.get(variant));
        } else {
          answer(spark, variant);
        }
        seconds.get(variant)[run] = (System.nanoTime() - start) / 1e9;
      }
    }
    double local = median(seconds.get("local"));
    out.printf(
        Locale.ROOT,
        "%n-- %s: %,d rows, median of %d interleaved runs%n",
        options.get("master"),
        rows,
        runs);
    out.printf(
        Locale.ROOT,
        "   %-12s %10s %10s %14s %14s%n",
        "variant",
        "median s",
        "best s",
        "rows/s",
        "ratio to local");
    StringBuilder json =
        new StringBuilder(
            "{\"master\":\"" + options.get("master") + "\",\"rows\":" + rows + ",\"runs\":{");
    for (String variant : VARIANTS) {
      double[] times = seconds.get(variant);
      double median = median(times);
      out.printf(
          Locale.ROOT,
          "   %-12s %10.2f %10.2f %,14.0f %14.2f%n",
          variant,
          median,
          Arrays.stream(times).min().orElse(0),
          rows / median,
          local / median);
      if (floors.containsKey(variant)) {
        out.printf(
            Locale.ROOT, "   %-12s (%.0f MiB/s of file bytes)%n", "", bytes / 1048576.0 / median);
      }
      json.append(variant.equals(VARIANTS.get(0)) ? "" : ",")
          .append('"')
          .append(variant)
          .append("\":")
          .append(Arrays.toString(times));
    }
    json.append("}}\n");
    if (!options.get("json").isEmpty()) {
      Path file = Path.of(options.get("json"));
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, json.toString());
    }
  }

  private static List<String> answer(SparkSession spark, String variant) {
    List<String> answer = new ArrayList<>();
    spark
        .sql(QUERY.replace("{table}", view(variant)))
        .collectAsList()
        .forEach(row -> answer.add(row.mkString("|")));
    return answer;
  }

  /** Reads every byte of the files under {@code dir} (two threads, 8 MiB reads); no decoding. */
  private void readAll(org.apache.hadoop.fs.Path dir) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    List<FileStatus> files = Arrays.asList(fs.listStatus(dir));
    AtomicInteger next = new AtomicInteger();
    AtomicReference<IOException> failure = new AtomicReference<>();
    Runnable reader =
        () -> {
          ByteBuffer buffer = ByteBuffer.allocateDirect(8 << 20);
          byte[] heap = new byte[8 << 20];
          for (int f; (f = next.getAndIncrement()) < files.size(); ) {
            FileStatus status = files.get(f);
            try (FSDataInputStream in = fs.open(status.getPath())) {
              boolean direct = in.hasCapability(StreamCapabilities.PREADBYTEBUFFER);
              for (long at = 0; at < status.getLen(); at += 8 << 20) {
                int length = (int) Math.min(8 << 20, status.getLen() - at);
                if (direct) {
                  buffer.clear().limit(length);
                  in.readFully(at, buffer);
                } else {
                  in.readFully(at, heap, 0, length);
                }
              }
            } catch (IOException e) {
              failure.set(e);
            }
          }
        };
    Thread second = new Thread(reader);
    second.start();
    reader.run();
    try {
      second.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
