package io.rowbridge.spark.source

import java.nio.file.{Files, Path => LocalPath}

import scala.collection.mutable
import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import io.rowbridge.SparkTypes
import io.rowbridge.scan.IpcFileInfo
import io.rowbridge.spark.SparkShims
import io.rowbridge.spark.python.RecordBatchBuilder

import org.apache.arrow.vector.types.pojo.{Field, Schema}
import org.apache.hadoop.fs.{FileStatus, LocatedFileStatus, Path}
import org.apache.spark.internal.Logging
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.{FileSourceOptions, InternalRow}
import org.apache.spark.sql.catalyst.expressions.{Expression, GenericInternalRow}
import org.apache.spark.sql.catalyst.util.CaseInsensitiveMap
import org.apache.spark.sql.connector.expressions.{Expressions, NamedReference}
import org.apache.spark.sql.connector.expressions.filter.Predicate
import org.apache.spark.sql.connector.metric.CustomMetric
import org.apache.spark.sql.connector.read.{
  PartitionReaderFactory,
  Scan,
  SupportsRuntimeV2Filtering
}
import org.apache.spark.sql.execution.datasources.{
  FilePartition,
  PartitionedFile,
  PartitioningAwareFileIndex
}
import org.apache.spark.sql.execution.datasources.v2.{FileScan, FileScanBuilder}
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap
import org.apache.spark.util.SerializableConfiguration

/** Builds [[RowbridgeScan]]s: Spark's file scan builder prunes columns and splits filters. */
class RowbridgeScanBuilder(
    sparkSession: SparkSession,
    fileIndex: PartitioningAwareFileIndex,
    dataSchema: StructType,
    options: CaseInsensitiveStringMap
) extends FileScanBuilder(sparkSession, fileIndex, dataSchema) {
  override def build(): Scan = RowbridgeScan(
    sparkSession,
    fileIndex,
    dataSchema,
    readDataSchema(),
    readPartitionSchema(),
    options,
    partitionFilters,
    dataFilters
  )
}

/** A planned scan. Files: those the file index lists under the partition filters, in the order of
  * the paths given and then by name; in a directory, only Arrow IPC names count
  * ([[RowbridgeSource.isArrowName]]). Every file's footer is read when the scan is planned: its
  * columns must be the first file's (names and Spark types, in order), else the scan fails naming
  * it. Partitions: each file's record batches, in order, cut into ranges of about `splitBytes` of
  * batch bodies (a file no larger is one partition; an empty file none; a file in the IPC stream
  * format, which cannot be read from the middle, one partition), each reporting the hosts of the
  * blocks that hold its bytes. Columnar (ColumnarBatch of ArrowColumnVectors over the native scan's
  * vectors, partition columns as ConstantColumnVectors) when every file's read columns are ones
  * Spark's ArrowColumnVector reads ([[ColumnarSupport]]) and the mode is not `rows`; otherwise
  * UnsafeRows converted natively in the stream's workers.
  *
  * Runtime filters on partition columns (dynamic partition pruning) drop the partitions whose
  * values they reject.
  */
case class RowbridgeScan(
    sparkSession: SparkSession,
    fileIndex: PartitioningAwareFileIndex,
    dataSchema: StructType,
    readDataSchema: StructType,
    readPartitionSchema: StructType,
    options: CaseInsensitiveStringMap,
    partitionFilters: Seq[Expression],
    dataFilters: Seq[Expression]
) extends FileScan
    with SupportsRuntimeV2Filtering
    with Logging {

  private val sourceConf = SourceConf.of(options, sparkSession.sessionState.conf)
  private val fileOptions =
    new FileSourceOptions(CaseInsensitiveMap(options.asCaseSensitiveMap.asScala.toMap))

  /** The file columns read, as indices into the files' (and the data schema's) columns. */
  private val columns: Array[Int] = readDataSchema.fieldNames.map(dataSchema.fieldIndex)
  @volatile private var runtimeFilters: Seq[Predicate] = Nil

  /** One range per partition, with every partition column's value (for runtime filters), and the
    * files' distinct Arrow schemas.
    */
  private case class Planned(
      ranges: Seq[(PartitionedFile, InternalRow)],
      columnar: Boolean,
      arrowSchemas: Set[Schema]
  )

  private lazy val planned: Planned = plan()

  /** The session's Hadoop configuration with the read options (credentials, endpoints, ...). */
  private lazy val hadoopConf =
    sparkSession.sessionState.newHadoopConfWithOptions(options.asCaseSensitiveMap.asScala.toMap)

  override def isSplitable(path: Path): Boolean = true

  override def columnarSupportMode(): Scan.ColumnarSupportMode =
    if (planned.columnar) Scan.ColumnarSupportMode.SUPPORTED
    else Scan.ColumnarSupportMode.UNSUPPORTED

  override protected def partitions: Seq[FilePartition] = {
    val filters = runtimeFilters
    val kept = planned.ranges.filter { case (_, values) =>
      filters.forall(p => PartitionPredicates.accepts(p, values, fileIndex.partitionSchema))
    }
    kept.zipWithIndex.map { case ((file, _), index) => FilePartition(index, Array(file)) }
  }

  override def createReaderFactory(): PartitionReaderFactory =
    new RowbridgeReaderFactory(
      sourceConf,
      planned.columnar,
      columns,
      dataSchema,
      readPartitionSchema,
      fileOptions.ignoreMissingFiles,
      fileOptions.ignoreCorruptFiles,
      sparkSession.sparkContext.broadcast(new SerializableConfiguration(hadoopConf))
    )

  override def supportedCustomMetrics(): Array[CustomMetric] = ScanMetrics.supported()

  /** The partition columns this scan outputs: the ones a runtime filter can name. */
  override def filterAttributes(): Array[NamedReference] =
    readPartitionSchema.fieldNames.map(name => Expressions.column(name))

  override def filter(predicates: Array[Predicate]): Unit = {
    runtimeFilters = runtimeFilters ++ predicates
  }

  override def equals(other: Any): Boolean = other match {
    case scan: RowbridgeScan =>
      super.equals(scan) && runtimeFilters == scan.runtimeFilters &&
      options == scan.options
    case _ => false
  }

  override def hashCode(): Int = getClass.hashCode()

  override def getMetaData(): Map[String, String] =
    super.getMetaData() ++ Map("RuntimeFilters" -> seqToString(runtimeFilters))

  private def plan(): Planned = {
    val listed = fileIndex.listFiles(partitionFilters, dataFilters)
    val roots = fileIndex.rootPaths
    val files = listed.flatMap(dir => dir.files.map(f => (f.fileStatus, dir.values)))
    val valuesOf = files.map { case (status, values) => status.getPath -> values }.toMap
    val ordered = RowbridgeScan.arrowFiles(roots, files.map(_._1)).map { status =>
      (status, valuesOf(status.getPath))
    }
    var columnar = !sourceConf.rowsOnly()
    val ranges = mutable.ArrayBuffer.empty[(PartitionedFile, InternalRow)]
    val arrowSchemas = mutable.Set.empty[Schema]
    for ((status, values) <- ordered) {
      val path = status.getPath
      footer(path).foreach { info =>
        checkSchema(path, info)
        arrowSchemas += info.schema()
        val fields = info.schema().getFields
        columnar &&= columns.forall(c => ColumnarSupport.readable(fields.get(c)))
        val read = readPartitionValues(values)
        split(status, info).foreach { case (start, length) =>
          ranges += ((
            SparkShims.partitionedFile(
              read,
              status.getPath,
              start,
              length,
              RowbridgeScan.hosts(status, start, length),
              status.getModificationTime,
              status.getLen
            ),
            values
          ))
        }
      }
    }
    Planned(ranges.toSeq, columnar, arrowSchemas.toSet)
  }

  /** The record batch messages of this scan's output columns `ordinals`, as the files store them
    * (compressed where they are: [[StoredBatchesRDD]]), each of the Arrow type of `expected`'s
    * field (but for a timestamp's zone label); None when they cannot be: a partition column, files
    * of different Arrow schemas, a column of another Arrow type or dictionary-encoded, or missing
    * and corrupt files to be skipped.
    */
  def storedMessages(ordinals: Array[Int], expected: Seq[Field]): Option[RDD[Array[Byte]]] = {
    val schemas = planned.arrowSchemas
    if (
      fileOptions.ignoreMissingFiles || fileOptions.ignoreCorruptFiles || schemas.size != 1 ||
      ordinals.exists(_ >= columns.length) || ordinals.length != expected.length
    ) {
      return None
    }
    val fileSchema = schemas.head
    val fileColumns = ordinals.map(columns(_))
    val fits = fileColumns.zip(expected).forall { case (column, field) =>
      RecordBatchBuilder.fits(field, fileSchema.getFields.get(column))
    }
    if (!fits) {
      return None
    }
    val every = fileColumns.sameElements(fileSchema.getFields.asScala.indices)
    val context = sparkSession.sparkContext
    Some(
      new StoredBatchesRDD(
        context,
        partitions,
        context.broadcast(new SerializableConfiguration(hadoopConf)),
        fileSchema.toJson,
        if (every) null else fileColumns
      )
    )
  }

  /** The footer, or None for a file skipped by ignoreMissingFiles or ignoreCorruptFiles. */
  private def footer(path: Path): Option[IpcFileInfo] = {
    try {
      Some(RowbridgeSource.inspect(path, hadoopConf))
    } catch {
      case NonFatal(e) if fileOptions.ignoreMissingFiles && RowbridgeScan.isMissing(path, e) =>
        logWarning(s"rowbridge: skipped the missing file $path", e)
        None
      case NonFatal(e) if fileOptions.ignoreCorruptFiles =>
        logWarning(s"rowbridge: skipped the unreadable file $path", e)
        None
    }
  }

  /** Every file must map to the table's data columns (names and Spark types, in order). */
  private def checkSchema(path: Path, info: IpcFileInfo): Unit = {
    val mapped = RowbridgeSource.sparkSchema(path, hadoopConf, info.schema())
    val same = mapped.length == dataSchema.length && mapped.fields.zip(dataSchema.fields).forall {
      case (actual, expected) =>
        actual.name == expected.name &&
        SparkTypes.sameType(expected.dataType, actual.dataType)
    }
    if (!same) {
      throw new IllegalArgumentException(
        s"rowbridge: $path has the columns " +
          s"${mapped.simpleString}, unlike the table's ${dataSchema.simpleString}"
      )
    }
  }

  private def readPartitionValues(values: InternalRow): InternalRow = {
    val all = fileIndex.partitionSchema
    new GenericInternalRow(
      readPartitionSchema.fields
        .map { field =>
          val index = all.fieldIndex(field.name)
          if (values.isNullAt(index)) null else values.get(index, all(index).dataType)
        }
        .toArray[Any]
    )
  }

  /** The byte ranges of a file's partitions: whole record batches of about splitBytes. */
  private def split(status: FileStatus, info: IpcFileInfo): Seq[(Long, Long)] = {
    val batches = info.numBatches()
    if (batches == 0) {
      Nil
    } else if (!info.isFileFormat) {
      // The stream format has no footer to seek batches by: one partition reads it in order.
      Seq((0L, status.getLen))
    } else {
      val out = mutable.ArrayBuffer.empty[(Long, Long)]
      var first = 0
      var bytes = 0L
      for (i <- 0 until batches) {
        bytes += info.batchBodyBytes(i)
        if (bytes >= sourceConf.splitBytes() || i == batches - 1) {
          val start = info.batchOffset(first)
          out += ((start, info.batchOffset(i) + info.batchMessageBytes(i) - start))
          first = i + 1
          bytes = 0
        }
      }
      out.toSeq
    }
  }
}

object RowbridgeScan {

  /** The Arrow IPC files among `files`, in the order of the root paths they were found under, then
    * by path: a root path that is a file is read whatever its name; under a directory, only the
    * names of [[RowbridgeSource.isArrowName]].
    */
  def arrowFiles(roots: Seq[Path], files: Seq[FileStatus]): Seq[FileStatus] = {
    val rootStrings = roots.map(_.toString)
    def rootIndex(path: String): Int = {
      val exact = rootStrings.indexOf(path)
      if (exact >= 0) exact
      else rootStrings.indexWhere(root => path.startsWith(root.stripSuffix("/") + "/"))
    }
    files
      .filter { status =>
        rootStrings.contains(status.getPath.toString) ||
        RowbridgeSource.isArrowName(status.getPath.getName)
      }
      .distinct
      .sortBy { status =>
        val path = status.getPath.toString
        val index = rootIndex(path)
        (if (index < 0) Int.MaxValue else index, path)
      }
  }

  /** True when `failure` says the file at `path` does not exist (any more). */
  def isMissing(path: Path, failure: Throwable): Boolean = {
    if (LocalFiles.isLocal(path)) {
      Files.notExists(LocalPath.of(LocalFiles.localPath(path)))
    } else {
      Iterator
        .iterate(failure)(_.getCause)
        .takeWhile(_ != null)
        .exists(_.isInstanceOf[java.io.FileNotFoundException])
    }
  }

  /** The hosts of the blocks holding `[start, start + length)` of a file, most bytes first. */
  def hosts(status: FileStatus, start: Long, length: Long): Array[String] = status match {
    case located: LocatedFileStatus if located.getBlockLocations != null =>
      val bytes = mutable.LinkedHashMap.empty[String, Long]
      for (block <- located.getBlockLocations) {
        val overlap = math.min(start + length, block.getOffset + block.getLength) -
          math.max(start, block.getOffset)
        if (overlap > 0) {
          block.getHosts.foreach(host => bytes(host) = bytes.getOrElse(host, 0L) + overlap)
        }
      }
      bytes.toSeq.sortBy(-_._2).map(_._1).toArray
    case _ => Array.empty
  }
}
