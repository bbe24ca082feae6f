// In Spark's package for the Spark-private API it uses: BasePythonRunner and ChainedPythonFunctions
// (private[spark]).
package org.apache.spark.sql.execution.python.rowbridge

import java.io.DataOutputStream

import io.rowbridge.spark.python.PythonInput
import io.rowbridge.spark.python.PythonOperators.{FlatMapGroups, MapInBatch}
import org.apache.arrow.vector.VectorSchemaRoot
import org.apache.arrow.vector.ipc.ArrowStreamWriter

import org.apache.spark.{ContextAwareIterator, TaskContext}
import org.apache.spark.api.python.{BasePythonRunner, ChainedPythonFunctions}
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.PythonUDF
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.python.rowbridge.PythonRunners.RunnerArgs
import org.apache.spark.sql.execution.python._
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.{DataType, StructType}

/** Spark 3.5's Python nodes and runners: no resource profiles or grouped Arrow node, batches cut by
  * row count alone, and a writer thread of Spark's own per worker.
  */
private[rowbridge] object SparkPython {

  def mapInBatch(plan: SparkPlan): Option[MapInBatch] = plan match {
    case PythonMapInArrowExec(f, out, child, barrier) => MapInBatch.of(f, out, child, barrier, None)
    case MapInPandasExec(f, out, child, barrier)      => MapInBatch.of(f, out, child, barrier, None)
    case _                                            => None
  }

  /** Spark 3.5 has no grouped Arrow node (applyInArrow). */
  def flatMapGroupsInArrow(plan: SparkPlan): Option[FlatMapGroups] = None
  def maxArrowBytes(conf: SQLConf): Long = Long.MaxValue
  val closesAtTaskEnd: Boolean = false

  /** Spark 3.5 has no collations: the worker's result types are the UDFs' own. */
  def sameTypes(expected: Seq[DataType], actual: Seq[DataType]): Boolean = expected == actual

  /** Spark 3.5 has no Python profiler setting. */
  def profiler(conf: SQLConf): Option[String] = None

  /** Spark 3.5's runners take the functions without their result ids. */
  type Funcs = Seq[ChainedPythonFunctions]
  def funcs(udf: PythonUDF): Funcs = Seq(ChainedPythonFunctions(Seq(udf.func)))

  /** The task's input, which Spark's writer thread reads while the task may end. */
  def inTask[T](context: TaskContext, input: Iterator[T]): Iterator[T] =
    new ContextAwareIterator(context, input)

  /** Spark's Arrow input to a Python worker with the batches written by rowbridge, on Spark's
    * writer thread (Spark 3.5 hands no rows over: it has no byte limit).
    */
  trait RowbridgeArrowInput extends BasicPythonArrowInput {
    self: BasePythonRunner[Iterator[InternalRow], _] =>
    protected def rowbridgeInput: PythonInput

    override protected def writeIteratorToArrowStream(root: VectorSchemaRoot,
        writer: ArrowStreamWriter, dataOut: DataOutputStream,
        inputIterator: Iterator[Iterator[InternalRow]]): Unit = {
      val toWorker = new PythonRunners.RowsToWorker(rowbridgeInput, pythonMetrics("pythonDataSent"))
      try while (toWorker.writeNext(dataOut, () => ())(_ => ())) {}
      finally rowbridgeInput.close()
    }
  }

  /** Spark 3.5's EvalPythonExec evaluates in the operator itself, on the executors. */
  trait ArrowEvaluation extends EvalPythonExec {
    protected def arrowEval: ArrowEval

    override protected def doExecute(): RDD[InternalRow] = {
      arrowEval // made here, on the driver
      super.doExecute()
    }

    override protected def evaluate(funcs: Seq[ChainedPythonFunctions],
        argOffsets: Array[Array[Int]], iter: Iterator[InternalRow], schema: StructType,
        context: TaskContext): Iterator[InternalRow] = arrowEval(iter, schema, context) {
      (args, input) =>
        new LineApi.Runner(funcs, argOffsets, args) with RowbridgeArrowInput {
          override protected def rowbridgeInput: PythonInput = input
        }
    }
  }
}

/** Spark 3.5's Arrow runner takes neither a session nor a profiler. */
private[rowbridge] object LineApi {
  class Runner(funcs: SparkPython.Funcs, offsets: Array[Array[Int]], a: RunnerArgs)
      extends ArrowPythonRunner(funcs, a.evalType, offsets, a.schema, a.timeZone, a.largeVarTypes,
        a.runnerConf, a.metrics, a.jobArtifactUUID)
}
