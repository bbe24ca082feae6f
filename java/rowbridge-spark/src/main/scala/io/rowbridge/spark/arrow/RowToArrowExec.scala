package io.rowbridge.spark.arrow

import scala.jdk.CollectionConverters._

import io.rowbridge.spark.SparkShims
import io.rowbridge.spark.conf.RowbridgeConf

import org.apache.spark.rdd.RDD
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, SortOrder}
import org.apache.spark.sql.catalyst.plans.physical.Partitioning
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.{RowToColumnarExec, RowToColumnarTransition, SparkPlan}
import org.apache.spark.sql.execution.metric.{SQLMetric, SQLMetrics}
import org.apache.spark.sql.vectorized.ColumnarBatch

/** Row to columnar with rowbridge: the child's rows become ColumnarBatches of ArrowColumnVectors
  * through the native row decoder ([[ArrowBatchSource]]), for columnar operators that want Arrow
  * input where Spark would plan its RowToColumnarExec (on- or off-heap vectors). Batches hold up to
  * `spark.sql.inMemoryColumnarStorage.batchSize` rows, as RowToColumnarExec's do, and are reused:
  * each is valid until the next. Extensions plan it directly, or let rowbridge's rule put it in
  * place of RowToColumnarExec ([[RowbridgeConf.ROW_TO_COLUMNAR_ENABLED]]).
  */
case class RowToArrowExec(child: SparkPlan) extends RowToColumnarTransition {
  override def output: Seq[Attribute] = child.output

  override def outputPartitioning: Partitioning = child.outputPartitioning

  override def outputOrdering: Seq[SortOrder] = child.outputOrdering

  override def supportsColumnar: Boolean = true

  override lazy val metrics: Map[String, SQLMetric] = Map(
    "numInputRows" -> SQLMetrics.createMetric(sparkContext, "number of input rows"),
    "numOutputBatches" -> SQLMetrics.createMetric(sparkContext, "number of output batches"),
    "decodeTime" -> SQLMetrics.createNanoTimingMetric(sparkContext, "time decoding rows to Arrow")
  )

  // A row-based parent reads the child's rows as they are (as RowToColumnarExec does).
  override protected def doExecute(): RDD[InternalRow] = child.execute()

  override protected def doExecuteColumnar(): RDD[ColumnarBatch] = {
    val source = new ArrowBatchSource(
      SparkShims.schemaOf(output),
      conf.sessionLocalTimeZone,
      conf.columnBatchSize,
      RowbridgeConf.maxBatchBytes(conf),
      longMetric("numInputRows"),
      longMetric("numOutputBatches"),
      longMetric("decodeTime")
    )
    child.execute().mapPartitions { rows => source.open(rows.asJava).asScala }
  }

  override protected def withNewChildInternal(newChild: SparkPlan): RowToArrowExec =
    copy(child = newChild)
}

/** Replaces Spark's RowToColumnarExec with [[RowToArrowExec]] while
  * [[RowbridgeConf.ROW_TO_COLUMNAR_ENABLED]] is true.
  */
case class ReplaceRowToColumnar(session: SparkSession) extends Rule[SparkPlan] {
  override def apply(plan: SparkPlan): SparkPlan =
    if (!RowbridgeConf.rowToColumnarEnabled(session.sessionState.conf)) {
      plan
    } else {
      plan.transformUp { case RowToColumnarExec(child) => RowToArrowExec(child) }
    }
}
