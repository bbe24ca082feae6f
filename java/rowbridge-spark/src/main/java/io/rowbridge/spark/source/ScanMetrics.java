package io.rowbridge.spark.source;

import io.rowbridge.scan.StreamCounters;
import java.util.Locale;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * The scan's metrics in the Spark UI (SQL tab, on the scan node): rows, record batches and bytes
 * (batch bodies) read, the native workers' decode time, and the time tasks waited on their streams.
 * Each reader reports its totals; Spark sums them over tasks.
 */
final class ScanMetrics {
  static final String ROWS = "rowbridgeRows";
  static final String BATCHES = "rowbridgeBatches";
  static final String BYTES = "rowbridgeBytes";
  static final String DECODE = "rowbridgeDecodeTime";
  static final String WAIT = "rowbridgeWaitTime";

  private ScanMetrics() {}

  static CustomMetric[] supported() {
    return new CustomMetric[] {
      new Rows(), new Batches(), new Bytes(), new DecodeTime(), new WaitTime()
    };
  }

  private static final String[] NAMES = {ROWS, BATCHES, BYTES, DECODE, WAIT};

  /**
   * A reader's totals, as Spark reads them: its stream's counters plus what the task's earlier
   * readers reported (Spark hands those to the next reader of the same task).
   */
  static final class Totals {
    private final long[] carried = new long[NAMES.length];
    private final long[] current = new long[NAMES.length];

    /** The totals Spark carries over from the task's previous reader. */
    void carry(CustomTaskMetric[] metrics) {
      for (CustomTaskMetric metric : metrics) {
        for (int i = 0; i < NAMES.length; i++) {
          if (NAMES[i].equals(metric.name())) {
            carried[i] = metric.value();
          }
        }
      }
    }

    void update(long rows, long batches, long bytes, long decodeNanos, long waitNanos) {
      current[0] = rows;
      current[1] = batches;
      current[2] = bytes;
      current[3] = decodeNanos;
      current[4] = waitNanos;
    }

    /** Only the rows move (the stream is closed, its counters kept). */
    void updateRows(long rows) {
      current[0] = rows;
    }

    /**
     * The values to report now: the open stream's counters (null once the stream is closed: its
     * last counters are kept and only the rows move).
     */
    CustomTaskMetric[] current(long rows, StreamCounters stream) {
      if (stream != null) {
        update(
            rows,
            stream.batchesRead(),
            stream.bytesRead(),
            stream.decodeNanos(),
            stream.waitNanos());
      } else {
        updateRows(rows);
      }
      return values();
    }

    CustomTaskMetric[] values() {
      CustomTaskMetric[] out = new CustomTaskMetric[NAMES.length];
      for (int i = 0; i < NAMES.length; i++) {
        out[i] = metric(NAMES[i], carried[i] + current[i]);
      }
      return out;
    }
  }

  private static CustomTaskMetric metric(String name, long value) {
    return new CustomTaskMetric() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public long value() {
        return value;
      }
    };
  }

  public static final class Rows extends CustomSumMetric {
    @Override
    public String name() {
      return ROWS;
    }

    @Override
    public String description() {
      return "rowbridge: rows read";
    }
  }

  public static final class Batches extends CustomSumMetric {
    @Override
    public String name() {
      return BATCHES;
    }

    @Override
    public String description() {
      return "rowbridge: record batches read";
    }
  }

  public static final class Bytes implements CustomMetric {
    @Override
    public String name() {
      return BYTES;
    }

    @Override
    public String description() {
      return "rowbridge: bytes read (batch bodies)";
    }

    @Override
    public String aggregateTaskMetrics(long[] taskMetrics) {
      double sum = 0;
      for (long value : taskMetrics) {
        sum += value;
      }
      String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
      int unit = 0;
      while (sum >= 1024 && unit < units.length - 1) {
        sum /= 1024;
        unit++;
      }
      return unit == 0
          ? String.format(Locale.ROOT, "%.0f B", sum)
          : String.format(Locale.ROOT, "%.1f %s", sum, units[unit]);
    }
  }

  /** A time summed over tasks (nanoseconds), shown as total and largest task. */
  abstract static class NanoTime implements CustomMetric {
    @Override
    public String aggregateTaskMetrics(long[] taskMetrics) {
      long sum = 0;
      long max = 0;
      for (long value : taskMetrics) {
        sum += value;
        max = Math.max(max, value);
      }
      return "total " + millis(sum) + " (largest task " + millis(max) + ")";
    }

    private static String millis(long nanos) {
      return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }
  }

  public static final class DecodeTime extends NanoTime {
    @Override
    public String name() {
      return DECODE;
    }

    @Override
    public String description() {
      return "rowbridge: decode time (native workers)";
    }
  }

  public static final class WaitTime extends NanoTime {
    @Override
    public String name() {
      return WAIT;
    }

    @Override
    public String description() {
      return "rowbridge: time tasks waited on their streams";
    }
  }
}
