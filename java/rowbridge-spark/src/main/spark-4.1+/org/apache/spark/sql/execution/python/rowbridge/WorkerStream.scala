// In Spark's package for the Spark-private API it uses: BasePythonRunner, PythonEvalType and Utils
// (private[spark]), QueryExecutionErrors (private[sql]).
package org.apache.spark.sql.execution.python.rowbridge

import java.io.DataOutputStream

import io.rowbridge.spark.python.ArrowRowsToPython
import org.apache.arrow.vector.ipc.ArrowStreamWriter

import org.apache.spark.{SparkEnv, TaskContext}
import org.apache.spark.api.python.{BasePythonRunner, PythonEvalType, PythonWorker}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.errors.QueryExecutionErrors
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.python._
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.{DataType, UserDefinedType}
import org.apache.spark.util.Utils

/** The stream to a Python worker from Spark 4.1 on: compressed, a stream per group cut at the byte
  * limit, the session's UUID for the worker's logs, results checked with Spark's errors.
  */
private[rowbridge] object WorkerStream {

  val groupsHaveByteLimit: Boolean = true

  def codec(conf: SQLConf): (String, Int) =
    (conf.arrowCompressionCodec, conf.arrowZstdCompressionLevel)

  def sessionUUID(plan: SparkPlan): Option[String] = Option(plan.session).collect {
    case session if plan.conf.pythonWorkerLoggingEnabled => session.sessionUUID
  }

  /** The check of a map worker's batch type, when the session asks for it. */
  def mapOutputCheck(conf: SQLConf, evalType: Int, outputType: DataType): Option[DataType => Unit] =
    Option.when(conf.pysparkArrowValidateSchema) { actual =>
      if (!DataType.equalsIgnoreCompatibleNullability(from = actual, to = outputType)) {
        throw QueryExecutionErrors.arrowDataTypeMismatchError(PythonEvalType.toString(evalType),
          Seq(outputType), Seq(actual))
      }
    }

  /** The check of the UDFs' result types (user-defined types as their SQL types). */
  def evalResultCheck(resultTypes: Seq[DataType]): Seq[DataType] => Unit = {
    val expected = resultTypes.map(_.transformRecursively { case t: UserDefinedType[_] =>
      t.sqlType
    })
    actual =>
      if (!SparkPython.sameTypes(expected, actual)) {
        throw QueryExecutionErrors.arrowDataTypeMismatchError("pandas_udf()", expected, actual)
      }
  }

  val groupFraming: ArrowRowsToPython.Framing = ArrowRowsToPython.Framing.STREAM_PER_GROUP

  /** Spark's writer of batches cut at the byte limit, for the rows rowbridge hands over. */
  trait SizedBatches extends BasicPythonArrowInput {
    self: BasePythonRunner[Iterator[InternalRow], _] =>
    protected def writeSparkBatch(writer: ArrowStreamWriter, rows: Iterator[InternalRow],
        dataOut: DataOutputStream): Unit = BatchedPythonArrowInput.writeSizedBatch(arrowWriter,
      writer, rows, maxBytesPerBatch, maxRecordsPerBatch, unloader, dataOut)
  }

  /** Spark's grouped Arrow input to a worker (a stream per group) with rowbridge's batches. */
  trait GroupedInput extends SizedBatches {
    self: BasePythonRunner[Iterator[InternalRow], _] =>
    protected def rowbridgeInput: ArrowRowsToPython

    /** The worker's command, as the line's runner writes it ([[LineApi]]). */
    protected def writeRunnerCommand(dataOut: DataOutputStream): Unit

    private lazy val toWorker =
      new PythonRunners.GroupsToWorker(rowbridgeInput, pythonMetrics("pythonDataSent"))

    protected override def newWriter(env: SparkEnv, worker: PythonWorker,
        inputIterator: Iterator[Iterator[InternalRow]], partitionIndex: Int, context: TaskContext)
        : Writer = new Writer(env, worker, inputIterator, partitionIndex, context) {
      protected override def writeCommand(dataOut: DataOutputStream): Unit =
        writeRunnerCommand(dataOut)

      override def writeNextInputToStream(dataOut: DataOutputStream): Boolean =
        toWorker.writeNext(dataOut, closeArrow)(writeSparkBatch(null, _, dataOut))

      private def closeArrow(): Unit = Utils.tryWithSafeFinally(root.close())(allocator.close())
    }
  }
}
