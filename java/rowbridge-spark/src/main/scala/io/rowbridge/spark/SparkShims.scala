package io.rowbridge.spark

import org.apache.hadoop.fs.Path
import org.apache.spark.paths.SparkPath
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.types.DataTypeUtils
import org.apache.spark.sql.execution.datasources.PartitionedFile
import org.apache.spark.sql.types.StructType

/** The Spark-version-specific calls of this module, in one place (Spark 4.1). */
private[spark] object SparkShims {
  def schemaOf(attributes: Seq[Attribute]): StructType = DataTypeUtils.fromAttributes(attributes)

  /** A byte range of a file, with its partition values and the hosts that hold it. */
  def partitionedFile(
      partitionValues: InternalRow,
      path: Path,
      start: Long,
      length: Long,
      hosts: Array[String],
      modificationTime: Long,
      fileSize: Long
  ): PartitionedFile =
    PartitionedFile(
      partitionValues,
      SparkPath.fromPath(path),
      start,
      length,
      hosts,
      modificationTime,
      fileSize
    )
}
