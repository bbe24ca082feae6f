package io.rowbridge.bench;

import io.rowbridge.demo.Demo;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.arrow.ArrowWriter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.storage.StorageLevel;

/**
 * The write benchmark of {@code make bench-spark} (docs/BENCHMARKS.md, "Writes"): TPC-H's lineitem,
 * cached in memory first so that every mode writes the same rows from the same place, written with
 * ZSTD in each mode:
 *
 * <ul>
 *   <li>{@code rowbridge}: {@code df.write.format("rowbridge")} (rows decoded and encoded natively,
 *       at most two batches ahead of each task);
 *   <li>{@code rowbridge-aa}: the same again, timed as a mode of its own (the A/A twin);
 *   <li>{@code parquet}: Spark's Parquet writer;
 *   <li>{@code arrowwriter}: Spark's {@code ArrowWriter} (value by value into Arrow Java vectors)
 *       and Arrow Java's {@code ArrowFileWriter}, one file per task, in batches of the size
 *       rowbridge writes.
 * </ul>
 *
 * <p>A warm-up write per mode, then ROUNDS rounds with the modes interleaved, the order reversed
 * every other round. Each mode's output is read back and counted once.
 *
 * <pre>
 * WriteBench --data DIR [--out DIR] [--rounds 3] [--master local[2]] [--json FILE]
 * </pre>
 */
public final class WriteBench {
  private static final List<String> MODES =
      List.of("rowbridge", "parquet", "arrowwriter", "rowbridge-aa");
  private static final int BATCH_ROWS = 65536;
  private static final String[] DEFAULTS = {
    "data", "build/tpch/sf1", "out", "", "rounds", "3", "master", "local[2]", "json", ""
  };

  private final Map<String, String> options = new LinkedHashMap<>();
  private final PrintStream out = System.out;

  private WriteBench(String[] args) {
    for (int i = 0; i < DEFAULTS.length; i += 2) {
      options.put(DEFAULTS[i], DEFAULTS[i + 1]);
    }
    Demo.parseOptions(options, args, "WriteBench");
  }

  public static void main(String[] args) throws Exception {
    new WriteBench(args).run();
  }

  private void run() throws Exception {
    Path data = Path.of(options.get("data")).toAbsolutePath();
    Path target =
        options.get("out").isEmpty()
            ? data.resolve("writes")
            : Path.of(options.get("out")).toAbsolutePath();
    int rounds = Integer.parseInt(options.get("rounds"));
    SparkSession spark = Demo.localSession(options.get("master"), "rowbridge writes");
    try {
      Dataset<Row> lineitem =
          spark
              .read()
              .parquet(data.resolve("generated").resolve("lineitem.parquet").toString())
              .persist(StorageLevel.MEMORY_ONLY());
      long rows = lineitem.count();
      out.printf(
          Locale.ROOT,
          "== writes: lineitem, %d rows, %d partitions, cached; Spark %s, %s,"
              + " %d cores; warm-up + %d interleaved rounds%n",
          rows,
          lineitem.rdd().getNumPartitions(),
          spark.version(),
          options.get("master"),
          Runtime.getRuntime().availableProcessors(),
          rounds);
      Map<String, List<Double>> seconds = new LinkedHashMap<>();
      Map<String, Long> bytes = new LinkedHashMap<>();
      for (String mode : MODES) {
        seconds.put(mode, new ArrayList<>());
        write(lineitem, mode, target.resolve(mode)); // warm-up
        bytes.put(mode, sizeOf(target.resolve(mode)));
        long back =
            mode.equals("parquet")
                ? spark.read().parquet(target.resolve(mode).toString()).count()
                : spark.read().format("rowbridge").load(target.resolve(mode).toString()).count();
        if (back != rows) {
          throw new IllegalStateException(mode + " wrote " + back + " rows of " + rows);
        }
      }
      for (int round = 0; round < rounds; round++) {
        List<String> order = new ArrayList<>(MODES);
        if (round % 2 == 1) {
          Collections.reverse(order);
        }
        for (String mode : order) {
          long start = System.nanoTime();
          write(lineitem, mode, target.resolve(mode));
          seconds.get(mode).add((System.nanoTime() - start) / 1e9);
        }
      }
      report(rows, seconds, bytes);
    } finally {
      spark.stop();
    }
  }

  private static void write(Dataset<Row> frame, String mode, Path to) throws IOException {
    switch (mode) {
      case "rowbridge", "rowbridge-aa" ->
          frame
              .write()
              .mode("overwrite")
              .format("rowbridge")
              .option("compression", "zstd")
              .option("maxRowsPerBatch", BATCH_ROWS)
              .save(to.toString());
      case "parquet" ->
          frame.write().mode("overwrite").option("compression", "zstd").parquet(to.toString());
      case "arrowwriter" -> writeWithArrowWriter(frame, to);
      default -> throw new IllegalArgumentException("unknown mode " + mode);
    }
  }

  /** One Arrow IPC file per task: ArrowWriter into a reused root, ArrowFileWriter with ZSTD. */
  private static void writeWithArrowWriter(Dataset<Row> frame, Path to) throws IOException {
    Demo.deleteTree(to);
    Files.createDirectories(to);
    StructType schema = frame.schema();
    String timeZone = frame.sparkSession().sessionState().conf().sessionLocalTimeZone();
    String dir = to.toString();
    frame
        .queryExecution()
        .toRdd()
        .toJavaRDD()
        .foreachPartition(
            (Iterator<InternalRow> rows) -> {
              Path file = Path.of(dir, "part-" + TaskContext.getPartitionId() + ".zstd.arrow");
              try (BufferAllocator allocator =
                      ArrowUtils.rootAllocator().newChildAllocator("write", 0, Long.MAX_VALUE);
                  VectorSchemaRoot root =
                      VectorSchemaRoot.create(
                          ArrowUtils.toArrowSchema(schema, timeZone, true, false), allocator);
                  FileChannel channel =
                      FileChannel.open(
                          file,
                          StandardOpenOption.CREATE,
                          StandardOpenOption.WRITE,
                          StandardOpenOption.TRUNCATE_EXISTING);
                  ArrowFileWriter writer =
                      new ArrowFileWriter(
                          root,
                          null,
                          channel,
                          null,
                          IpcOption.DEFAULT,
                          CommonsCompressionFactory.INSTANCE,
                          CompressionUtil.CodecType.ZSTD)) {
                ArrowWriter arrow = ArrowWriter.create(root);
                writer.start();
                int count = 0;
                while (rows.hasNext()) {
                  arrow.write(rows.next());
                  if (++count == BATCH_ROWS) {
                    arrow.finish();
                    writer.writeBatch();
                    arrow.reset();
                    count = 0;
                  }
                }
                if (count > 0) {
                  arrow.finish();
                  writer.writeBatch();
                }
                writer.end();
              }
            });
  }

  private void report(long rows, Map<String, List<Double>> seconds, Map<String, Long> bytes)
      throws IOException {
    double parquet = median(seconds.get("parquet"));
    StringBuilder json = new StringBuilder("{\"rows\": " + rows + ", \"modes\": {");
    out.println("| mode | median s | runs (s) | MB written | Mrows/s | parquet time / mode |");
    out.println("|---|---:|---|---:|---:|---:|");
    String separator = "";
    for (Map.Entry<String, List<Double>> entry : seconds.entrySet()) {
      double median = median(entry.getValue());
      double mb = bytes.get(entry.getKey()) / 1e6;
      out.printf(
          Locale.ROOT,
          "| %s | %.2f | %s | %.0f | %.2f | %.2f× |%n",
          entry.getKey(),
          median,
          format(entry.getValue()),
          mb,
          rows / median / 1e6,
          parquet / median);
      json.append(separator)
          .append(
              String.format(
                  Locale.ROOT,
                  "\"%s\": {\"median_s\": %.4f, \"runs_s\": %s, \"bytes\": %d}",
                  entry.getKey(),
                  median,
                  entry.getValue(),
                  bytes.get(entry.getKey())));
      separator = ", ";
    }
    json.append("}}\n");
    if (!options.get("json").isEmpty()) {
      Files.writeString(Path.of(options.get("json")), json.toString());
    }
  }

  private static String format(List<Double> values) {
    StringBuilder text = new StringBuilder();
    for (double value : values) {
      text.append(text.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", value));
    }
    return text.toString();
  }

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return sorted.length % 2 == 1
        ? sorted[sorted.length / 2]
        : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  }

  private static long sizeOf(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .filter(
              f ->
                  !f.getFileName().toString().startsWith("_")
                      && !f.getFileName().toString().startsWith("."))
          .mapToLong(f -> f.toFile().length())
          .sum();
    }
  }
}
