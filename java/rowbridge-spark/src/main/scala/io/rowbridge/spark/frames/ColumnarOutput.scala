package io.rowbridge.spark.frames

import scala.jdk.CollectionConverters._

import io.rowbridge.spark.arrow.RowToArrowExec
import io.rowbridge.spark.cache.ArrowCacheSerializer
import io.rowbridge.spark.conf.RowbridgeConf
import io.rowbridge.spark.engine.EngineInput
import io.rowbridge.spark.transition.RowbridgeColumnarToRowExec

import org.apache.spark.sql.catalyst.expressions.{AttributeReference, NamedExpression}
import org.apache.spark.sql.execution.{
  CollectLimitExec,
  ColumnarToRowExec,
  ColumnarToRowTransition,
  InputAdapter,
  ProjectExec,
  SparkPlan,
  WholeStageCodegenExec
}
import org.apache.spark.sql.execution.adaptive.{AdaptiveSparkPlanExec, QueryStageExec}
import org.apache.spark.sql.execution.columnar.InMemoryTableScanExec
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec
import org.apache.spark.sql.execution.exchange.{Exchange, ReusedExchangeExec}

/** Where a plan's rows are columnar batches made into rows only at its end, under the transition
  * that ends the plan, and projections of their columns above it:
  *   - Arrow Java's vectors: rowbridge's scan, the Arrow cache, a DataFrame made from Python's
  *     batches, rowbridge's rows-to-Arrow operator;
  *   - another engine's ([[EngineInput]], such as Apache Comet's native plans), whose flat columns
  *     its reader gives as buffers.
  *
  * The frames take the batches of such a plan as they are, with no rows between
  * ([[ColumnarBatchMessages]], [[EngineBatchMessages]]); every other plan's rows go through
  * rowbridge's decoder.
  */
object ColumnarOutput {

  /** A columnar plan whose batches hold a plan's rows: the ordinals of its columns that are the
    * plan's output, in order, the engine whose batches they are (None for Arrow Java's), and the
    * rows the plan keeps of them in order (a collect's limit; None for all).
    */
  final case class Batches(
      plan: SparkPlan,
      ordinals: Array[Int],
      engine: Option[EngineInput],
      limit: Option[Int] = None
  )

  /** The columnar plan whose batches hold `plan`'s rows; None when `plan` ends in row operators.
    * With `limits`, a collect's limit at the top of the plan (CollectLimitExec, no offset) is taken
    * too, for a caller that keeps only its first rows in partition order.
    */
  def of(plan: SparkPlan, limits: Boolean = false): Option[Batches] = {
    lazy val engines =
      if (RowbridgeConf.enginesEnabled(plan.conf)) EngineInput.installed().asScala.toSeq
      else Nil
    // An engine's plan is taken only within one stage: running a plan with exchanges outside
    // adaptive execution's stages would plan it otherwise than Spark runs it.
    def all(columnar: SparkPlan, engine: Option[EngineInput]) = {
      val batches = adapted(columnar)
      if (engine.isDefined && batches.exists(crossesStages)) None
      else Some(Batches(batches, batches.output.indices.toArray, engine))
    }
    def found(plan: SparkPlan): Option[Batches] = plan match {
      // Adaptive execution's plan before it runs; the patterns below hold no exchange, so no
      // stage of it is planned again.
      case adaptive: AdaptiveSparkPlanExec => found(adaptive.executedPlan)
      case stage: WholeStageCodegenExec    => found(stage.child)
      case limit: CollectLimitExec if limits && limit.offset == 0 && limit.limit >= 0 =>
        found(limit.child).filter(_.limit.isEmpty).map(_.copy(limit = Some(limit.limit)))
      case input: InputAdapter => found(input.child)
      case transition: ColumnarToRowTransition if arrowBatches(adapted(transition.child)) =>
        all(adapted(transition.child), None)
      case RowbridgeColumnarToRowExec(batches, Some(name)) if engines.exists(_.name() == name) =>
        all(batches, engines.find(_.name() == name))
      case ColumnarToRowExec(batches) if engines.exists(_.feedsTransition(batches)) =>
        all(batches, engines.find(_.feedsTransition(batches)))
      case transition
          if transition.children.size == 1 && engines.exists(_.isTransition(transition)) =>
        all(transition.children.head, engines.find(_.isTransition(transition)))
      case columnar if arrowBatches(columnar) => // before adaptive execution adds the transition
        all(columnar, None)
      case columnar if columnar.supportsColumnar && engines.exists(_.feedsTransition(columnar)) =>
        all(columnar, engines.find(_.feedsTransition(columnar)))
      case project: ProjectExec if project.projectList.forall(isColumn) =>
        found(project.child).flatMap { batches =>
          val byId = project.child.output.map(_.exprId).zipWithIndex.toMap
          val picked = project.projectList.map(e => byId.get(e.toAttribute.exprId))
          if (picked.forall(_.isDefined)) {
            Some(batches.copy(ordinals = picked.map(i => batches.ordinals(i.get)).toArray))
          } else None
        }
      case _ => None
    }
    found(plan)
  }

  /** The plan under the adapters whole-stage code generation puts at a stage's input. */
  private def adapted(plan: SparkPlan): SparkPlan = plan match {
    case input: InputAdapter => adapted(input.child)
    case _                   => plan
  }

  /** A columnar plan whose batches are Arrow vectors: rowbridge's scans (its files and Python's
    * batches), the Arrow cache, rowbridge's rows-to-Arrow operator.
    */
  private def arrowBatches(plan: SparkPlan): Boolean = plan.supportsColumnar && (plan match {
    case scan: BatchScanExec          => scan.scan.getClass.getName.startsWith("io.rowbridge.")
    case cache: InMemoryTableScanExec => ArrowCacheSerializer.readsArrow(cache)
    case _: RowToArrowExec            => true
    case _                            => false
  })

  private def crossesStages(plan: SparkPlan): Boolean = plan match {
    case _: Exchange | _: QueryStageExec | _: ReusedExchangeExec => true
    case _                                                       => false
  }

  /** A column of the child as it is: no expression, no rename that changes its type. */
  private def isColumn(expression: NamedExpression): Boolean = expression match {
    case _: AttributeReference => true
    case _                     => false
  }

  /** A description of the path `plan`'s rows take to Arrow, for rowbridge.spark.arrow_path. */
  def describe(plan: SparkPlan): String = of(plan, limits = true) match {
    case Some(Batches(columnar, _, engine, limit)) =>
      "columnar: the batches of " + columnar.nodeName +
        engine.map(", " + _.name() + "'s vectors").getOrElse("") +
        limit.map(n => s", the first $n rows").getOrElse("")
    case None => "rows: " + plan.nodeName + " makes rows, which rowbridge's decoder makes Arrow"
  }
}
