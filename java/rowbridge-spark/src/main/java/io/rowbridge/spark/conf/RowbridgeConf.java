package io.rowbridge.spark.conf;

import io.rowbridge.ConverterOptions;
import io.rowbridge.DecoderOptions;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.network.util.JavaUtils;
import org.apache.spark.sql.internal.SQLConf;

/** The Spark configuration of rowbridge's operator (spark.rowbridge.*), read from SQLConf. */
public final class RowbridgeConf {
  private RowbridgeConf() {}

  /** Whether the columnar rule replaces ColumnarToRowExec (default true). */
  public static final String ENABLED = "spark.rowbridge.columnarToRow.enabled";

  /**
   * Where the rule puts rowbridge's transition: "auto" (default) where the measured rules of {@link
   * TransitionPlacement} say it is faster than Spark's, "rowbridge" above every allow-listed scan,
   * "spark" nowhere (Spark's own transition everywhere).
   */
  public static final String PLACEMENT = "spark.rowbridge.columnarToRow.placement";

  /** The values of {@link #PLACEMENT}. */
  public enum Placement {
    AUTO,
    ROWBRIDGE,
    SPARK
  }

  /**
   * Class names of the scan nodes whose ColumnarToRowExec is replaced (comma-separated; the default
   * is DataSource V2's BatchScanExec). Batches that are not Arrow-backed still go through Spark's
   * own conversion, batch by batch.
   */
  public static final String SCANS = "spark.rowbridge.columnarToRow.scans";

  public static final String DEFAULT_SCANS =
      "org.apache.spark.sql.execution.datasources.v2.BatchScanExec";

  /**
   * Whether the columnar rule also replaces the transitions of the engines whose {@link
   * EngineInput} is on the class path (Apache Comet's, with rowbridge-comet), where the placement
   * says (default true).
   */
  public static final String ENGINES_ENABLED = "spark.rowbridge.columnarToRow.engines.enabled";

  /**
   * The cap on a converter's native row buffer (bytes; "64m" and the like): a larger batch is
   * converted in chunks, a single row larger than this fails the task with a clear error.
   */
  public static final String MAX_CHUNK_BYTES = "spark.rowbridge.maxChunkBytes";

  /** Validation of the input batches: "cheap" (default) or "full". */
  public static final String VALIDATION = "spark.rowbridge.validation";

  /**
   * Whether the columnar rule replaces Spark's RowToColumnarExec with rowbridge's RowToArrowExec,
   * whose batches are Arrow-backed (default false: opt in for columnar operators that read Arrow).
   */
  public static final String ROW_TO_COLUMNAR_ENABLED = "spark.rowbridge.rowToColumnar.enabled";

  /** The cap on the bytes of rows one Arrow batch decodes from ("64m" and the like). */
  public static final String MAX_BATCH_BYTES = "spark.rowbridge.rowToColumnar.maxBatchBytes";

  /**
   * Whether rowbridge's side of the Arrow exchange with Python workers replaces Spark's ({@code
   * mapInArrow}, {@code mapInPandas}; default true). A session setting, read per query.
   */
  public static final String PYTHON_ENABLED = "spark.rowbridge.python.enabled";

  public static boolean enabled(SQLConf conf) {
    return Boolean.parseBoolean(conf.getConfString(ENABLED, "true").trim());
  }

  public static boolean pythonEnabled(SQLConf conf) {
    return Boolean.parseBoolean(conf.getConfString(PYTHON_ENABLED, "true").trim());
  }

  public static Placement placement(SQLConf conf) {
    String value = conf.getConfString(PLACEMENT, "auto").trim();
    for (Placement placement : Placement.values()) {
      if (placement.name().equalsIgnoreCase(value)) {
        return placement;
      }
    }
    throw new IllegalArgumentException(
        PLACEMENT + " must be auto, rowbridge or spark, not '" + value + "'");
  }

  public static Set<String> scans(SQLConf conf) {
    return Arrays.stream(conf.getConfString(SCANS, DEFAULT_SCANS).split(","))
        .map(String::trim)
        .filter(s -> !s.isEmpty())
        .collect(Collectors.toSet());
  }

  public static long maxChunkBytes(SQLConf conf) {
    String value = conf.getConfString(MAX_CHUNK_BYTES, "");
    return value.isBlank()
        ? ConverterOptions.DEFAULT_MAX_CHUNK_BYTES
        : JavaUtils.byteStringAsBytes(value.trim());
  }

  public static boolean enginesEnabled(SQLConf conf) {
    return Boolean.parseBoolean(conf.getConfString(ENGINES_ENABLED, "true").trim());
  }

  public static boolean rowToColumnarEnabled(SQLConf conf) {
    return Boolean.parseBoolean(conf.getConfString(ROW_TO_COLUMNAR_ENABLED, "false").trim());
  }

  public static long maxBatchBytes(SQLConf conf) {
    String value = conf.getConfString(MAX_BATCH_BYTES, "");
    return value.isBlank()
        ? DecoderOptions.DEFAULT_MAX_BYTES
        : JavaUtils.byteStringAsBytes(value.trim());
  }

  public static ConverterOptions.Validation validation(SQLConf conf) {
    return conf.getConfString(VALIDATION, "cheap").trim().equalsIgnoreCase("full")
        ? ConverterOptions.Validation.FULL
        : ConverterOptions.Validation.CHEAP;
  }
}
