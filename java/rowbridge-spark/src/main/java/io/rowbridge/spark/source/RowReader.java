package io.rowbridge.spark.source;

import io.rowbridge.scan.NativeScan;
import io.rowbridge.scan.RowScan;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;

/**
 * A task's row reader: one native RowScan over its range, whose workers decode each batch and
 * convert it to UnsafeRows, so rows are ready when the task asks. The row is reused: valid until
 * the next call to {@link #next()} (Spark's row reuse contract).
 */
final class RowReader implements PartitionReader<InternalRow> {
  private final StreamTask task;
  private RowScan scan;
  private InternalRow row;
  private long rows;
  private final ScanMetrics.Totals totals = new ScanMetrics.Totals();

  RowReader(FileRange range, SourceConf conf) {
    this.task = new StreamTask(range, this);
    try {
      scan = NativeScan.openRows(range.path(), task.options(conf)
          .withConverterOptions(conf.converterOptions()));
    } catch (RuntimeException e) {
      throw task.failure(e);
    }
    StreamTask.OPEN_STREAMS.incrementAndGet();
  }

  @Override
  public boolean next() {
    if (scan == null) {
      return false;
    }
    try {
      while (!scan.next()) {
        if (!scan.nextBatch()) {
          row = null;
          return false;
        }
      }
    } catch (RuntimeException e) {
      throw task.failure(e);
    }
    row = scan.row();
    rows++;
    return true;
  }

  @Override
  public InternalRow get() {
    return row;
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return totals.current(rows, scan);
  }

  @Override
  public void initMetricsValues(CustomTaskMetric[] metrics) {
    totals.carry(metrics);
  }

  @Override
  public void close() {
    if (scan == null) {
      return;
    }
    currentMetricsValues(); // keeps the stream's final counters
    try {
      scan.close();
    } finally {
      scan = null;
      row = null;
      StreamTask.OPEN_STREAMS.decrementAndGet();
    }
  }
}
