package io.rowbridge.spark.frames

import io.rowbridge.spark.arrow.RowToArrowExec
import io.rowbridge.spark.cache.ArrowCacheSerializer

import org.apache.spark.sql.catalyst.expressions.{AttributeReference, NamedExpression}
import org.apache.spark.sql.execution.{
  ColumnarToRowTransition,
  InputAdapter,
  ProjectExec,
  SparkPlan,
  WholeStageCodegenExec
}
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec
import org.apache.spark.sql.execution.columnar.InMemoryTableScanExec
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec

/** Where a plan's rows are Arrow batches made into rows only at its end: rowbridge's scan, the
  * Arrow cache, a DataFrame made from Python's batches, rowbridge's rows-to-Arrow operator, under
  * the transition that ends the plan, and projections of their columns above it.
  *
  * The frames take the batches of such a plan as they are, with no rows between
  * ([[ColumnarBatchMessages]]); every other plan's rows go through rowbridge's decoder.
  */
object ColumnarOutput {

  /** The columnar plan whose batches hold `plan`'s rows, and the ordinals of its columns that are
    * `plan`'s output, in order; None when `plan` ends in row operators.
    */
  def of(plan: SparkPlan): Option[(SparkPlan, Array[Int])] = plan match {
    // Adaptive execution's plan before it runs; the patterns below hold no exchange, so no
    // stage of it is planned again.
    case adaptive: AdaptiveSparkPlanExec => of(adaptive.executedPlan)
    case stage: WholeStageCodegenExec    => of(stage.child)
    case input: InputAdapter             => of(input.child)
    case transition: ColumnarToRowTransition if arrowBatches(adapted(transition.child)) =>
      val columnar = adapted(transition.child)
      Some((columnar, columnar.output.indices.toArray))
    case columnar if arrowBatches(columnar) => // before adaptive execution adds the transition
      Some((columnar, columnar.output.indices.toArray))
    case project: ProjectExec if project.projectList.forall(isColumn) =>
      of(project.child).flatMap { case (columnar, ordinals) =>
        val byId = project.child.output.map(_.exprId).zipWithIndex.toMap
        val picked = project.projectList.map(e => byId.get(e.toAttribute.exprId))
        if (picked.forall(_.isDefined)) Some((columnar, picked.map(i => ordinals(i.get)).toArray))
        else None
      }
    case _ => None
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

  /** A column of the child as it is: no expression, no rename that changes its type. */
  private def isColumn(expression: NamedExpression): Boolean = expression match {
    case _: AttributeReference => true
    case _                     => false
  }

  /** A description of the path `plan`'s rows take to Arrow, for rowbridge.spark.arrow_path. */
  def describe(plan: SparkPlan): String = of(plan) match {
    case Some((columnar, _)) => "columnar: the batches of " + columnar.nodeName
    case None => "rows: " + plan.nodeName + " makes rows, which rowbridge's decoder makes Arrow"
  }
}
