// In Spark's package for the Spark-private API it uses: SocketAuthServer and SocketAuthHelper
// (private[spark]), PythonSQLUtils and ArrowUtils (private[sql]).
package org.apache.spark.sql.rowbridge.frames

import java.io.OutputStream

import scala.collection.mutable
import scala.jdk.CollectionConverters._

import io.rowbridge.ArrowSchemas
import io.rowbridge.spark.arrow.RowbridgeArrow
import io.rowbridge.spark.cache.{ArrowCacheSerializer, CachedBatchMessages}
import io.rowbridge.spark.conf.RowbridgeConf
import io.rowbridge.spark.source.RowbridgeScan
import io.rowbridge.spark.frames.{
  ColumnarBatchMessages,
  ColumnarOutput,
  EngineBatchMessages,
  LimitedMessages,
  PythonBatchesTable,
  RecordBatchMessages
}
import io.rowbridge.spark.transition.BatchRowSource

import org.apache.arrow.vector.types.pojo.Schema
import org.apache.spark.network.util.JavaUtils
import org.apache.spark.rdd.RDD
import org.apache.spark.security.{SocketAuthHelper, SocketAuthServer}
import org.apache.spark.sql.{DataFrame, Dataset, SparkSession}
import org.apache.spark.sql.api.python.PythonSQLUtils
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.AttributeReference
import org.apache.spark.sql.catalyst.plans.logical.LocalRelation
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.columnar.InMemoryTableScanExec
import org.apache.spark.sql.execution.datasources.v2.{BatchScanExec, DataSourceV2Relation}
import org.apache.spark.sql.execution.metric.SQLMetrics
import org.apache.spark.sql.types.{DataType, StructType}
import org.apache.spark.sql.util.ArrowUtils
import org.apache.spark.sql.vectorized.ColumnarBatch

/** DataFrames to and from Python's Arrow, with rowbridge on the JVM's side of each crossing.
  *
  *   - [[serveArrow]]: a DataFrame's batches as Arrow IPC messages, made on the executors (a
  *     columnar plan's own Arrow vectors where [[ColumnarOutput]] finds them, rows through
  *     rowbridge's decoder and encoder otherwise), streamed to the Python driver through a local
  *     socket in partition order, with no file between. The messages travel through the block
  *     managers ([[PartitionBlocks]]), not as task results; spark.driver.maxResultSize stops a
  *     collect that is too large with Spark's own error.
  *   - [[toDataFrame]]: the batches PySpark's createDataFrame sends (its own pandas and Arrow
  *     conversion, untouched) become rows through rowbridge's converter, in place of the row by row
  *     reading of Spark's PythonSQLUtils.toDataFrame; small data becomes a local relation and
  *     larger data an RDD with a batch per partition, as Spark's own does.
  */
object ArrowFrames {

  /** The IPC end-of-stream marker. */
  private val EndOfStream = RowbridgeArrow.END_OF_STREAM

  /** The bytes of batches a partition of [[PythonBatchesTable]] holds at most. A task carries its
    * partition's bytes, and each running task holds them twice in the JVM's heap (serialized and
    * read back): 16 MiB keeps that small while a task still converts some 100 000 rows (at a
    * partition per 10 000-row batch, as Spark's RDD has, scheduling cost more than converting).
    */
  private val MaxPartitionBytes = 16L << 20

  /** Spark's default for spark.sql.execution.arrow.localRelationThreshold. */
  private val DefaultLocalRelationThreshold = "48MB"

  /** Serves `dataset`'s rows as one Arrow IPC stream to a Python reader, as PySpark's own
    * collectAsArrowToPython serves its batches: returns the connection (a port or a socket path),
    * the secret (or null) and the server, whose getResult() raises the job's error once the stream
    * has ended. The schema is Spark's Arrow schema of the rows, timestamps labelled with
    * `timeZoneId`; batches come in partition order, each partition's as its task returned them, and
    * partitions that finish early wait on the driver until those before them are written.
    */
  def serveArrow(dataset: Dataset[_], timeZoneId: String): Array[Any] = {
    refuseDuplicatedStructNames(dataset)
    val schema = RowbridgeArrow.schemaMessage(dataset, timeZoneId)
    val (batches, limit) = batchStream(dataset, timeZoneId)
    val context = dataset.sparkSession.sparkContext
    val helper = new SocketAuthHelper(context.conf)
    val maxResultSize = context.conf.getSizeAsBytes("spark.driver.maxResultSize", "1g")
    SocketAuthServer.serveToStream("serve rowbridge Arrow batches", helper) { out =>
      out.write(schema)
      PartitionBlocks.stream(batches, out, maxResultSize, limit)
      out.write(EndOfStream)
      out.flush()
    }
  }

  /** `dataset`'s batches as IPC record batch messages, each partition's in order, for the schema of
    * [[RowbridgeArrow.schemaMessage]] with `timeZoneId`: the plan's own Arrow vectors when
    * [[ColumnarOutput]] finds a columnar plan (and the setting allows), rows through rowbridge's
    * decoder otherwise. Runs the plan when the RDD is computed.
    */
  def batchMessages(dataset: Dataset[_], timeZoneId: String): RDD[Array[Byte]] =
    columnarBatches(dataset, timeZoneId, limits = false)
      .map(_._1)
      .getOrElse(RowbridgeArrow.toArrowBatches(dataset, timeZoneId).rdd)

  /** [[batchMessages]], and under a collect's limit over a columnar plan the limit and the batches'
    * Arrow schema: each task keeps its first rows, and the caller passes the limit to
    * [[PartitionBlocks.stream]], which keeps the first rows of the partitions in order.
    */
  def batchStream(
      dataset: Dataset[_],
      timeZoneId: String
  ): (RDD[Array[Byte]], Option[(Long, Schema)]) =
    columnarBatches(dataset, timeZoneId, limits = true)
      .map { case (messages, limit) =>
        (messages, limit.map(n => (n.toLong, RowbridgeArrow.arrowSchema(dataset, timeZoneId))))
      }
      .getOrElse((RowbridgeArrow.toArrowBatches(dataset, timeZoneId).rdd, None))

  /** Whether the frames take a columnar plan's batches as they are (true, the default), or make
    * every plan's rows into Arrow through rowbridge's decoder.
    */
  val ColumnarEnabled = "spark.rowbridge.frames.columnar.enabled"

  /** The path `dataset`'s rows take to Arrow in [[serveArrow]], in words. */
  def arrowPath(dataset: Dataset[_]): String = {
    val plan = dataset.queryExecution.executedPlan
    if (!columnarEnabled(dataset)) s"rows: $ColumnarEnabled is false"
    else ColumnarOutput.describe(plan)
  }

  private def columnarEnabled(dataset: Dataset[_]): Boolean =
    dataset.sparkSession.sessionState.conf.getConfString(ColumnarEnabled, "true").toBoolean

  /** The IPC batch messages of `dataset`'s plan when it ends in columnar batches
    * ([[ColumnarOutput]]): their vectors as they are, with no rows between; with `limits`, also
    * under a collect's limit, each partition's first rows of it, and the limit.
    */
  private def columnarBatches(
      dataset: Dataset[_],
      timeZoneId: String,
      limits: Boolean
  ): Option[(RDD[Array[Byte]], Option[Int])] =
    if (!columnarEnabled(dataset)) None
    else {
      ColumnarOutput.of(dataset.queryExecution.executedPlan, limits).map {
        case ColumnarOutput.Batches(columnar, ordinals, engine, limit) =>
          val schemaJson = RowbridgeArrow.arrowSchema(dataset, timeZoneId).toJson
          val engineName = engine.map(_.name())
          val rowSchema = dataset.schema
          val messages = storedCache(columnar, ordinals, schemaJson)
            .orElse(storedFiles(columnar, ordinals, schemaJson))
            .getOrElse {
              columnar.executeColumnar().mapPartitions { batches =>
                val expected = Schema.fromJSON(schemaJson)
                val messages = engineName match {
                  case Some(name) =>
                    new EngineBatchMessages(batches.asJava, ordinals, expected, name, rowSchema)
                  case None => new ColumnarBatchMessages(batches.asJava, ordinals, expected)
                }
                messages.asScala
              }
            }
          val limited = limit match {
            case Some(n) =>
              messages.mapPartitions { partition =>
                new LimitedMessages(partition.asJava, n, Schema.fromJSON(schemaJson)).asScala
              }
            case None => messages
          }
          (limited, limit)
      }
    }

  /** The messages of an Arrow cache's scan with the buffers as the cache stores them, compressed
    * where it compresses ([[CachedBatchMessages]]); None for any other plan, or a scan that prunes
    * batches by predicates.
    */
  private def storedCache(
      columnar: SparkPlan,
      ordinals: Array[Int],
      schemaJson: String
  ): Option[RDD[Array[Byte]]] = columnar match {
    case scan: InMemoryTableScanExec
        if scan.predicates.isEmpty && ArrowCacheSerializer.readsArrow(scan) =>
      val positions = ArrowCacheSerializer.positions(scan.relation.output, scan.output)
      val columns = ordinals.map(positions(_))
      Some(scan.relation.cacheBuilder.cachedColumnBuffers.mapPartitions { batches =>
        val expected = Schema.fromJSON(schemaJson)
        val identity = expected.getFields.asScala.indices.toArray
        val written =
          new ColumnarBatchMessages(Iterator[ColumnarBatch]().asJava, identity, expected)
        new CachedBatchMessages(batches.asJava, columns, expected, b => written.message(b)).asScala
      })
    case _ => None
  }

  /** The messages of a scan of rowbridge's files with the buffers as the files store them,
    * compressed where they are (RowbridgeScan.storedMessages); None for any other plan, or a scan
    * whose batches cannot go as stored.
    */
  private def storedFiles(
      columnar: SparkPlan,
      ordinals: Array[Int],
      schemaJson: String
  ): Option[RDD[Array[Byte]]] = columnar match {
    case batchScan: BatchScanExec if batchScan.runtimeFilters.isEmpty =>
      batchScan.scan match {
        case scan: RowbridgeScan =>
          scan.storedMessages(ordinals, Schema.fromJSON(schemaJson).getFields.asScala.toSeq)
        case _ => None
      }
    case _ => None
  }

  /** Throws Spark's error for a struct with duplicated field names where Spark's own
    * collectAsArrowToPython does: in the legacy pandas struct mode (the default).
    */
  private def refuseDuplicatedStructNames(dataset: Dataset[_]): Unit = {
    val conf = dataset.sparkSession.sessionState.conf
    val mode = conf.getConfString("spark.sql.execution.pandas.structHandlingMode", "legacy")
    if (mode == "legacy") {
      ArrowUtils.toArrowSchema(dataset.schema, conf.sessionLocalTimeZone, true, false)
    }
  }

  /** A DataFrame of `schemaJson`'s rows from the record batch messages PySpark's createDataFrame
    * sends (its arguments are those of PythonSQLUtils.toDataFrame, which takes over when rowbridge
    * does not convert one of the schema's types).
    */
  def toDataFrame(
      batches: Iterator[Array[Byte]],
      schemaJson: String,
      session: SparkSession
  ): DataFrame = {
    val schema = DataType.fromJson(schemaJson).asInstanceOf[StructType]
    if (!schema.fields.forall(field => ArrowSchemas.supports(field.dataType))) {
      return PythonSQLUtils.toDataFrame(batches, schemaJson, session)
    }
    val conf = session.sessionState.conf
    val largeVarTypes =
      conf.getConfString("spark.sql.execution.arrow.useLargeVarTypes", "false").toBoolean
    val arrowSchema =
      ArrowUtils.toArrowSchema(schema, conf.sessionLocalTimeZone, true, largeVarTypes).toJson
    val data = batches.toArray
    val threshold = JavaUtils.byteStringAsBytes(
      conf.getConfString(
        "spark.sql.execution.arrow.localRelationThreshold",
        DefaultLocalRelationThreshold
      )
    )
    val bytes = data.iterator.map(_.length.toLong).sum
    if (bytes > threshold) {
      // Every core gets a partition, of at most MaxPartitionBytes.
      val cores = math.max(1, session.sparkContext.defaultParallelism)
      val perPartition = math.min(MaxPartitionBytes, (bytes + cores - 1) / cores)
      val table = new PythonBatchesTable(schema, arrowSchema, data, perPartition)
      FramesShim.ofRows(session, DataSourceV2Relation.create(table, None, None))
    } else {
      val attributes = schema.fields.toSeq.map { field =>
        AttributeReference(field.name, field.dataType, field.nullable, field.metadata)()
      }
      val local = localRows(data, arrowSchema, rowSource(session, schema))
      FramesShim.ofRows(session, LocalRelation(attributes, local.toSeq))
    }
  }

  /** The rows of the messages' batches, made on the driver by rowbridge's converter and copied (a
    * local relation keeps them); the batches' memory is freed before this returns.
    */
  private def localRows(
      messages: Array[Array[Byte]],
      arrowSchema: String,
      source: BatchRowSource
  ): Array[InternalRow] = {
    val batches = new RecordBatchMessages(messages.iterator.asJava, Schema.fromJSON(arrowSchema))
    try {
      val converted = source.open(batches)
      try {
        val rows = mutable.ArrayBuffer.empty[InternalRow]
        while (converted.hasNext) {
          rows += converted.next().copy()
        }
        rows.toArray
      } finally {
        converted.close()
      }
    } finally {
      batches.close()
    }
  }

  private def rowSource(session: SparkSession, schema: StructType): BatchRowSource = {
    val context = session.sparkContext
    val conf = session.sessionState.conf
    new BatchRowSource(
      schema,
      RowbridgeConf.maxChunkBytes(conf),
      RowbridgeConf.validation(conf),
      SQLMetrics.createMetric(context, "rows from Python"),
      SQLMetrics.createMetric(context, "batches from Python"),
      SQLMetrics.createMetric(context, "batches from Python converted by Spark"),
      SQLMetrics.createNanoTimingMetric(context, "time converting Python's batches to rows"),
      null
    )
  }
}
