package io.rowbridge.spark.source;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/** Sent to the executors: one stream per task, columnar or rows as the scan planned. */
final class RowbridgeReaderFactory implements PartitionReaderFactory {
  private final SourceConf conf;
  private final boolean columnar;

  RowbridgeReaderFactory(SourceConf conf, boolean columnar) {
    this.conf = conf;
    this.columnar = columnar;
  }

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return columnar;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    ScanPool.ensure();
    return new RowReader((FileRange) partition, conf);
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    ScanPool.ensure();
    return new ColumnarReader((FileRange) partition, conf);
  }
}
