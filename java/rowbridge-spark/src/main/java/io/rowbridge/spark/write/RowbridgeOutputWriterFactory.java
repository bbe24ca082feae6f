package io.rowbridge.spark.write;

import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.spark.sql.execution.datasources.OutputWriter;
import org.apache.spark.sql.execution.datasources.OutputWriterFactory;
import org.apache.spark.sql.types.StructType;

/** Made on the driver by RowbridgeFileFormat.prepareWrite; makes each task's file writers. */
public final class RowbridgeOutputWriterFactory extends OutputWriterFactory {
  private static final long serialVersionUID = 1L;

  private final WriteConf conf;

  public RowbridgeOutputWriterFactory(WriteConf conf) {
    this.conf = conf;
  }

  @Override
  public String getFileExtension(TaskAttemptContext context) {
    return conf.extension();
  }

  @Override
  public OutputWriter newInstance(String path, StructType dataSchema, TaskAttemptContext context) {
    return new RowbridgeOutputWriter(path, dataSchema, context, conf);
  }
}
