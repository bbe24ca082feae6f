package io.rowbridge.bench;

import io.rowbridge.demo.Demo;
import io.rowbridge.demo.Query;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The Spark data source benchmark ({@code make bench-spark}, {@code
 * java/rowbridge-bench/source-bench.sh}): the record dataset of the demonstration, at a size of the
 * caller's, read by a scan-and-aggregate query and a query that shuffles every row, in each variant
 * of {@link Demo} (rowbridge, spark-c2r, rows, parquet), the variants taking turns.
 *
 * <pre>
 * SourceBench [Demo's options...] [--json FILE]
 * </pre>
 *
 * Defaults: {@code --data build/bench-spark --record-files 8 --record-rows 7200000 --nested-files
 * 0}. {@code --json}: the times of every run and the peak resident set size of the JVM.
 */
public final class SourceBench {
  static final List<Query> QUERIES =
      List.of(
          new Query(
              "scan+aggregate",
              "SELECT b % 100 AS k, count(*) AS n, sum(a) AS sum_a, max(c) AS max_c, "
                  + "max(length(d)) AS max_len FROM {record} GROUP BY 1 ORDER BY 1",
              false),
          new Query("shuffle (all rows)", "SELECT * FROM {record} DISTRIBUTE BY b", true));

  private SourceBench() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = Demo.options();
    options.put("data", "build/bench-spark");
    options.put("record-files", "8");
    options.put("record-rows", "7200000");
    options.put("nested-files", "0");
    options.put("json", "");
    Demo.parseOptions(options, args, "SourceBench");
    String json = options.remove("json");
    Demo demo = new Demo(options);
    List<Demo.Result> results = demo.compare("bench", QUERIES, false);
    if (!json.isEmpty()) {
      List<String> variants = Arrays.asList(options.get("variants").split(","));
      writeJson(Path.of(json), options.get("master"), results, variants, demo.recordRows());
    }
  }

  private static void writeJson(
      Path file, String master, List<Demo.Result> results, List<String> variants, long recordRows)
      throws IOException {
    StringBuilder json =
        new StringBuilder(
            "{\"master\":\""
                + master
                + "\",\"record_rows\":"
                + recordRows
                + ",\"peak_rss_bytes\":"
                + peakRss()
                + ",\"queries\":[");
    for (int q = 0; q < results.size(); q++) {
      Demo.Result result = results.get(q);
      json.append(q == 0 ? "" : ",")
          .append("{\"name\":\"")
          .append(result.query().name())
          .append("\",\"seconds\":{");
      for (int v = 0; v < variants.size(); v++) {
        json.append(v == 0 ? "" : ",")
            .append('"')
            .append(variants.get(v))
            .append("\":")
            .append(Arrays.toString(result.seconds().get(variants.get(v))));
      }
      json.append("}}");
    }
    json.append("]}\n");
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, json.toString());
  }

  /** The process's peak resident set size (VmHWM), in bytes; -1 when unknown. */
  static long peakRss() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }
}
