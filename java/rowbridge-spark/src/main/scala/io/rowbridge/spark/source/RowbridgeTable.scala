package io.rowbridge.spark.source

import scala.jdk.CollectionConverters._

import org.apache.hadoop.fs.FileStatus
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.catalog.TableCapability
import org.apache.spark.sql.connector.write.{LogicalWriteInfo, WriteBuilder}
import org.apache.spark.sql.execution.datasources.FileFormat
import org.apache.spark.sql.execution.datasources.v2.FileTable
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

/** The files of one `load`, listed by Spark's file index: a batch-readable table with top-level
  * column pruning, partition columns from Hive-style directories, and partition pruning (static
  * filters when the scan is planned, runtime filters such as dynamic partition pruning's when it
  * runs).
  */
case class RowbridgeTable(
    name: String,
    sparkSession: SparkSession,
    options: CaseInsensitiveStringMap,
    paths: Seq[String],
    userSpecifiedSchema: Option[StructType]
) extends FileTable(sparkSession, options, paths, userSpecifiedSchema) {

  override def formatName: String = "rowbridge"

  override def fallbackFileFormat: Class[_ <: FileFormat] = classOf[RowbridgeFileFormat]

  override def capabilities: java.util.Set[TableCapability] =
    java.util.EnumSet.of(TableCapability.BATCH_READ)

  /** The schema of the first Arrow IPC file (in path order): a directory's files named `*.arrow`,
    * `*.arrows`, `*.feather` or `*.ipc`, or files named explicitly.
    */
  override def inferSchema(files: Seq[FileStatus]): Option[StructType] = {
    val arrowFiles = RowbridgeScan.arrowFiles(fileIndex.rootPaths, files)
    if (arrowFiles.isEmpty) {
      throw new IllegalArgumentException(
        "rowbridge: no Arrow IPC file (*.arrow, *.arrows, " +
          "*.feather, *.ipc) under " + paths.mkString(", ")
      )
    }
    val first = arrowFiles.head.getPath
    val conf =
      sparkSession.sessionState.newHadoopConfWithOptions(options.asCaseSensitiveMap.asScala.toMap)
    Some(RowbridgeSource.sparkSchema(first, conf, RowbridgeSource.inspect(first, conf).schema()))
  }

  /** The table's options, then the scan's (Spark 3.5's FileTable has no mergedOptions). */
  override def newScanBuilder(options: CaseInsensitiveStringMap): RowbridgeScanBuilder =
    new RowbridgeScanBuilder(
      sparkSession,
      fileIndex,
      dataSchema,
      new CaseInsensitiveStringMap(
        (this.options.asCaseSensitiveMap.asScala ++ options.asCaseSensitiveMap.asScala).asJava
      )
    )

  override def newWriteBuilder(info: LogicalWriteInfo): WriteBuilder =
    throw new UnsupportedOperationException("rowbridge: writing is not supported yet")

  override def properties: java.util.Map[String, String] =
    (options.asCaseSensitiveMap.asScala ++ Map("format" -> formatName)).asJava
}
