package io.rowbridge.spark.python

import io.rowbridge.spark.arrow.ReusedArrowColumnVector

import org.apache.spark.rdd.RDD
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, SortOrder}
import org.apache.spark.sql.catalyst.plans.physical.Partitioning
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.{SparkPlan, UnaryExecNode}
import org.apache.spark.sql.execution.python.ArrowEvalPythonExec
import org.apache.spark.sql.vectorized.ColumnarBatch

/** Spark 4.2's ArrowEvalPythonExec over a columnar child
  * (`spark.sql.execution.arrow.pythonUDF.columnarInput.enabled`) keeps the columns of each input
  * batch whose columns are ArrowColumnVectors until the worker's results for it return, after the
  * child has produced later batches. rowbridge's columnar nodes (its scan, the Arrow cache,
  * [[io.rowbridge.spark.arrow.RowToArrowExec]], DataFrames made from Python's Arrow data) reuse or
  * free a batch's vectors at the next one, so this rule puts [[HideReusedVectorsExec]] under every
  * such ArrowEvalPythonExec: Spark then copies each batch's rows first, as for Parquet's reused
  * vectors. Batches of vectors that are not rowbridge's pass as they are. A no-op before Spark 4.2,
  * whose ArrowEvalPythonExec reads rows only. Always on: it keeps answers right, whatever the
  * settings.
  */
object ProtectReusedPythonInput extends Rule[SparkPlan] {
  override def apply(plan: SparkPlan): SparkPlan = plan.transformUp {
    case eval: ArrowEvalPythonExec
        if eval.supportsColumnar && !eval.child.isInstanceOf[HideReusedVectorsExec] =>
      eval.withNewChildren(Seq(HideReusedVectorsExec(eval.child)))
  }
}

/** Passes its columnar child's batches on; a batch with a column rowbridge reuses
  * ([[ReusedArrowColumnVector]]) goes on with every column behind a [[DelegatingColumnVector]],
  * which is not an ArrowColumnVector ([[ProtectReusedPythonInput]]). Nothing is copied.
  */
case class HideReusedVectorsExec(child: SparkPlan) extends UnaryExecNode {
  override def output: Seq[Attribute] = child.output

  override def outputPartitioning: Partitioning = child.outputPartitioning

  override def outputOrdering: Seq[SortOrder] = child.outputOrdering

  override def supportsColumnar: Boolean = true

  override protected def doExecute(): RDD[InternalRow] = child.execute()

  override protected def doExecuteColumnar(): RDD[ColumnarBatch] =
    child
      .executeColumnar()
      .mapPartitions(_.map { batch =>
        if (HideReusedVectorsExec.reuses(batch)) DelegatingColumnVector.wrap(batch) else batch
      })

  override protected def withNewChildInternal(newChild: SparkPlan): HideReusedVectorsExec =
    copy(child = newChild)
}

object HideReusedVectorsExec {
  private[rowbridge] def reuses(batch: ColumnarBatch): Boolean =
    (0 until batch.numCols()).exists(i => batch.column(i).isInstanceOf[ReusedArrowColumnVector])
}
