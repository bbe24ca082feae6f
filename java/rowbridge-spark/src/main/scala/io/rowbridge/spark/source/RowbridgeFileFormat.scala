package io.rowbridge.spark.source

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.FileStatus
import org.apache.hadoop.mapreduce.Job
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.execution.datasources.{FileFormat, OutputWriterFactory, PartitionedFile}
import org.apache.spark.sql.sources.Filter
import org.apache.spark.sql.types.StructType

/**
 * The file format Spark falls back to where its DataSource V2 file sources are not used (catalog
 * tables, `spark.sql.sources.useV1SourceList`). It infers the schema; reading and writing through
 * it are refused with an error that says what to use instead.
 */
class RowbridgeFileFormat extends FileFormat {
  override def inferSchema(
      sparkSession: SparkSession,
      options: Map[String, String],
      files: Seq[FileStatus]): Option[StructType] = {
    files.find(f => RowbridgeSource.isArrowName(f.getPath.getName)).map { status =>
      val conf = sparkSession.sessionState.newHadoopConfWithOptions(options)
      RowbridgeSource.sparkSchema(status.getPath, conf,
        RowbridgeSource.inspect(status.getPath, conf).schema())
    }
  }

  override def prepareWrite(
      sparkSession: SparkSession,
      job: Job,
      options: Map[String, String],
      dataSchema: StructType): OutputWriterFactory =
    throw new UnsupportedOperationException("rowbridge: writing is not supported yet")

  override protected def buildReader(
      sparkSession: SparkSession,
      dataSchema: StructType,
      partitionSchema: StructType,
      requiredSchema: StructType,
      filters: Seq[Filter],
      options: Map[String, String],
      hadoopConf: Configuration): PartitionedFile => Iterator[InternalRow] =
    throw new UnsupportedOperationException("rowbridge reads through DataSource V2 only: " +
      "spark.read.format(\"rowbridge\").load(path), not a catalog table or " +
      "spark.sql.sources.useV1SourceList")

  override def toString: String = "rowbridge"
}
