package io.rowbridge.spark.source

import scala.jdk.CollectionConverters._

import io.rowbridge.ArrowSchemas
import io.rowbridge.spark.write.{RowbridgeOutputWriterFactory, WriteConf}

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.FileStatus
import org.apache.hadoop.mapreduce.Job
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.execution.datasources.{FileFormat, OutputWriterFactory, PartitionedFile}
import org.apache.spark.sql.sources.Filter
import org.apache.spark.sql.types.{ArrayType, DataType, MapType, StructType, UserDefinedType}

/** The file format Spark falls back to where its DataSource V2 file sources are not used: every
  * `df.write.format("rowbridge")` (Spark writes file sources through this V1 path, as it writes
  * Parquet, which gives all four SaveModes, `partitionBy` and the commit protocol), catalog tables
  * and `spark.sql.sources.useV1SourceList`. It infers the schema and writes Arrow IPC files
  * ([[io.rowbridge.spark.write.RowbridgeOutputWriterFactory]]); reading through it is refused with
  * an error that says what to use instead.
  */
class RowbridgeFileFormat extends FileFormat {
  override def inferSchema(
      sparkSession: SparkSession,
      options: Map[String, String],
      files: Seq[FileStatus]
  ): Option[StructType] = {
    files.find(f => RowbridgeSource.isArrowName(f.getPath.getName)).map { status =>
      val conf = sparkSession.sessionState.newHadoopConfWithOptions(options)
      RowbridgeSource.sparkSchema(
        status.getPath,
        conf,
        RowbridgeSource.inspect(status.getPath, conf).schema()
      )
    }
  }

  override def prepareWrite(
      sparkSession: SparkSession,
      job: Job,
      options: Map[String, String],
      dataSchema: StructType
  ): OutputWriterFactory =
    new RowbridgeOutputWriterFactory(WriteConf.of(options.asJava, sparkSession.sessionState.conf))

  /** The types rows decode to Arrow (CONTRACTS.md §2 in reverse). */
  override def supportDataType(dataType: DataType): Boolean = dataType match {
    case struct: StructType      => struct.fields.forall(f => supportDataType(f.dataType))
    case array: ArrayType        => supportDataType(array.elementType)
    case map: MapType            => supportDataType(map.keyType) && supportDataType(map.valueType)
    case udt: UserDefinedType[_] => supportDataType(udt.sqlType)
    case leaf                    => ArrowSchemas.supports(leaf)
  }

  override protected def buildReader(
      sparkSession: SparkSession,
      dataSchema: StructType,
      partitionSchema: StructType,
      requiredSchema: StructType,
      filters: Seq[Filter],
      options: Map[String, String],
      hadoopConf: Configuration
  ): PartitionedFile => Iterator[InternalRow] =
    throw new UnsupportedOperationException(
      "rowbridge reads through DataSource V2 only: " +
        "spark.read.format(\"rowbridge\").load(path), not a catalog table or " +
        "spark.sql.sources.useV1SourceList"
    )

  override def toString: String = "rowbridge"
}
