// In Spark's package for the Spark-private API it uses: PandasGroupUtils (private[python]).
package org.apache.spark.sql.execution.python.rowbridge

import io.rowbridge.spark.python.ArrowRowsToPython

import org.apache.spark.TaskContext
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{
  Ascending,
  Attribute,
  AttributeSet,
  Expression,
  SortOrder
}
import org.apache.spark.sql.catalyst.plans.physical.{
  AllTuples,
  ClusteredDistribution,
  Distribution,
  Partitioning
}
import org.apache.spark.sql.catalyst.types.DataTypeUtils
import org.apache.spark.sql.execution.{SparkPlan, UnaryExecNode}
import org.apache.spark.sql.execution.metric.SQLMetric
import org.apache.spark.sql.execution.python.{PandasGroupUtils, PythonSQLMetrics}

/** `applyInPandas` and `applyInArrow` with rowbridge on both sides of the Python worker's stream:
  * each group's rows go to the worker as Arrow IPC record batches made natively
  * ([[ArrowRowsToPython]], framed per group as the line's Spark frames them) and the worker's
  * batches become UnsafeRows through rowbridge's converter. Grouping, the distribution and ordering
  * the child must have, the arguments and the protocol are Spark's own.
  *
  * `inOneColumn`: the groups travel as one struct column (`applyInArrow`), rather than as the
  * batch's columns (`applyInPandas`).
  */
case class RowbridgeFlatMapGroupsExec(
    groupingAttributes: Seq[Attribute],
    func: Expression,
    output: Seq[Attribute],
    child: SparkPlan,
    evalType: Int,
    inOneColumn: Boolean
) extends UnaryExecNode
    with PythonSQLMetrics {

  override def nodeName: String =
    if (inOneColumn) "RowbridgeFlatMapGroupsInArrow" else "RowbridgeFlatMapGroupsInPandas"

  override lazy val metrics: Map[String, SQLMetric] =
    pythonMetrics ++ RowbridgePython.outputMetrics(sparkContext)

  override def producedAttributes: AttributeSet = AttributeSet(output)

  override def outputPartitioning: Partitioning = child.outputPartitioning

  override def requiredChildDistribution: Seq[Distribution] =
    if (groupingAttributes.isEmpty) AllTuples :: Nil
    else ClusteredDistribution(groupingAttributes) :: Nil

  override def requiredChildOrdering: Seq[Seq[SortOrder]] =
    Seq(groupingAttributes.map(SortOrder(_, Ascending)))

  private lazy val (dedupAttributes, argOffsets) =
    PandasGroupUtils.resolveArgOffsets(child.output, groupingAttributes)
  @transient private lazy val input = RowbridgePython.inputSettings(
    conf,
    DataTypeUtils.fromAttributes(dedupAttributes),
    inOneColumn,
    PythonRunners.groupsHaveByteLimit
  )
  @transient private lazy val python = new PythonRunners.PythonFunction(
    this,
    func,
    evalType,
    input.streamSchema(),
    func.dataType,
    pythonMetrics
  )

  override protected def doExecute(): RDD[InternalRow] = {
    val settings = input
    val runner = python
    val offsets = argOffsets
    val dedup = dedupAttributes
    val grouping = groupingAttributes
    val childOutput = child.output
    val rows = RowbridgePython.rowSource(conf, output, longMetric)
    val columns = output.size
    child.execute().mapPartitionsInternal { partition =>
      if (partition.isEmpty) partition
      else {
        val groups = PandasGroupUtils
          .groupAndProject(partition, grouping, childOutput, dedup)
          .map { case (_, group) => group }
        val batches = runner.computeGroups(groups, offsets, settings, TaskContext.get())
        RowbridgePython.rowsOfStructBatches(batches, columns, rows)
      }
    }
  }

  override protected def withNewChildInternal(newChild: SparkPlan): RowbridgeFlatMapGroupsExec =
    copy(child = newChild)
}
