package org.apache.spark.sql.execution.python.rowbridge

import java.io.DataOutputStream

import scala.jdk.CollectionConverters._

import io.rowbridge.spark.RowbridgeArrow
import io.rowbridge.spark.python.{ArrowRowsToPython, PythonInput}
import org.apache.spark.sql.execution.python.rowbridge.RowbridgePython.{
  handedOverGroups,
  handedOverRows
}
import org.apache.arrow.vector.VectorSchemaRoot
import org.apache.arrow.vector.ipc.ArrowStreamWriter

import org.apache.spark.{JobArtifactSet, SparkEnv, TaskContext}
import org.apache.spark.api.python.{BasePythonRunner, ChainedPythonFunctions, PythonWorker}
import org.apache.spark.resource.ResourceProfile
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression, PythonUDF}
import org.apache.spark.sql.errors.QueryExecutionErrors
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.metric.SQLMetric
import org.apache.spark.sql.execution.python.{
  ArrowPythonRunner,
  BasicPythonArrowInput,
  BatchedPythonArrowInput,
  FlatMapGroupsInArrowExec,
  FlatMapGroupsInPandasExec,
  MapInArrowExec,
  MapInPandasExec
}
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.{DataType, StructType}
import org.apache.spark.sql.vectorized.ColumnarBatch
import org.apache.spark.util.Utils

/** The Spark-line-specific side of rowbridge's Python operators (Spark 4.1). */
private[rowbridge] object PythonRunners {

  def mapInBatch(plan: SparkPlan): Option[PythonOperators.MapInBatch] = plan match {
    case MapInArrowExec(func, output, child, isBarrier, profile) =>
      Some(PythonOperators.MapInBatch(func, output, child, isBarrier, evalTypeOf(func), profile))
    case MapInPandasExec(func, output, child, isBarrier, profile) =>
      Some(PythonOperators.MapInBatch(func, output, child, isBarrier, evalTypeOf(func), profile))
    case _ => None
  }

  def flatMapGroups(plan: SparkPlan): Option[PythonOperators.FlatMapGroups] = plan match {
    case FlatMapGroupsInPandasExec(grouping, func, output, child) =>
      Some(PythonOperators.FlatMapGroups(grouping, func, output, child, evalTypeOf(func), false))
    case FlatMapGroupsInArrowExec(grouping, func, output, child) =>
      Some(PythonOperators.FlatMapGroups(grouping, func, output, child, evalTypeOf(func), true))
    case _ => None
  }

  /** Spark 4.1 cuts each group's batches at the byte limit too. */
  val groupsHaveByteLimit: Boolean = true

  private def evalTypeOf(func: Expression): Int = func.asInstanceOf[PythonUDF].evalType

  /** The Arrow data at which Spark's writer closes a batch to a Python worker. */
  def maxArrowBytes(conf: SQLConf): Long = conf.arrowMaxBytesPerBatch

  /** Spark's writer runs on the task's thread: the end of the task may free the native memory. */
  val closesAtTaskEnd: Boolean = true

  /** The codec and ZSTD level of the stream to Python workers. */
  def codec(conf: SQLConf): (String, Int) =
    (conf.arrowCompressionCodec, conf.arrowZstdCompressionLevel)

  /** What a task needs to start the worker of a map or grouped operator; made on the driver. */
  class PythonFunction(
      plan: SparkPlan,
      func: Expression,
      evalType: Int,
      streamSchema: StructType,
      outputType: DataType,
      pythonMetrics: Map[String, SQLMetric]
  ) extends Serializable {
    private val chained = {
      val udf = func.asInstanceOf[PythonUDF]
      Seq((ChainedPythonFunctions(Seq(udf.func)), udf.resultId.id))
    }
    private val runnerConf = ArrowPythonRunner.getPythonRunnerConfMap(plan.conf)
    private val timeZone = plan.conf.sessionLocalTimeZone
    private val largeVarTypes = plan.conf.arrowUseLargeVarTypes
    private val validateSchema = plan.conf.pysparkArrowValidateSchema
    private val jobArtifactUUID = JobArtifactSet.getCurrentJobArtifactState.map(_.uuid)
    private val sessionUUID = Option(plan.session).collect {
      case session if plan.conf.pythonWorkerLoggingEnabled => session.sessionUUID
    }

    /** The worker's batches for `rows`, each of one struct column, read by Spark's reader. */
    def compute(
        rows: Iterator[InternalRow],
        input: ArrowRowsToPython.Settings,
        context: TaskContext
    ): Iterator[ColumnarBatch] = run(input.open(rows.asJava), context)

    /** Spark's runner for this function with `toPython` as its input, and its schema check. */
    private def run(toPython: PythonInput, context: TaskContext): Iterator[ColumnarBatch] = {
      val runner = new ArrowPythonRunner(
        chained,
        evalType,
        Array(Array(0)),
        streamSchema,
        timeZone,
        largeVarTypes,
        runnerConf,
        pythonMetrics,
        jobArtifactUUID,
        sessionUUID
      ) with RowbridgeArrowInput {
        override protected def rowbridgeInput: PythonInput = toPython
      }
      val batches = runner.compute(Iterator(Iterator.empty), context.partitionId(), context)
      if (!validateSchema) batches
      else {
        batches.map { batch =>
          val actual = batch.column(0).dataType()
          if (!DataType.equalsIgnoreCompatibleNullability(from = actual, to = outputType)) {
            throw QueryExecutionErrors.arrowDataTypeMismatchError(
              org.apache.spark.api.python.PythonEvalType.toString(evalType),
              Seq(outputType),
              Seq(actual)
            )
          }
          batch
        }
      }
    }

    /** The worker's batches for the child's Arrow-backed `batches`, each of one struct column; the
      * batches that do not fit Spark's stream schema go through `rowsOf`.
      */
    def computeBatches(
        batches: Iterator[ColumnarBatch],
        rowsOf: Iterator[ColumnarBatch] => Iterator[InternalRow],
        input: ArrowRowsToPython.Settings,
        sent: SQLMetric,
        engine: Option[String],
        context: TaskContext
    ): Iterator[ColumnarBatch] = {
      val toPython = RowbridgePython.batchesToPython(batches, rowsOf, input, sent, engine)
      run(toPython, context)
    }

    /** The worker's batches for `groups`, each of one struct column, read by Spark's reader. */
    def computeGroups(
        groups: Iterator[Iterator[InternalRow]],
        argOffsets: Array[Int],
        input: ArrowRowsToPython.Settings,
        context: TaskContext
    ): Iterator[ColumnarBatch] = {
      val toPython = input.openGroups(
        groups.map(_.asJava).asJava,
        ArrowRowsToPython.Framing.STREAM_PER_GROUP
      )
      val runner = new ArrowPythonRunner(
        chained,
        evalType,
        Array(argOffsets),
        streamSchema,
        timeZone,
        largeVarTypes,
        runnerConf,
        pythonMetrics,
        jobArtifactUUID,
        sessionUUID
      ) with RowbridgeGroupedArrowInput {
        override protected def rowbridgeInput: ArrowRowsToPython = toPython
      }
      runner.compute(Iterator(Iterator.empty), context.partitionId(), context)
    }
  }

  /** Spark's Arrow input to a Python worker with the batches written by rowbridge. */
  trait RowbridgeArrowInput extends BasicPythonArrowInput {
    self: BasePythonRunner[Iterator[InternalRow], _] =>

    protected def rowbridgeInput: PythonInput

    override protected def writeNextBatchToArrowStream(
        root: VectorSchemaRoot,
        writer: ArrowStreamWriter,
        dataOut: DataOutputStream,
        inputIterator: Iterator[Iterator[InternalRow]]
    ): Boolean = {
      val start = dataOut.size()
      val wrote = rowbridgeInput.writeNext(dataOut) || rowbridgeInput.handedOver() && {
        // Rows whose batch may reach the byte limit: Spark's writer measures them as it writes.
        val remaining = sparkRows.getOrElse {
          val handedOver = handedOverRows(rowbridgeInput)
          sparkRows = Some(handedOver)
          handedOver
        }
        remaining.hasNext && {
          BatchedPythonArrowInput.writeSizedBatch(
            arrowWriter,
            writer,
            remaining,
            maxBytesPerBatch,
            maxRecordsPerBatch,
            unloader,
            dataOut
          )
          true
        }
      }
      if (wrote) {
        pythonMetrics("pythonDataSent") += dataOut.size() - start
      } else {
        rowbridgeInput.close()
        close()
      }
      wrote
    }

    /** The rows handed over to Spark's writer, once rowbridge hands them over. */
    private var sparkRows: Option[Iterator[InternalRow]] = None
  }

  /** Spark's grouped Arrow input to a Python worker (a stream per group) with the batches and their
    * framing written by rowbridge; rows whose batch may reach the byte limit go through Spark's own
    * writer, group by group, in the same framing.
    */
  trait RowbridgeGroupedArrowInput extends BasicPythonArrowInput {
    self: BasePythonRunner[Iterator[InternalRow], _] =>

    protected def rowbridgeInput: ArrowRowsToPython

    protected override def newWriter(
        env: SparkEnv,
        worker: PythonWorker,
        inputIterator: Iterator[Iterator[InternalRow]],
        partitionIndex: Int,
        context: TaskContext
    ): Writer = new Writer(env, worker, inputIterator, partitionIndex, context) {
      protected override def writeCommand(dataOut: DataOutputStream): Unit = {
        writeUDF(dataOut)
      }

      override def writeNextInputToStream(dataOut: DataOutputStream): Boolean = {
        val start = dataOut.size()
        val wrote = rowbridgeInput.writeNext(dataOut) ||
          rowbridgeInput.handedOver() && writeHandedOver(dataOut)
        pythonMetrics("pythonDataSent") += dataOut.size() - start
        if (!wrote) {
          rowbridgeInput.close()
          Utils.tryWithSafeFinally(root.close())(allocator.close())
        }
        wrote
      }
    }

    /** The groups handed over to Spark's writer, once rowbridge hands them over. */
    private var sparkGroups: Option[Iterator[Iterator[InternalRow]]] = None
    private var sparkGroup: Iterator[InternalRow] = Iterator.empty
    private var sparkGroupOpen = false

    /** One batch of the handed-over groups (the first may continue an open stream), or the end. */
    private def writeHandedOver(dataOut: DataOutputStream): Boolean = {
      val groups = sparkGroups.getOrElse {
        val handedOver = handedOverGroups(rowbridgeInput)
        sparkGroups = Some(handedOver)
        sparkGroupOpen = rowbridgeInput.groupOpened()
        sparkGroup = handedOver.next()
        handedOver
      }
      while (!sparkGroup.hasNext) {
        if (sparkGroupOpen) {
          dataOut.write(RowbridgeArrow.END_OF_STREAM)
          sparkGroupOpen = false
        }
        if (!groups.hasNext) {
          dataOut.writeInt(0)
          return false
        }
        sparkGroup = groups.next()
      }
      if (!sparkGroupOpen) {
        dataOut.writeInt(1)
        dataOut.write(rowbridgeInput.schemaMessage())
        sparkGroupOpen = true
      }
      BatchedPythonArrowInput.writeSizedBatch(
        arrowWriter,
        null,
        sparkGroup,
        maxBytesPerBatch,
        maxRecordsPerBatch,
        unloader,
        dataOut
      )
      true
    }
  }
}
