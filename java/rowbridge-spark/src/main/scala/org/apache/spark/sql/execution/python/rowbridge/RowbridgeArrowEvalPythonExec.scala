// In Spark's package, though it names no Spark-private API itself: it is made of this package's
// private runner helpers (PythonRunners.RunnerArgs, RowbridgePython) and the line's
// SparkPython.ArrowEvaluation, which hold BasePythonRunner and ChainedPythonFunctions
// (private[spark]).
package org.apache.spark.sql.execution.python.rowbridge

import scala.jdk.CollectionConverters._

import io.rowbridge.spark.python.{ArrowRowsToPython, PythonInput}
import io.rowbridge.spark.transition.BatchRowSource
import org.apache.spark.sql.execution.python.rowbridge.PythonRunners.{Runner, RunnerArgs}

import org.apache.spark.TaskContext
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, PythonUDF}
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.metric.SQLMetric
import org.apache.spark.sql.execution.python.{EvalPythonExec, PythonSQLMetrics}
import org.apache.spark.sql.types.{DataType, StructType}

/** Scalar pandas and Arrow UDFs and Arrow-optimized Python UDFs with rowbridge on both sides of the
  * worker's stream: the UDFs' arguments go to the worker as Arrow IPC batches made natively
  * ([[ArrowRowsToPython]]) and the results come back through rowbridge's converter. Spark's
  * EvalPythonExec keeps the input rows and joins each with its results, as with Spark's
  * ArrowEvalPythonExec. Where Spark asks for the evaluation differs by line:
  * [[SparkPython.ArrowEvaluation]].
  */
case class RowbridgeArrowEvalPythonExec(
    udfs: Seq[PythonUDF],
    resultAttrs: Seq[Attribute],
    child: SparkPlan,
    evalType: Int
) extends EvalPythonExec
    with PythonSQLMetrics
    with SparkPython.ArrowEvaluation {

  override def nodeName: String = "RowbridgeArrowEvalPython"

  override lazy val metrics: Map[String, SQLMetric] =
    pythonMetrics ++ RowbridgePython.outputMetrics(sparkContext)

  // The session's settings and the job's artifacts, as the plan is made.
  private[this] val runnerArgs = RunnerArgs(this, evalType, new StructType(), pythonMetrics)

  // Made on the driver (on Spark 3.5, before the operator goes to the executors).
  override protected lazy val arrowEval: ArrowEval = new ArrowEval(
    RowbridgePython.inputSettings(conf, new StructType(), false),
    RowbridgePython.rowSource(conf, resultAttrs, longMetric),
    runnerArgs,
    WorkerStream.evalResultCheck(resultAttrs.map(_.dataType))
  )

  override protected def withNewChildInternal(newChild: SparkPlan): SparkPlan =
    copy(child = newChild)
}

/** What a task needs to evaluate the UDFs of a [[RowbridgeArrowEvalPythonExec]]. */
private[rowbridge] class ArrowEval(
    input: ArrowRowsToPython.Settings,
    results: BatchRowSource,
    val args: RunnerArgs,
    checkResult: Seq[DataType] => Unit
) extends Serializable {

  /** The results of `rows` (the arguments, of `schema`) from the runner `runnerOf` makes. */
  def apply(rows: Iterator[InternalRow], schema: StructType, context: TaskContext)(
      runnerOf: (RunnerArgs, PythonInput) => Runner
  ): Iterator[InternalRow] = {
    val toPython = input.forColumns(schema).open(rows.asJava)
    val batches = runnerOf(args.copy(schema = schema), toPython)
      .compute(Iterator(Iterator.empty), context.partitionId(), context)
      .map { batch =>
        checkResult((0 until batch.numCols()).map(i => batch.column(i).dataType()))
        batch
      }
    results.open(batches.asJava).asScala
  }
}
