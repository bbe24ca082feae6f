// In Spark's package for the Spark-private API it uses: BasePythonRunner and ChainedPythonFunctions
// (private[spark]).
package org.apache.spark.sql.execution.python.rowbridge

import java.io.DataOutputStream

import io.rowbridge.spark.python.PythonInput
import io.rowbridge.spark.python.PythonOperators.{FlatMapGroups, MapInBatch}
import org.apache.arrow.vector.VectorSchemaRoot
import org.apache.arrow.vector.ipc.ArrowStreamWriter

import org.apache.spark.TaskContext
import org.apache.spark.api.python.{BasePythonRunner, ChainedPythonFunctions}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.PythonUDF
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.python._
import org.apache.spark.sql.execution.python.EvalPythonExec.ArgumentMetadata
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.{DataType, StructType}

/** Spark's Python nodes and runners from 4.0 on: resource profiles, a grouped Arrow node, a byte
  * limit per batch, and writers on the task's thread.
  */
private[rowbridge] object SparkPython {

  def mapInBatch(plan: SparkPlan): Option[MapInBatch] = plan match {
    case MapInArrowExec(f, out, child, barrier, profile) =>
      MapInBatch.of(f, out, child, barrier, profile)
    case MapInPandasExec(f, out, child, barrier, profile) =>
      MapInBatch.of(f, out, child, barrier, profile)
    case _ => None
  }

  def flatMapGroupsInArrow(plan: SparkPlan): Option[FlatMapGroups] = plan match {
    case FlatMapGroupsInArrowExec(keys, f, out, child) =>
      FlatMapGroups.of(keys, f, out, child, true)
    case _ => None
  }

  def maxArrowBytes(conf: SQLConf): Long = conf.arrowMaxBytesPerBatch
  val closesAtTaskEnd: Boolean = true

  /** The worker's result types match the UDFs' up to compatible collations. */
  def sameTypes(expected: Seq[DataType], actual: Seq[DataType]): Boolean =
    DataType.equalsIgnoreCompatibleCollation(expected, actual)

  def profiler(conf: SQLConf): Option[String] = conf.pythonUDFProfiler

  /** The runners take each function with its result's id. */
  type Funcs = Seq[(ChainedPythonFunctions, Long)]
  def funcs(udf: PythonUDF): Funcs = Seq((ChainedPythonFunctions(Seq(udf.func)), udf.resultId.id))

  /** The writer reads the input on the task's own thread. */
  def inTask[T](context: TaskContext, input: Iterator[T]): Iterator[T] = input

  /** Spark's Arrow input to a Python worker with the batches written by rowbridge. */
  trait RowbridgeArrowInput extends BasicPythonArrowInput {
    self: BasePythonRunner[Iterator[InternalRow], _] =>
    protected def rowbridgeInput: PythonInput

    /** One batch of handed-over rows through Spark's writer ([[LineApi]]'s runners). */
    protected def writeSparkBatch(writer: ArrowStreamWriter, rows: Iterator[InternalRow],
        dataOut: DataOutputStream): Unit

    private lazy val toWorker =
      new PythonRunners.RowsToWorker(rowbridgeInput, pythonMetrics("pythonDataSent"))

    override protected def writeNextBatchToArrowStream(root: VectorSchemaRoot,
        writer: ArrowStreamWriter, dataOut: DataOutputStream,
        inputIterator: Iterator[Iterator[InternalRow]]): Boolean =
      toWorker.writeNext(dataOut, () => close())(writeSparkBatch(writer, _, dataOut))
  }

  /** Spark's EvalPythonExec asks for an evaluator factory, which goes to the executors. */
  trait ArrowEvaluation extends EvalPythonExec {
    protected def arrowEval: ArrowEval

    override protected def evaluatorFactory: EvalPythonEvaluatorFactory = {
      val eval = arrowEval
      new LineApi.EvalFactory(this, conf.arrowMaxRecordsPerBatch, eval.args) {
        override def evaluate(funcs: Seq[(ChainedPythonFunctions, Long)],
            argMetas: Array[Array[ArgumentMetadata]], iter: Iterator[InternalRow],
            schema: StructType, context: TaskContext): Iterator[InternalRow] =
          eval(iter, schema, context) { (args, input) =>
            new LineApi.NamedArgRunner(funcs, argMetas, args) with RowbridgeArrowInput {
              override protected def rowbridgeInput: PythonInput = input
            }
          }
      }
    }
  }
}
