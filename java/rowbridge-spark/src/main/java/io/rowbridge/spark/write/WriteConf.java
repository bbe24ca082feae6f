package io.rowbridge.spark.write;

import io.rowbridge.DecoderOptions;
import java.io.Serializable;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.network.util.JavaUtils;
import org.apache.spark.sql.internal.SQLConf;

/**
 * The settings of a rowbridge write: write options ({@code df.write.option(...)}) first, then the
 * session's Spark configuration ({@code spark.rowbridge.write.*}), then the defaults. Read on the
 * driver when the write is planned and sent to the executors with the writer factory.
 *
 * @param compression the IPC body compression: {@code none}, {@code lz4} (LZ4_FRAME) or {@code
 *     zstd}
 * @param zstdLevel the Zstandard level
 * @param maxRows the most rows of one record batch
 * @param maxBytes the most bytes of rows one record batch is decoded from
 * @param inFlight K: the most batches a task has handed to the native encoders and not yet written
 * @param timeZoneId the session time zone, which timestamp columns carry
 */
public record WriteConf(
    String compression, int zstdLevel, int maxRows, long maxBytes, int inFlight, String timeZoneId)
    implements Serializable {

  /** Write option: none (default), lz4 or zstd. */
  public static final String COMPRESSION = "compression";

  /** Write option: the Zstandard level (default 3). */
  public static final String ZSTD_LEVEL = "zstdLevel";

  /** Write option: the most rows per record batch (default 65536). */
  public static final String MAX_ROWS = "maxRowsPerBatch";

  /** Write option: the most bytes of rows per record batch (default 64m). */
  public static final String MAX_BYTES = "maxBytesPerBatch";

  /** Write option: K, the batches a task may have with the encoders (default 2). */
  public static final String IN_FLIGHT = "inFlight";

  static final String CONF_PREFIX = "spark.rowbridge.write.";

  static final int DEFAULT_MAX_ROWS = 65536;
  static final int DEFAULT_IN_FLIGHT = 2;

  public static WriteConf of(Map<String, String> options, SQLConf conf) {
    String compression = setting(options, conf, COMPRESSION, "none").toLowerCase(Locale.ROOT);
    if (compression.equals("uncompressed")) {
      compression = "none";
    } else if (compression.equals("lz4_frame")) {
      compression = "lz4";
    }
    if (!compression.equals("none") && !compression.equals("lz4") && !compression.equals("zstd")) {
      throw new IllegalArgumentException(
          "rowbridge: " + COMPRESSION + " is none, lz4 or zstd, not '" + compression + "'");
    }
    int level = Integer.parseInt(setting(options, conf, ZSTD_LEVEL, "3"));
    int maxRows =
        Integer.parseInt(setting(options, conf, MAX_ROWS, String.valueOf(DEFAULT_MAX_ROWS)));
    String bytes = setting(options, conf, MAX_BYTES, null);
    long maxBytes =
        bytes == null ? DecoderOptions.DEFAULT_MAX_BYTES : JavaUtils.byteStringAsBytes(bytes);
    int inFlight =
        Integer.parseInt(setting(options, conf, IN_FLIGHT, String.valueOf(DEFAULT_IN_FLIGHT)));
    if (maxRows < 1 || maxBytes < 1 || inFlight < 1) {
      throw new IllegalArgumentException(
          "rowbridge: "
              + MAX_ROWS
              + ", "
              + MAX_BYTES
              + " and "
              + IN_FLIGHT
              + " must be positive (got "
              + maxRows
              + ", "
              + maxBytes
              + ", "
              + inFlight
              + ")");
    }
    return new WriteConf(
        compression, level, maxRows, maxBytes, inFlight, conf.sessionLocalTimeZone());
  }

  /** The file name extension of the files written: the reader's {@code .arrow}. */
  public String extension() {
    return compression.equals("none") ? ".arrow" : "." + compression + ".arrow";
  }

  private static String setting(
      Map<String, String> options, SQLConf conf, String name, String fallback) {
    String value = null;
    for (Map.Entry<String, String> option : options.entrySet()) {
      if (option.getKey().equalsIgnoreCase(name)) {
        value = option.getValue();
      }
    }
    if (value == null) {
      value = conf.getConfString(CONF_PREFIX + name, fallback);
    }
    return value == null ? null : value.trim();
  }
}
