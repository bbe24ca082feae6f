package io.rowbridge.spark.source;

import java.util.Map;
import java.util.Set;

import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** The files of one {@code load}, as a batch-readable table with top-level column pruning. */
final class RowbridgeTable implements Table, SupportsRead {
  private final StructType schema;
  private final Map<String, String> properties;

  RowbridgeTable(StructType schema, Map<String, String> properties) {
    this.schema = schema;
    this.properties = properties;
  }

  @Override
  public String name() {
    String path = properties.getOrDefault("path", properties.getOrDefault("paths", ""));
    return "rowbridge " + path;
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return Set.of(TableCapability.BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    return new Builder(schema, options);
  }

  private static final class Builder implements ScanBuilder, SupportsPushDownRequiredColumns {
    private final StructType schema;
    private final CaseInsensitiveStringMap options;
    private StructType required;

    Builder(StructType schema, CaseInsensitiveStringMap options) {
      this.schema = schema;
      this.options = options;
      this.required = schema;
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
      this.required = requiredSchema;
    }

    @Override
    public Scan build() {
      return new RowbridgeScan(schema, required, SourceFiles.resolve(options),
          SourceConf.of(options, SQLConf.get()));
    }
  }
}
