package io.rowbridge.spark.frames;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The Arrow record batches a Python driver sent (PySpark's createDataFrame) as a table Spark scans
 * in batches, read into Arrow-backed vectors, so that the plan's transition to rows is rowbridge's
 * converter (and a columnar consumer, such as a Python exchange, takes the batches as they are).
 *
 * <p>Partitions hold consecutive batches, in order, up to {@code bytesPerPartition} bytes each (a
 * larger batch alone): Spark's own createDataFrame gives every batch a task of its own, whose
 * scheduling then costs more than converting its rows.
 *
 * <p>The batches' bytes belong to the table, which the DataFrame's plan holds on the driver; each
 * task gets its partition's bytes.
 */
public final class PythonBatchesTable implements SupportsRead {
  private final StructType schema;
  private final String arrowSchemaJson;
  private final byte[][] batches;
  private final long bytesPerPartition;

  /**
   * @param schema the rows' schema
   * @param arrowSchemaJson the Arrow schema the batches were written with, as JSON
   * @param batches one IPC record batch message each, taken over (not copied)
   * @param bytesPerPartition the bytes of batches a partition holds at most (unless one batch is
   *     larger)
   */
  public PythonBatchesTable(
      StructType schema, String arrowSchemaJson, byte[][] batches, long bytesPerPartition) {
    this.schema = schema;
    this.arrowSchemaJson = arrowSchemaJson;
    this.batches = batches;
    this.bytesPerPartition = Math.max(1, bytesPerPartition);
  }

  @Override
  public String name() {
    return "rowbridge: " + batches.length + " Arrow batches from Python";
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    return () -> new BatchesScan();
  }

  /** The scan of every column of every batch. */
  private final class BatchesScan implements Scan, Batch {
    @Override
    public StructType readSchema() {
      return schema;
    }

    @Override
    public String description() {
      return name();
    }

    @Override
    public Batch toBatch() {
      return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
      List<InputPartition> partitions = new ArrayList<>();
      int first = 0;
      long bytes = 0;
      for (int i = 0; i < batches.length; i++) {
        if (i > first && bytes + batches[i].length > bytesPerPartition) {
          partitions.add(new PythonBatchPartition(Arrays.copyOfRange(batches, first, i)));
          first = i;
          bytes = 0;
        }
        bytes += batches[i].length;
      }
      if (first < batches.length) {
        partitions.add(
            new PythonBatchPartition(Arrays.copyOfRange(batches, first, batches.length)));
      }
      return partitions.toArray(new InputPartition[0]);
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
      return new PythonBatchReaderFactory(arrowSchemaJson);
    }
  }
}
