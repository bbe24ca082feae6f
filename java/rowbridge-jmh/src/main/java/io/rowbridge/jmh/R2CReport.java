package io.rowbridge.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns JMH's JSON results of R2CBenchmark into build/bench/jvm-r2c.json and prints the table. Each
 * JMH file is one run of one schema in one round (bench.sh runs the rounds interleaved: every
 * variant once per round). Per schema, variant and rows per batch: the median over the rounds of ns
 * per batch and of bytes allocated per batch (gc.alloc.rate.norm), and the median over the rounds
 * of each round's ArrowWriter time / the variant's (the speed-up); "±" is half the spread over the
 * rounds, or JMH's 99.9% error when there is one round. Per schema and variant measured at three or
 * more batch sizes, the least-squares line time = a + b * rows (a: the fixed cost of a batch in ns,
 * b: ns per row), plain and weighted by relative error.
 *
 * <p>Usage: R2CReport OUT_JSON COMMAND JMH_JSON...
 */
public final class R2CReport {
  private R2CReport() {}

  /** One JMH result: a variant at one batch size in one round (file). */
  record Run(
      String round,
      String schema,
      String impl,
      int batchRows,
      double ns,
      double error,
      double bytes) {}

  /** The rounds of one variant at one batch size, summarized. */
  record Case(
      String schema,
      String impl,
      int batchRows,
      int rounds,
      double ns,
      double spread,
      double bytes,
      double speedUp) {}

  public static void main(String[] args) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    List<Run> runs = new ArrayList<>();
    for (int i = 2; i < args.length; i++) {
      for (JsonNode result : mapper.readTree(new File(args[i]))) {
        JsonNode params = result.get("params");
        JsonNode primary = result.get("primaryMetric");
        JsonNode norm = result.path("secondaryMetrics").path("gc.alloc.rate.norm");
        runs.add(
            new Run(
                args[i],
                params.get("schema").asText(),
                params.get("impl").asText(),
                params.get("batchRows").asInt(),
                primary.get("score").asDouble(),
                primary.get("scoreError").asDouble(),
                norm.isMissingNode() ? Double.NaN : norm.get("score").asDouble()));
      }
    }
    List<Case> cases = summarize(runs);

    ObjectNode out = mapper.createObjectNode();
    ArrayNode array = out.putArray("cases");
    for (Case c : cases) {
      ObjectNode node = array.addObject();
      node.put("schema", c.schema());
      node.put("impl", c.impl());
      node.put("batch_rows", c.batchRows());
      node.put("rounds", c.rounds());
      node.put("ns_per_batch", round(c.ns()));
      node.put("ns_per_batch_error", round(c.spread()));
      node.put("ns_per_row", round(c.ns() / c.batchRows()));
      node.put("rows_per_second", Math.round(c.batchRows() * 1e9 / c.ns()));
      if (!Double.isNaN(c.bytes())) {
        node.put("bytes_allocated_per_batch", round(c.bytes()));
      }
      if (!Double.isNaN(c.speedUp())) {
        node.put("speed_up_vs_arrow_writer", round(c.speedUp()));
      }
    }
    ArrayNode fits = out.putArray("fits");
    List<String> fitLines = new ArrayList<>();
    for (Map.Entry<String, List<Case>> series : bySeries(cases).entrySet()) {
      List<Case> points = series.getValue();
      if (points.size() < 3) {
        continue;
      }
      double[] line = fit(points, false);
      double[] relative = fit(points, true);
      ObjectNode node = fits.addObject();
      node.put("schema", points.get(0).schema());
      node.put("impl", points.get(0).impl());
      ArrayNode sizes = node.putArray("batch_rows");
      points.forEach(c -> sizes.add(c.batchRows()));
      node.put("a_ns_per_batch", round(line[0]));
      node.put("b_ns_per_row", round(line[1]));
      node.put("r_squared", Math.round(line[2] * 1e6) / 1e6);
      node.put("relative_a_ns_per_batch", round(relative[0]));
      node.put("relative_b_ns_per_row", round(relative[1]));
      fitLines.add(
          String.format(
              Locale.ROOT,
              "%s %s: time = a + b * rows over %s rows per batch: a = %.0f ns per batch, "
                  + "b = %.2f ns per row (least squares, R^2 %.5f); weighted by 1/time^2: a = %.0f ns, "
                  + "b = %.2f ns",
              points.get(0).schema(),
              points.get(0).impl(),
              points.stream().map(c -> Integer.toString(c.batchRows())).toList(),
              line[0],
              line[1],
              line[2],
              relative[0],
              relative[1]));
    }
    out.put("command", args[1]);
    out.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    out.put("cpus", Runtime.getRuntime().availableProcessors());
    Path json = Path.of(args[0]);
    Files.createDirectories(json.toAbsolutePath().getParent());
    mapper.writerWithDefaultPrettyPrinter().writeValue(json.toFile(), out);

    printTable(cases);
    fitLines.forEach(System.out::println);
    System.out.println("written: " + args[0]);
  }

  private static double round(double value) {
    return Math.round(value * 1000.0) / 1000.0;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** The rounds of each (schema, impl, batch size) in the order first seen, summarized. */
  private static List<Case> summarize(List<Run> runs) {
    Map<String, List<Run>> groups = new LinkedHashMap<>();
    for (Run run : runs) {
      groups
          .computeIfAbsent(
              run.schema() + "/" + run.impl() + "/" + run.batchRows(), k -> new ArrayList<>())
          .add(run);
    }
    List<Case> cases = new ArrayList<>();
    for (List<Run> group : groups.values()) {
      Run first = group.get(0);
      List<Double> ns = new ArrayList<>();
      List<Double> bytes = new ArrayList<>();
      List<Double> speedUps = new ArrayList<>();
      for (Run run : group) {
        ns.add(run.ns());
        if (!Double.isNaN(run.bytes())) {
          bytes.add(run.bytes());
        }
        for (Run other : runs) {
          if (other.round().equals(run.round())
              && other.impl().equals("arrow_writer")
              && other.schema().equals(run.schema())
              && other.batchRows() == run.batchRows()) {
            speedUps.add(other.ns() / run.ns());
          }
        }
      }
      double spread =
          group.size() == 1
              ? (Double.isNaN(first.error()) ? 0 : first.error())
              : (Collections.max(ns) - Collections.min(ns)) / 2;
      cases.add(
          new Case(
              first.schema(),
              first.impl(),
              first.batchRows(),
              group.size(),
              median(ns),
              spread,
              bytes.isEmpty() ? Double.NaN : median(bytes),
              speedUps.isEmpty() ? Double.NaN : median(speedUps)));
    }
    return cases;
  }

  /** Each (schema, impl)'s cases by batch size. */
  private static Map<String, List<Case>> bySeries(List<Case> cases) {
    Map<String, TreeMap<Integer, Case>> series = new LinkedHashMap<>();
    for (Case c : cases) {
      series
          .computeIfAbsent(c.schema() + "/" + c.impl(), k -> new TreeMap<>())
          .put(c.batchRows(), c);
    }
    Map<String, List<Case>> out = new LinkedHashMap<>();
    series.forEach((key, points) -> out.put(key, new ArrayList<>(points.values())));
    return out;
  }

  /**
   * Least squares of ns per batch on rows per batch: {a, b, R^2}. Plain (every point weighs the
   * same, so the largest batches' noise decides a), or {@code relative}: each squared residual
   * divided by the point's time squared (relative errors; a is then set by the small batches).
   */
  static double[] fit(List<Case> points, boolean relative) {
    double sw = 0;
    double sx = 0;
    double sy = 0;
    for (Case c : points) {
      double w = relative ? 1 / (c.ns() * c.ns()) : 1;
      sw += w;
      sx += w * c.batchRows();
      sy += w * c.ns();
    }
    double meanX = sx / sw;
    double meanY = sy / sw;
    double sxx = 0;
    double sxy = 0;
    double syy = 0;
    for (Case c : points) {
      double w = relative ? 1 / (c.ns() * c.ns()) : 1;
      double dx = c.batchRows() - meanX;
      double dy = c.ns() - meanY;
      sxx += w * dx * dx;
      sxy += w * dx * dy;
      syy += w * dy * dy;
    }
    double b = sxy / sxx;
    double a = meanY - b * meanX;
    double residual = 0;
    for (Case c : points) {
      double w = relative ? 1 / (c.ns() * c.ns()) : 1;
      double e = c.ns() - (a + b * c.batchRows());
      residual += w * e * e;
    }
    return new double[] {a, b, syy == 0 ? 1 : 1 - residual / syy};
  }

  private static void printTable(List<Case> cases) {
    System.out.println(
        String.format(
            Locale.ROOT,
            "%-13s %-17s %6s %13s %10s %9s %12s %11s",
            "schema",
            "impl",
            "rows",
            "ns/batch",
            "±",
            "ns/row",
            "B/batch",
            "vs ArrowW."));
    for (Case c : cases) {
      String speedUp =
          Double.isNaN(c.speedUp()) ? "" : String.format(Locale.ROOT, "%.2fx", c.speedUp());
      System.out.println(
          String.format(
              Locale.ROOT,
              "%-13s %-17s %6d %13.0f %10.0f %9.2f %12.1f %10s",
              c.schema(),
              c.impl(),
              c.batchRows(),
              c.ns(),
              c.spread(),
              c.ns() / c.batchRows(),
              c.bytes(),
              speedUp));
    }
    System.out.println();
    for (Case c : cases) {
      if (!c.impl().equals("rowbridge_aa")) {
        continue;
      }
      for (Case twin : cases) {
        if (twin.impl().equals("rowbridge")
            && twin.schema().equals(c.schema())
            && twin.batchRows() == c.batchRows()) {
          System.out.println(
              String.format(
                  Locale.ROOT,
                  "%s @ %d: A/A rowbridge_aa / rowbridge = %.3f (the noise)",
                  c.schema(),
                  c.batchRows(),
                  c.ns() / twin.ns()));
        }
      }
    }
  }
}
