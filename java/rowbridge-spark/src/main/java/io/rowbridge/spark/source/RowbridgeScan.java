package io.rowbridge.spark.source;

import io.rowbridge.SparkTypes;
import io.rowbridge.scan.IpcFileInfo;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A planned scan. Partitions: each file's record batches, in order, cut into ranges of about
 * {@code splitBytes} of batch bodies (a file no larger is one partition; an empty file none; a
 * file in the IPC stream format, which cannot be read from the middle, one partition).
 * Columnar (ColumnarBatch of ArrowColumnVectors over the native scan's Arrow vectors) when every
 * file's read columns are ones Spark's ArrowColumnVector reads ({@link ColumnarSupport}) and the
 * mode is not {@code rows}; otherwise UnsafeRows converted natively in the stream's workers.
 */
final class RowbridgeScan implements Scan, Batch {
  private final StructType tableSchema;
  private final StructType readSchema;
  private final List<String> files;
  private final SourceConf conf;
  private final int[] columns;
  private InputPartition[] partitions;
  private boolean columnar;

  RowbridgeScan(StructType tableSchema, StructType required, List<String> files,
      SourceConf conf) {
    this.tableSchema = tableSchema;
    this.files = files;
    this.conf = conf;
    // Top-level pruning only: the read schema keeps the table's order and whole columns.
    List<StructField> kept = new ArrayList<>();
    List<Integer> indices = new ArrayList<>();
    StructField[] all = tableSchema.fields();
    for (int i = 0; i < all.length; i++) {
      if (required.getFieldIndex(all[i].name()).isDefined()) {
        kept.add(all[i]);
        indices.add(i);
      }
    }
    this.readSchema = new StructType(kept.toArray(new StructField[0]));
    this.columns = indices.stream().mapToInt(Integer::intValue).toArray();
  }

  @Override
  public StructType readSchema() {
    return readSchema;
  }

  @Override
  public String description() {
    return "rowbridge [" + files.size() + (files.size() == 1 ? " file" : " files")
        + ", columns " + String.join(",", readSchema.fieldNames()) + "]";
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  @Override
  public CustomMetric[] supportedCustomMetrics() {
    return ScanMetrics.supported();
  }

  @Override
  public ColumnarSupportMode columnarSupportMode() {
    plan();
    return columnar ? ColumnarSupportMode.SUPPORTED : ColumnarSupportMode.UNSUPPORTED;
  }

  @Override
  public InputPartition[] planInputPartitions() {
    plan();
    return partitions.clone();
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    plan();
    return new RowbridgeReaderFactory(conf, columnar);
  }

  private synchronized void plan() {
    if (partitions != null) {
      return;
    }
    List<InputPartition> out = new ArrayList<>();
    boolean allColumnar = !conf.rowsOnly();
    for (String file : files) {
      IpcFileInfo info = RowbridgeSource.inspect(file);
      List<Field> fields = info.schema().getFields();
      checkSchema(file, fields);
      if (allColumnar) {
        for (int column : columns) {
          allColumnar &= ColumnarSupport.readable(fields.get(column));
        }
      }
      split(file, info, out);
    }
    columnar = allColumnar;
    partitions = out.toArray(new InputPartition[0]);
  }

  /** Every file must map to the table's columns (names and Spark types, in order). */
  private void checkSchema(String file, List<Field> fields) {
    StructType mapped = RowbridgeSource.sparkSchema(file, new org.apache.arrow.vector.types.pojo
        .Schema(fields));
    StructField[] expected = tableSchema.fields();
    StructField[] actual = mapped.fields();
    boolean same = expected.length == actual.length;
    for (int i = 0; same && i < expected.length; i++) {
      same = expected[i].name().equals(actual[i].name())
          && SparkTypes.sameType(expected[i].dataType(), actual[i].dataType());
    }
    if (!same) {
      throw new IllegalArgumentException("rowbridge: " + file + " has the columns "
          + mapped.simpleString() + ", unlike the first file's " + tableSchema.simpleString());
    }
  }

  private void split(String file, IpcFileInfo info, List<InputPartition> out) {
    int batches = info.numBatches();
    if (!info.isFileFormat()) {
      // The stream format has no footer to seek batches by: one partition reads it in order.
      if (batches > 0) {
        long bytes = 0;
        for (int i = 0; i < batches; i++) {
          bytes += info.batchBodyBytes(i);
        }
        out.add(new FileRange(file, 0, -1, bytes, columns));
      }
      return;
    }
    int first = 0;
    long bytes = 0;
    for (int i = 0; i < batches; i++) {
      bytes += info.batchBodyBytes(i);
      if (bytes >= conf.splitBytes() || i == batches - 1) {
        out.add(new FileRange(file, first, i - first + 1, bytes, columns));
        first = i + 1;
        bytes = 0;
      }
    }
  }
}
