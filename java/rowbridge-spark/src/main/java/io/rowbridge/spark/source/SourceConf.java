package io.rowbridge.spark.source;

import io.rowbridge.ConverterOptions;
import io.rowbridge.spark.conf.RowbridgeConf;
import java.io.Serializable;
import java.util.Locale;
import org.apache.spark.network.util.JavaUtils;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The settings of a rowbridge scan: read options ({@code spark.read.option(...)}) first, then the
 * session's Spark configuration ({@code spark.rowbridge.scan.*}), then the defaults. Read on the
 * driver when the scan is planned and sent to the executors with the reader factory.
 */
record SourceConf(
    int prefetch,
    int inFlight,
    int wakeMillis,
    boolean rowsOnly,
    long splitBytes,
    long maxChunkBytes,
    ConverterOptions.Validation validation,
    boolean fetchOnTaskThread)
    implements Serializable {

  /** Read option: K, the most decoded batches waiting ahead of the task (default 1). */
  static final String PREFETCH = "prefetch";

  /** Read option: W, the most batches being decoded at once for one task (default 2). */
  static final String IN_FLIGHT = "inFlight";

  /** Read option: the target bytes (batch bodies) of one partition (default 128m). */
  static final String SPLIT_BYTES = "splitBytes";

  /**
   * Read option: {@code auto} (default) hands Spark columnar batches of ArrowColumnVectors when
   * Spark can read every column, rows otherwise; {@code rows} always reads rows, converted to
   * UnsafeRows natively in the stream's workers.
   */
  static final String MODE = "mode";

  /**
   * Read option: where a file read through Hadoop (not a local file) is fetched: {@code thread}
   * (default), a Java thread per task reading ahead of the decoders; {@code task}, the task's own
   * thread, before it takes each batch.
   */
  static final String FETCH = "fetch";

  static final String CONF_PREFIX = "spark.rowbridge.scan.";

  /**
   * Spark configuration of the executors: the native worker pool's size, applied once per executor
   * (default: spark.executor.cores, else the JVM's processors).
   */
  static final String POOL_THREADS = CONF_PREFIX + "threads";

  /** Spark configuration: how often a task blocked on its stream checks for a kill (ms). */
  static final String WAKE_MILLIS = CONF_PREFIX + "wakePeriodMillis";

  static final int DEFAULT_PREFETCH = 1;
  static final int DEFAULT_IN_FLIGHT = 2;
  static final long DEFAULT_SPLIT_BYTES = 128L << 20;

  static SourceConf of(CaseInsensitiveStringMap options, SQLConf conf) {
    int prefetch = intSetting(options, conf, PREFETCH, DEFAULT_PREFETCH);
    int inFlight = intSetting(options, conf, IN_FLIGHT, DEFAULT_IN_FLIGHT);
    if (prefetch < 0 || inFlight < 1) {
      throw new IllegalArgumentException(
          "rowbridge: "
              + PREFETCH
              + " must be >= 0 and "
              + IN_FLIGHT
              + " >= 1 (got "
              + prefetch
              + ", "
              + inFlight
              + ")");
    }
    String split = setting(options, conf, SPLIT_BYTES, null);
    long splitBytes = split == null ? DEFAULT_SPLIT_BYTES : JavaUtils.byteStringAsBytes(split);
    if (splitBytes < 1) {
      throw new IllegalArgumentException("rowbridge: " + SPLIT_BYTES + " must be positive");
    }
    String mode = setting(options, conf, MODE, "auto").toLowerCase(Locale.ROOT);
    if (!mode.equals("auto") && !mode.equals("rows")) {
      throw new IllegalArgumentException("rowbridge: " + MODE + " is auto or rows, not " + mode);
    }
    String fetch = setting(options, conf, FETCH, "thread").toLowerCase(Locale.ROOT);
    if (!fetch.equals("thread") && !fetch.equals("task")) {
      throw new IllegalArgumentException(
          "rowbridge: " + FETCH + " is thread or task, not " + fetch);
    }
    int wake = Integer.parseInt(conf.getConfString(WAKE_MILLIS, "100").trim());
    return new SourceConf(
        prefetch,
        inFlight,
        wake,
        mode.equals("rows"),
        splitBytes,
        RowbridgeConf.maxChunkBytes(conf),
        RowbridgeConf.validation(conf),
        fetch.equals("task"));
  }

  private static String setting(
      CaseInsensitiveStringMap options, SQLConf conf, String name, String fallback) {
    String value = options.get(name);
    if (value == null) {
      value = conf.getConfString(CONF_PREFIX + name, fallback);
    }
    return value == null ? null : value.trim();
  }

  private static int intSetting(
      CaseInsensitiveStringMap options, SQLConf conf, String name, int fallback) {
    return Integer.parseInt(setting(options, conf, name, String.valueOf(fallback)));
  }

  ConverterOptions converterOptions() {
    return ConverterOptions.defaults().maxChunkBytes(maxChunkBytes).validation(validation);
  }
}
