package io.rowbridge.spark.transition

import scala.jdk.CollectionConverters._

import io.rowbridge.spark.SparkShims
import io.rowbridge.spark.cache.ArrowCacheSerializer
import io.rowbridge.spark.conf.RowbridgeConf
import io.rowbridge.spark.engine.EngineInput
import io.rowbridge.spark.source.RowbridgeSource

import org.apache.spark.rdd.RDD
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, SortOrder, UnsafeRow}
import org.apache.spark.sql.catalyst.expressions.codegen.CodegenContext
import org.apache.spark.sql.catalyst.plans.physical.Partitioning
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.{
  CodegenSupport,
  ColumnarToRowExec,
  ColumnarToRowTransition,
  ProjectExec,
  SparkPlan
}
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec
import org.apache.spark.sql.execution.metric.{SQLMetric, SQLMetrics}

/** Replaces ColumnarToRowExec directly above an allow-listed scan where [[TransitionPlacement]]
  * places rowbridge's transition ([[RowbridgeConf.PLACEMENT]]), and drops the projection Spark
  * plans above a row-based DataSource V2 scan to make its rows UnsafeRows when the scan is
  * rowbridge's row mode (its rows already are) and the projection passes its columns through.
  *
  * With an [[EngineInput]] installed (Apache Comet's, from rowbridge-comet) and
  * [[RowbridgeConf.ENGINES_ENABLED]] true, it also replaces that engine's own transitions, and
  * Spark's ColumnarToRowExec above the engine's columnar plans that the engine's rule would turn
  * into its own (when that rule runs after this one). An engine's transition reads its vectors
  * without checks, so on a column-by-column demand the placement keeps it.
  */
case class ReplaceColumnarToRow(session: SparkSession) extends Rule[SparkPlan] {
  override def apply(plan: SparkPlan): SparkPlan = {
    val conf = session.sessionState.conf
    if (!RowbridgeConf.enabled(conf)) {
      plan
    } else {
      val scans = RowbridgeConf.scans(conf).asScala
      val placement = RowbridgeConf.placement(conf)
      val engines =
        if (RowbridgeConf.enginesEnabled(conf)) EngineInput.installed().asScala.toSeq else Nil
      val rowMode = plan.transformUp {
        case ProjectExec(projectList, scan: BatchScanExec)
            if RowbridgeSource.readsUnsafeRows(scan.scan) && projectList == scan.output =>
          scan
      }
      def types(child: SparkPlan) = child.output.map(_.dataType)
      // The engine's transition reads unchecked: placed as such.
      def byEngine(child: SparkPlan, demand: TransitionPlacement.Demand)(
          engine: EngineInput
      ): Option[SparkPlan] =
        if (TransitionPlacement.chooses(placement, demand, types(child), false)) {
          Some(RowbridgeColumnarToRowExec(child, Some(engine.name())))
        } else {
          None
        }
      TransitionPlacement.place(
        rowMode,
        TransitionPlacement.WholeRows,
        (node, demand) =>
          (node match {
            case ColumnarToRowExec(child) =>
              if (
                scans.contains(child.getClass.getName) ||
                ArrowCacheSerializer.readsArrow(child)
              ) {
                if (TransitionPlacement.chooses(placement, demand, types(child))) {
                  Some(RowbridgeColumnarToRowExec(child))
                } else {
                  None
                }
              } else {
                engines.find(_.feedsTransition(child)).flatMap(byEngine(child, demand))
              }
            case transition: ColumnarToRowTransition if transition.children.size == 1 =>
              val child = transition.children.head
              engines.find(_.isTransition(transition)).flatMap(byEngine(child, demand))
            case _ => None
          }).map { replacement =>
            // As the transition it replaces, for adaptive execution's planning.
            node.logicalLink.foreach(replacement.setLogicalLink)
            replacement
          }
      )
    }
  }
}

/** Columnar to row with rowbridge: batches of ArrowColumnVectors become UnsafeRows through the
  * native converter (one JNI call per batch), any other batch through Spark's own projection
  * ([[BatchRowIterator]]). Rows are reused, as ColumnarToRowExec's are; consumers that keep rows
  * copy them (collect and broadcast serialize each row at once).
  *
  * With an `engine` named ([[EngineInput]]), the batches are that engine's: each one whose columns
  * its input reads goes through the native converter, any other through Spark's projection.
  *
  * Under whole-stage code generation the operator is the stage's input: its loop takes each reused
  * row from [[BatchRowIterator.nextRow]] and hands it to the parent's code as the stage's input
  * row, whose getters read only the columns the parent uses. Without code generation, `doExecute`
  * returns the same rows as an iterator.
  */
case class RowbridgeColumnarToRowExec(child: SparkPlan, engine: Option[String] = None)
    extends ColumnarToRowTransition
    with CodegenSupport {
  override def output: Seq[Attribute] = child.output

  override def outputPartitioning: Partitioning = child.outputPartitioning

  override def outputOrdering: Seq[SortOrder] = child.outputOrdering

  override lazy val metrics: Map[String, SQLMetric] = Map(
    "numOutputRows" -> SQLMetrics.createMetric(sparkContext, "number of output rows"),
    "numInputBatches" -> SQLMetrics.createMetric(sparkContext, "number of input batches"),
    "numSparkBatches" -> SQLMetrics
      .createMetric(sparkContext, "number of batches converted by Spark"),
    "convertTime" -> SQLMetrics.createNanoTimingMetric(
      sparkContext,
      "time converting batches to rows"
    )
  )

  /** The schema, settings and metrics each task opens its rows with. */
  private def rowSource: BatchRowSource = new BatchRowSource(
    SparkShims.schemaOf(output),
    RowbridgeConf.maxChunkBytes(conf),
    RowbridgeConf.validation(conf),
    longMetric("numOutputRows"),
    longMetric("numInputBatches"),
    longMetric("numSparkBatches"),
    longMetric("convertTime"),
    engine.orNull
  )

  override protected def doExecute(): RDD[InternalRow] = {
    val source = rowSource
    child.executeColumnar().mapPartitions { batches => source.open(batches.asJava).asScala }
  }

  // The generated code reads the child's batches itself (as ColumnarToRowExec does, Spark types
  // an RDD of batches as one of rows here).
  override def inputRDDs(): Seq[RDD[InternalRow]] =
    Seq(child.executeColumnar().asInstanceOf[RDD[InternalRow]])

  // The stage's input loop, so it checks a limit above it, as a leaf does.
  override protected def canCheckLimitNotReached: Boolean = true

  override protected def doProduce(ctx: CodegenContext): String = {
    val source = ctx.addReferenceObj("rowbridgeSource", rowSource)
    val rows = ctx.addMutableState(
      classOf[BatchRowIterator].getName,
      "rowbridgeRows",
      v => s"$v = $source.openInput(inputs[0]);",
      forceInline = true
    )
    val row = ctx.freshName("rowbridgeRow")
    s"""
       |${classOf[UnsafeRow].getName} $row;
       |while ($limitNotReachedCond ($row = $rows.nextRow()) != null) {
       |  ${consume(ctx, null, row).trim}
       |  $shouldStopCheckCode
       |}
     """.stripMargin
  }

  override protected def withNewChildInternal(newChild: SparkPlan): RowbridgeColumnarToRowExec =
    copy(child = newChild)
}
