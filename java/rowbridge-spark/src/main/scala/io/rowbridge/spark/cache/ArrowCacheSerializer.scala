package io.rowbridge.spark.cache

import scala.jdk.CollectionConverters._

import io.rowbridge.spark.conf.RowbridgeConf
import io.rowbridge.spark.transition.BatchRowSource

import org.apache.spark.rdd.RDD
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, UnsafeRow}
import org.apache.spark.sql.catalyst.types.DataTypeUtils
import org.apache.spark.sql.columnar.{CachedBatch, SimpleMetricsCachedBatchSerializer}
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.columnar.{DefaultCachedBatchSerializer, InMemoryTableScanExec}
import org.apache.spark.sql.execution.metric.SQLMetrics
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.vectorized.{ArrowColumnVector, ColumnarBatch}
import org.apache.spark.storage.StorageLevel

/** Spark's in-memory cache (`df.cache()`, `CACHE TABLE`) kept as Arrow, set with
  * `spark.sql.cache.serializer=io.rowbridge.spark.ArrowCacheSerializer` (that class is this one
  * under the name the setting has always used).
  *
  * Builds: rows are decoded to Arrow natively, and Arrow-backed columnar input is cached without
  * making rows. Each column of a batch is kept as an Arrow IPC record batch message, its buffers
  * compressed one by one as `spark.rowbridge.cache.compression` says (none, lz4 or zstd; default
  * lz4: the cache no larger than Spark's compressed one, docs/BENCHMARKS.md "Cache"), with Spark's
  * statistics per column for batch pruning (inherited `buildFilter`).
  *
  * Reads: Arrow-backed ColumnarBatches of the columns asked for, or rows through rowbridge's
  * converter. The batches are plain heap arrays to the block manager, so every storage level,
  * eviction, the Storage tab's sizes and recomputation stay Spark's own.
  *
  * A schema with a column the cache cannot take (a type Arrow lacks, such as CalendarInterval) is
  * cached by Spark's own serializer, whole.
  */
class ArrowCacheSerializer extends SimpleMetricsCachedBatchSerializer {
  @transient private lazy val sparkSerializer = new DefaultCachedBatchSerializer

  override def supportsColumnarInput(schema: Seq[Attribute]): Boolean =
    ArrowCacheSerializer.supports(schema)

  override def supportsColumnarOutput(schema: StructType): Boolean =
    schema.fields.forall(field => CacheBuilder.supports(field.dataType))

  override def vectorTypes(attributes: Seq[Attribute], conf: SQLConf): Option[Seq[String]] =
    if (ArrowCacheSerializer.supports(attributes)) {
      Some(attributes.map(_ => classOf[ArrowColumnVector].getName))
    } else {
      sparkSerializer.vectorTypes(attributes, conf)
    }

  override def convertInternalRowToCachedBatch(
      input: RDD[InternalRow],
      schema: Seq[Attribute],
      storageLevel: StorageLevel,
      conf: SQLConf
  ): RDD[CachedBatch] = {
    if (!ArrowCacheSerializer.supports(schema)) {
      return sparkSerializer.convertInternalRowToCachedBatch(input, schema, storageLevel, conf)
    }
    val settings = ArrowCacheSerializer.BuildSettings(schema, conf)
    input.mapPartitions { rows =>
      CacheBuilder
        .ofRows(
          rows.asJava,
          settings.schema,
          settings.timeZoneId,
          settings.batchRows,
          settings.compression
        )
        .asScala
    }
  }

  override def convertColumnarBatchToCachedBatch(
      input: RDD[ColumnarBatch],
      schema: Seq[Attribute],
      storageLevel: StorageLevel,
      conf: SQLConf
  ): RDD[CachedBatch] = {
    // Only called when supportsColumnarInput said yes.
    val settings = ArrowCacheSerializer.BuildSettings(schema, conf)
    input.mapPartitions { batches =>
      CacheBuilder
        .ofBatches(
          batches.asJava,
          settings.schema,
          settings.timeZoneId,
          settings.batchRows,
          settings.compression
        )
        .asScala
    }
  }

  override def convertCachedBatchToColumnarBatch(
      input: RDD[CachedBatch],
      cacheAttributes: Seq[Attribute],
      selectedAttributes: Seq[Attribute],
      conf: SQLConf
  ): RDD[ColumnarBatch] = {
    if (!ArrowCacheSerializer.supports(cacheAttributes)) {
      return sparkSerializer.convertCachedBatchToColumnarBatch(
        input,
        cacheAttributes,
        selectedAttributes,
        conf
      )
    }
    val columns = ArrowCacheSerializer.positions(cacheAttributes, selectedAttributes)
    input.mapPartitions { batches =>
      new CachedBatchReader(batches.asJava, columns).asScala
    }
  }

  override def convertCachedBatchToInternalRow(
      input: RDD[CachedBatch],
      cacheAttributes: Seq[Attribute],
      selectedAttributes: Seq[Attribute],
      conf: SQLConf
  ): RDD[InternalRow] = {
    if (!ArrowCacheSerializer.supports(cacheAttributes)) {
      return sparkSerializer.convertCachedBatchToInternalRow(
        input,
        cacheAttributes,
        selectedAttributes,
        conf
      )
    }
    val columns = ArrowCacheSerializer.positions(cacheAttributes, selectedAttributes)
    if (columns.isEmpty) {
      // No column read (count(*)): as many empty rows as the batches hold.
      return input.mapPartitions { batches =>
        val empty = new UnsafeRow(0)
        empty.pointTo(new Array[Byte](8), 0)
        batches.flatMap(batch => Iterator.fill(batch.numRows)(empty: InternalRow))
      }
    }
    val sc = input.sparkContext
    val rows = new BatchRowSource(
      DataTypeUtils.fromAttributes(selectedAttributes),
      RowbridgeConf.maxChunkBytes(conf),
      RowbridgeConf.validation(conf),
      SQLMetrics.createMetric(sc, "rows out of the Arrow cache"),
      SQLMetrics.createMetric(sc, "Arrow cache batches"),
      SQLMetrics.createMetric(sc, "Arrow cache batches through Spark"),
      SQLMetrics.createNanoTimingMetric(sc, "time converting the Arrow cache"),
      null
    )
    input.mapPartitions { batches =>
      rows.open(new CachedBatchReader(batches.asJava, columns)).asScala
    }
  }
}

object ArrowCacheSerializer {

  /** The session setting naming the cache's compression: none, lz4 or zstd. */
  val Compression = "spark.rowbridge.cache.compression"

  /** The default codec: LZ4 keeps lineitem's cache at 0.75× Spark's default (compressed) cache,
    * builds 2.5× faster and reads at Spark's speed or better; none reads fastest at 1.49× the
    * memory; zstd is smallest (0.43×) and reads slowest.
    */
  val DefaultCompression = "lz4"

  /** Whether `plan` reads a cache of this serializer's as Arrow batches (so rowbridge's transition
    * may take its rows, as it takes an allow-listed scan's).
    */
  def readsArrow(plan: SparkPlan): Boolean = plan match {
    case scan: InMemoryTableScanExec =>
      scan.relation.cacheBuilder.serializer.isInstanceOf[ArrowCacheSerializer] &&
      supports(scan.relation.output)
    case _ => false
  }

  /** Whether the Arrow cache takes every column of `schema`. */
  def supports(schema: Seq[Attribute]): Boolean =
    schema.forall(attribute => CacheBuilder.supports(attribute.dataType))

  /** The positions of `selected` among `cached`, by expression id. */
  def positions(cached: Seq[Attribute], selected: Seq[Attribute]): Array[Int] =
    selected.map { attribute =>
      val position = cached.indexWhere(_.exprId == attribute.exprId)
      if (position < 0) {
        throw new IllegalArgumentException(
          s"rowbridge: column ${attribute.name}#${attribute.exprId.id} is not among the cached " +
            cached.map(a => s"${a.name}#${a.exprId.id}").mkString(", ")
        )
      }
      position
    }.toArray

  /** What a build needs from the driver's session. */
  private case class BuildSettings(
      schema: StructType,
      timeZoneId: String,
      batchRows: Int,
      compression: CacheCompression
  )

  private object BuildSettings {
    def apply(attributes: Seq[Attribute], conf: SQLConf): BuildSettings =
      BuildSettings(
        DataTypeUtils.fromAttributes(attributes),
        conf.sessionLocalTimeZone,
        conf.columnBatchSize,
        CacheCompression.of(conf.getConfString(Compression, DefaultCompression))
      )
  }
}
