package io.rowbridge.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Turns JMH's JSON result of C2RBenchmark into build/bench/jvm-c2r.json ({"cases": [{"impl",
 * "consumer", "schema", "batch_rows", "ns_per_row", "bytes_allocated_per_batch", "vs_spark",
 * "vs_comet_jvm"}, ...]}, the last two the case's time over that of Spark's path and of Comet's JVM
 * transition at the same schema, consumer and batch size, when those ran), prints the table and the
 * ratios, and draws ns/row against batch size per implementation into a PNG.
 *
 * <p>Usage: Report OUT_JSON OUT_PNG COMMAND JMH_JSON...
 */
public final class Report {
  private Report() {}

  record Case(
      String impl,
      String consumer,
      String schema,
      int batchRows,
      double nsPerRow,
      double nsPerRowError,
      double bytesPerBatch) {}

  public static void main(String[] args) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    List<JsonNode> results = new ArrayList<>();
    for (int i = 3; i < args.length; i++) {
      mapper.readTree(new File(args[i])).forEach(results::add);
    }
    List<Case> cases = new ArrayList<>();
    for (JsonNode result : results) {
      JsonNode params = result.get("params");
      int batchRows = params.get("batchRows").asInt();
      JsonNode primary = result.get("primaryMetric");
      JsonNode norm = result.path("secondaryMetrics").path("gc.alloc.rate.norm");
      double error = primary.get("scoreError").asDouble();
      cases.add(
          new Case(
              params.get("impl").asText(),
              params.get("consumer").asText(),
              params.get("schema").asText(),
              batchRows,
              primary.get("score").asDouble() / batchRows,
              Double.isNaN(error) ? 0 : error / batchRows,
              norm.isMissingNode() ? Double.NaN : norm.get("score").asDouble()));
    }

    ObjectNode out = mapper.createObjectNode();
    ArrayNode array = out.putArray("cases");
    for (Case c : cases) {
      ObjectNode node = array.addObject();
      node.put("impl", c.impl());
      node.put("consumer", c.consumer());
      node.put("schema", c.schema());
      node.put("batch_rows", c.batchRows());
      node.put("ns_per_row", round(c.nsPerRow()));
      node.put("ns_per_row_error", round(c.nsPerRowError()));
      if (!Double.isNaN(c.bytesPerBatch())) {
        node.put("bytes_allocated_per_batch", round(c.bytesPerBatch()));
      }
      for (String base : new String[] {"spark", "comet_jvm"}) {
        Case against = find(cases, base, c.consumer(), c.schema(), c.batchRows());
        if (against != null) {
          node.put("vs_" + base, round(c.nsPerRow() / against.nsPerRow()));
        }
      }
    }
    out.put("command", args[2]);
    out.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    out.put("cpus", Runtime.getRuntime().availableProcessors());
    Path json = Path.of(args[0]);
    Files.createDirectories(json.toAbsolutePath().getParent());
    mapper.writerWithDefaultPrettyPrinter().writeValue(json.toFile(), out);

    printTable(cases);
    plot(cases, Path.of(args[1]));
    System.out.println("written: " + args[0] + ", " + args[1]);
  }

  private static double round(double value) {
    return Math.round(value * 1000.0) / 1000.0;
  }

  private static Case find(
      List<Case> cases, String impl, String consumer, String schema, int rows) {
    for (Case c : cases) {
      if (c.impl().equals(impl)
          && c.consumer().equals(consumer)
          && c.schema().equals(schema)
          && c.batchRows() == rows) {
        return c;
      }
    }
    return null;
  }

  private static void printTable(List<Case> cases) {
    System.out.println(
        String.format(
            Locale.ROOT,
            "%-13s %-8s %-16s %6s %12s %14s",
            "schema",
            "consumer",
            "impl",
            "rows",
            "ns/row",
            "B/batch"));
    for (Case c : cases) {
      System.out.println(
          String.format(
              Locale.ROOT,
              "%-13s %-8s %-16s %6d %8.2f±%-5.2f %12.1f",
              c.schema(),
              c.consumer(),
              c.impl(),
              c.batchRows(),
              c.nsPerRow(),
              c.nsPerRowError(),
              c.bytesPerBatch()));
    }
    System.out.println();
    for (Case c : cases) {
      if (!c.impl().equals("rowbridge")) {
        continue;
      }
      Case spark = find(cases, "spark", c.consumer(), c.schema(), c.batchRows());
      Case comet = find(cases, "comet", c.consumer(), c.schema(), c.batchRows());
      StringBuilder line =
          new StringBuilder(
              String.format(
                  Locale.ROOT,
                  "%s %s @ %d: rowbridge %.2f ns/row",
                  c.schema(),
                  c.consumer(),
                  c.batchRows(),
                  c.nsPerRow()));
      if (spark != null) {
        line.append(
            String.format(Locale.ROOT, ", %.2f x Spark's", c.nsPerRow() / spark.nsPerRow()));
      }
      if (comet != null) {
        line.append(
            String.format(
                Locale.ROOT, ", %.1f x faster than Comet's", comet.nsPerRow() / c.nsPerRow()));
      }
      line.append(String.format(Locale.ROOT, ", %.1f B allocated per batch", c.bytesPerBatch()));
      System.out.println(line);
    }
    printCometRatios(cases);
  }

  /**
   * The paths over Comet's vectors against Spark's path and Comet's JVM transition (comet_jvm):
   * time over time, below 1 is faster; comet_jvm_aa over comet_jvm is the run's noise.
   */
  private static void printCometRatios(List<Case> cases) {
    boolean header = false;
    for (Case c : cases) {
      if (!List.of("rowbridge_comet", "comet_direct", "comet", "comet_jvm_aa").contains(c.impl())) {
        continue;
      }
      Case jvm = find(cases, "comet_jvm", c.consumer(), c.schema(), c.batchRows());
      if (jvm == null) {
        continue;
      }
      if (!header) {
        System.out.println();
        System.out.println("time over comet_jvm's (Comet's JVM transition) and over Spark's:");
        header = true;
      }
      Case spark = find(cases, "spark", c.consumer(), c.schema(), c.batchRows());
      System.out.println(
          String.format(
              Locale.ROOT,
              "%s %s @ %d: %-16s %.3f x comet_jvm's%s",
              c.schema(),
              c.consumer(),
              c.batchRows(),
              c.impl(),
              c.nsPerRow() / jvm.nsPerRow(),
              spark == null
                  ? ""
                  : String.format(
                      Locale.ROOT, ", %.3f x Spark's", c.nsPerRow() / spark.nsPerRow())));
    }
  }

  private static final Color[] COLORS = {
    new Color(0x1f77b4),
    new Color(0xd62728),
    new Color(0x2ca02c),
    new Color(0x9467bd),
    new Color(0xff7f0e),
    new Color(0x8c564b),
    new Color(0x17becf),
    new Color(0x7f7f7f)
  };

  /** ns/row against rows per batch (log-log), one line per implementation and consumer. */
  private static void plot(List<Case> cases, Path png) throws Exception {
    Map<String, List<Case>> series = new LinkedHashMap<>();
    for (Case c : cases) {
      if (c.schema().equals("record")) {
        series.computeIfAbsent(c.impl() + " (" + c.consumer() + ")", k -> new ArrayList<>()).add(c);
      }
    }
    int width = 960;
    int height = 600;
    int left = 90;
    int right = 250;
    int top = 60;
    int bottom = 70;
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(
        RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, width, height);
    double minX = Math.log10(16);
    double maxX = Math.log10(16384);
    double minY = Double.MAX_VALUE;
    double maxY = 0;
    for (List<Case> points : series.values()) {
      for (Case c : points) {
        minY = Math.min(minY, c.nsPerRow());
        maxY = Math.max(maxY, c.nsPerRow());
      }
    }
    minY = Math.floor(Math.log10(Math.max(minY, 0.1)));
    maxY = Math.ceil(Math.log10(Math.max(maxY, 1)));
    if (maxY <= minY) {
      maxY = minY + 1;
    }
    int plotWidth = width - left - right;
    int plotHeight = height - top - bottom;
    final double x0 = minX;
    final double x1 = maxX;
    final double y0 = minY;
    final double y1 = maxY;
    java.util.function.DoubleUnaryOperator px =
        v -> left + (Math.log10(v) - x0) / (x1 - x0) * plotWidth;
    java.util.function.DoubleUnaryOperator py =
        v -> top + plotHeight - (Math.log10(v) - y0) / (y1 - y0) * plotHeight;

    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    g.setColor(new Color(0xdddddd));
    for (double decade = minY; decade <= maxY; decade++) {
      for (int k = 1; k < 10; k++) {
        double value = Math.pow(10, decade) * k;
        if (Math.log10(value) > maxY) {
          break;
        }
        int y = (int) py.applyAsDouble(value);
        g.drawLine(left, y, left + plotWidth, y);
      }
    }
    g.setColor(Color.BLACK);
    g.drawRect(left, top, plotWidth, plotHeight);
    for (double decade = minY; decade <= maxY; decade++) {
      double value = Math.pow(10, decade);
      int y = (int) py.applyAsDouble(value);
      String label =
          value >= 1
              ? String.format(Locale.ROOT, "%.0f", value)
              : String.format(Locale.ROOT, "%.1f", value);
      g.drawString(label, left - 10 - g.getFontMetrics().stringWidth(label), y + 5);
    }
    for (int rows : new int[] {32, 512, 8192}) {
      int x = (int) px.applyAsDouble(rows);
      g.drawLine(x, top + plotHeight, x, top + plotHeight + 5);
      String label = Integer.toString(rows);
      g.drawString(label, x - g.getFontMetrics().stringWidth(label) / 2, top + plotHeight + 22);
    }
    g.drawString("rows per batch (log)", left + plotWidth / 2 - 60, height - 20);
    Graphics2D rotated = (Graphics2D) g.create();
    rotated.rotate(-Math.PI / 2);
    rotated.drawString("ns per row (log)", -(top + plotHeight / 2 + 50), 25);
    rotated.dispose();
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    g.drawString(
        "Columnar to row, record schema (JMH, one JVM): ns/row by rows per batch", left, 35);

    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    int index = 0;
    int legendY = top + 10;
    Map<String, Integer> implColor = new LinkedHashMap<>();
    for (Map.Entry<String, List<Case>> entry : series.entrySet()) {
      List<Case> points = new ArrayList<>(entry.getValue());
      points.sort((a, b) -> Integer.compare(a.batchRows(), b.batchRows()));
      String impl = points.get(0).impl();
      int colorIndex = implColor.computeIfAbsent(impl, k -> implColor.size());
      Color color = COLORS[colorIndex % COLORS.length];
      boolean dashed = points.get(0).consumer().equals("noalloc");
      g.setColor(color);
      g.setStroke(
          dashed
              ? new BasicStroke(
                  2f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 1f, new float[] {6f, 5f}, 0f)
              : new BasicStroke(2.5f));
      for (int i = 0; i + 1 < points.size(); i++) {
        g.drawLine(
            (int) px.applyAsDouble(points.get(i).batchRows()),
            (int) py.applyAsDouble(points.get(i).nsPerRow()),
            (int) px.applyAsDouble(points.get(i + 1).batchRows()),
            (int) py.applyAsDouble(points.get(i + 1).nsPerRow()));
      }
      g.setStroke(new BasicStroke(1f));
      for (Case c : points) {
        int x = (int) px.applyAsDouble(c.batchRows());
        int y = (int) py.applyAsDouble(c.nsPerRow());
        g.fillOval(x - 4, y - 4, 8, 8);
      }
      g.setStroke(
          dashed
              ? new BasicStroke(
                  2f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 1f, new float[] {6f, 5f}, 0f)
              : new BasicStroke(2.5f));
      int lx = left + plotWidth + 20;
      g.drawLine(lx, legendY + index * 22, lx + 30, legendY + index * 22);
      g.setColor(Color.BLACK);
      g.drawString(entry.getKey(), lx + 38, legendY + index * 22 + 5);
      index++;
    }
    g.dispose();
    Files.createDirectories(png.toAbsolutePath().getParent());
    ImageIO.write(image, "png", png.toFile());
  }
}
