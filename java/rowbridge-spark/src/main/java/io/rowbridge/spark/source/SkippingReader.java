package io.rowbridge.spark.source;

import java.io.IOException;
import org.apache.spark.TaskContext;
import org.apache.spark.TaskKilledException;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's reader of one file's range that ends early, with a logged warning, where the file cannot
 * be read and {@code ignoreCorruptFiles} is set; a killed task still ends as killed. A null reader
 * reads nothing (a skipped file).
 */
final class SkippingReader<T> implements PartitionReader<T> {
  private static final Logger LOG = LoggerFactory.getLogger(SkippingReader.class);

  private final PartitionReader<T> reader;
  private final PartitionedFile file;
  private final boolean ignoreCorruptFiles;
  private boolean ended;

  SkippingReader(PartitionReader<T> reader, PartitionedFile file, boolean ignoreCorruptFiles) {
    this.reader = reader;
    this.file = file;
    this.ignoreCorruptFiles = ignoreCorruptFiles;
    this.ended = reader == null;
  }

  /** True when {@code e} ends a killed task, which no skipping may hide. */
  static boolean killed(Throwable e) {
    TaskContext task = TaskContext.get();
    return e instanceof TaskKilledException || (task != null && task.isInterrupted());
  }

  @Override
  public boolean next() throws IOException {
    if (ended) {
      return false;
    }
    try {
      return reader.next();
    } catch (RuntimeException | IOException e) {
      if (ignoreCorruptFiles && !killed(e)) {
        LOG.warn("rowbridge: skipped the rest of the unreadable file {}", file.filePath(), e);
        ended = true;
        return false;
      }
      throw e;
    }
  }

  @Override
  public T get() {
    return reader.get();
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return reader == null ? new CustomTaskMetric[0] : reader.currentMetricsValues();
  }

  @Override
  public void initMetricsValues(CustomTaskMetric[] metrics) {
    if (reader != null) {
      reader.initMetricsValues(metrics);
    }
  }

  @Override
  public void close() throws IOException {
    if (reader != null) {
      reader.close();
    }
  }
}
