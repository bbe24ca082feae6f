package io.rowbridge.spark.source;

import io.rowbridge.RowbridgeException;
import io.rowbridge.SparkTypes;
import io.rowbridge.scan.IpcFileInfo;
import io.rowbridge.scan.NativeScan;
import io.rowbridge.scan.RowScan;
import io.rowbridge.scan.ScanOptions;

import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Arrow IPC files read by rowbridge's native parallel scan:
 * {@code spark.read.format("rowbridge").load(path)} (registered under that short name through
 * {@code META-INF/services}, and addressable by this class's name). The schema comes from the
 * first file's footer, mapped to Spark types by SPEC section 2; every column is nullable at the
 * top level, as in Spark's own file sources. Options and configuration: {@link SourceConf}.
 */
public final class RowbridgeSource implements TableProvider, DataSourceRegister {
  @Override
  public String shortName() {
    return "rowbridge";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    List<String> files = SourceFiles.resolve(options);
    if (files.isEmpty()) {
      throw new IllegalArgumentException("rowbridge: no Arrow IPC file (*.arrow, *.arrows, "
          + "*.feather, *.ipc) under " + options.getOrDefault("path", options.get("paths")));
    }
    return sparkSchema(files.get(0), inspect(files.get(0)).schema());
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning,
      Map<String, String> properties) {
    return new RowbridgeTable(schema, properties);
  }

  @Override
  public boolean supportsExternalMetadata() {
    return false;
  }

  /**
   * True when {@code scan} is this source's scan reading rows (UnsafeRows from the native
   * stream): the rows need no conversion, so rowbridge's extension drops the projection Spark
   * plans above a row-based scan when it only passes the scan's columns through.
   */
  public static boolean readsUnsafeRows(Scan scan) {
    return scan instanceof RowbridgeScan rowbridge
        && rowbridge.columnarSupportMode() == Scan.ColumnarSupportMode.UNSUPPORTED;
  }

  /** The footer of {@code file}; a file rowbridge cannot read is an error naming it. */
  static IpcFileInfo inspect(String file) {
    try {
      return NativeScan.inspect(file);
    } catch (RowbridgeException e) {
      throw new RowbridgeException(SourceErrors.describe(file, -1, 0, e), e.code());
    }
  }

  /**
   * The Spark schema of a file's Arrow schema (SPEC section 2), top-level columns nullable. A
   * dictionary-encoded column takes its value type, which the native scan reports.
   */
  static StructType sparkSchema(String file, Schema schema) {
    StructType mapped;
    try {
      if (schema.getFields().stream().anyMatch(RowbridgeSource::hasDictionary)) {
        try (RowScan scan = NativeScan.openRows(file, ScanOptions.defaults().withBatchRange(0, 0))) {
          mapped = scan.sparkSchema();
        }
      } else {
        mapped = SparkTypes.of(schema.getFields(), null);
      }
    } catch (RowbridgeException e) {
      throw new IllegalArgumentException("rowbridge: " + file + ": " + e.getMessage(), e);
    }
    StructField[] fields = mapped.fields().clone();
    for (int i = 0; i < fields.length; i++) {
      fields[i] = new StructField(fields[i].name(), fields[i].dataType(), true,
          fields[i].metadata());
    }
    return new StructType(fields);
  }

  private static boolean hasDictionary(Field field) {
    return field.getDictionary() != null
        || field.getChildren().stream().anyMatch(RowbridgeSource::hasDictionary);
  }
}
