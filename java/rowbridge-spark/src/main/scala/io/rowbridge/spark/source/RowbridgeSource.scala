package io.rowbridge.spark.source

import java.util.Locale

import io.rowbridge.shim.SparkTypeShim
import io.rowbridge.{RowbridgeException, SparkTypes}
import io.rowbridge.ArrowCData
import io.rowbridge.scan.{IpcFileInfo, NativeScan, ScanOptions}

import org.apache.arrow.vector.types.pojo.{Field, Schema}
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.spark.sql.connector.catalog.Table
import org.apache.spark.sql.connector.read.Scan
import org.apache.spark.sql.execution.datasources.FileFormat
import org.apache.spark.sql.execution.datasources.v2.FileDataSourceV2
import org.apache.spark.sql.types.{StructField, StructType}
import org.apache.spark.sql.util.CaseInsensitiveStringMap

/** Arrow IPC files read by rowbridge's native parallel scan:
  * `spark.read.format("rowbridge").load(path)` (registered under that short name through
  * `META-INF/services`, and addressable by this class's name). A file source of Spark's own kind:
  * Spark's file index lists the paths (globs, Hive-style partition directories, `pathGlobFilter`,
  * `recursiveFileLookup`, `basePath`), and [[RowbridgeScan]] reads the files. The schema comes from
  * the first file's footer, mapped to Spark types by CONTRACTS.md §2, every column nullable, as in
  * Spark's own file sources; a schema given with `.schema(...)` must match the files. Options and
  * configuration: [[SourceConf]].
  */
class RowbridgeSource extends FileDataSourceV2 {
  override def shortName(): String = "rowbridge"

  override def fallbackFileFormat: Class[_ <: FileFormat] = classOf[RowbridgeFileFormat]

  override protected def getTable(options: CaseInsensitiveStringMap): Table = table(options, None)

  override protected def getTable(options: CaseInsensitiveStringMap, schema: StructType): Table =
    table(options, Some(schema))

  private def table(options: CaseInsensitiveStringMap, schema: Option[StructType]): Table = {
    ArrowCData.require("format(\"rowbridge\")")
    val paths = getPaths(options)
    if (paths.isEmpty) {
      throw new IllegalArgumentException(
        "rowbridge: no path given (spark.read.format(\"rowbridge\").load(path))"
      )
    }
    RowbridgeTable(
      getTableName(options, paths),
      sparkSession,
      getOptionsWithoutPaths(options),
      paths,
      schema
    )
  }
}

object RowbridgeSource {

  /** True when `scan` is this source's scan reading rows (UnsafeRows from the native stream): the
    * rows need no conversion, so rowbridge's extension drops the projection Spark plans above a
    * row-based scan when it only passes the scan's columns through.
    */
  def readsUnsafeRows(scan: Scan): Boolean = scan match {
    case rowbridge: RowbridgeScan =>
      rowbridge.columnarSupportMode() == Scan.ColumnarSupportMode.UNSUPPORTED
    case _ => false
  }

  /** True for the names a directory's Arrow IPC files have: `*.arrow`, `*.arrows` (the IPC stream
    * format), `*.feather` and `*.ipc`. A file named explicitly is read whatever its name.
    */
  def isArrowName(name: String): Boolean = {
    val lower = name.toLowerCase(Locale.ROOT)
    lower.endsWith(".arrow") || lower.endsWith(".arrows") || lower.endsWith(".feather") ||
    lower.endsWith(".ipc")
  }

  /** The footer of `path`: a local file's mapped, any other read through Hadoop with `conf`. A
    * missing file throws FileNotFoundException; another unreadable file, an error naming it.
    */
  def inspect(path: Path, conf: Configuration): IpcFileInfo = {
    if (LocalFiles.isLocal(path)) {
      LocalFiles.inspect(LocalFiles.localPath(path))
    } else {
      try {
        HadoopFile.inspect(path, conf)
      } catch {
        case e: RowbridgeException =>
          throw new RowbridgeException(SourceErrors.describe(path.toString, -1, 0, e), e.code())
      }
    }
  }

  /** The Spark schema of a file's Arrow schema (CONTRACTS.md §2), top-level columns nullable. A
    * dictionary-encoded column takes its value type, which the native scan reports.
    */
  def sparkSchema(path: Path, conf: Configuration, schema: Schema): StructType = {
    val file = path.toString
    val mapped =
      try {
        if (!hasDictionary(schema.getFields)) {
          SparkTypes.of(schema.getFields, null)
        } else if (LocalFiles.isLocal(path)) {
          val scan = NativeScan.openRows(
            LocalFiles.localPath(path),
            ScanOptions.defaults().batchRange(0, 0)
          )
          try scan.sparkSchema()
          finally scan.close()
        } else {
          HadoopFile.sparkSchemaOf(path, conf)
        }
      } catch {
        case e: RowbridgeException =>
          throw new IllegalArgumentException(s"rowbridge: $file: ${e.getMessage}", e)
      }
    val result = StructType(
      mapped.fields.map(f => StructField(f.name, f.dataType, nullable = true, f.metadata))
    )
    // TimeType while spark.sql.timeType.enabled is off fails with Spark's own error.
    SparkTypeShim.checkSessionSupports(result)
    result
  }

  private def hasDictionary(fields: java.util.List[Field]): Boolean =
    fields.stream().anyMatch(f => f.getDictionary != null || hasDictionary(f.getChildren))
}
