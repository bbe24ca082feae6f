package org.apache.spark.sql.execution.python.rowbridge

import java.io.DataOutputStream

import scala.jdk.CollectionConverters._

import io.rowbridge.spark.python.{ArrowRowsToPython, PythonInput}
import org.apache.spark.sql.execution.python.rowbridge.RowbridgePython.handedOverRows
import org.apache.arrow.vector.VectorSchemaRoot
import org.apache.arrow.vector.ipc.ArrowStreamWriter

import org.apache.spark.{JobArtifactSet, TaskContext}
import org.apache.spark.api.python.{BasePythonRunner, ChainedPythonFunctions}
import org.apache.spark.resource.ResourceProfile
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression, PythonUDF}
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.metric.SQLMetric
import org.apache.spark.sql.execution.python.{
  ArrowPythonRunner,
  BasicPythonArrowInput,
  FlatMapGroupsInArrowExec,
  FlatMapGroupsInPandasExec,
  MapInArrowExec,
  MapInPandasExec
}
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.{DataType, StructType}
import org.apache.spark.sql.vectorized.ColumnarBatch

/** The Spark-line-specific side of rowbridge's Python operators (Spark 4.0). */
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

  /** Spark 4.0 sends each group as one batch, whatever its size. */
  val groupsHaveByteLimit: Boolean = false

  private def evalTypeOf(func: Expression): Int = func.asInstanceOf[PythonUDF].evalType

  /** The Arrow data at which Spark's writer closes a batch to a Python worker. */
  def maxArrowBytes(conf: SQLConf): Long = conf.arrowMaxBytesPerBatch

  /** Spark's writer runs on the task's thread: the end of the task may free the native memory. */
  val closesAtTaskEnd: Boolean = true

  /** The codec and ZSTD level of the stream to Python workers: Spark 4.0 does not compress it. */
  def codec(conf: SQLConf): (String, Int) = ("none", 0)

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
    private val profiler = plan.conf.pythonUDFProfiler
    private val jobArtifactUUID = JobArtifactSet.getCurrentJobArtifactState.map(_.uuid)

    /** The worker's batches for `rows`, each of one struct column, read by Spark's reader. */
    def compute(
        rows: Iterator[InternalRow],
        input: ArrowRowsToPython.Settings,
        context: TaskContext
    ): Iterator[ColumnarBatch] = {
      run(input.open(rows.asJava), Array(0), context)
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
      run(toPython, Array(0), context)
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
        ArrowRowsToPython.Framing.BATCH_PER_GROUP
      )
      run(toPython, argOffsets, context)
    }

    /** Spark's runner for this function with `toPython` as its input. */
    private def run(
        toPython: PythonInput,
        argOffsets: Array[Int],
        context: TaskContext
    ): Iterator[ColumnarBatch] = {
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
        profiler
      ) with RowbridgeArrowInput {
        override protected def rowbridgeInput: PythonInput = toPython
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
          // Spark 4.0's BatchedPythonArrowInput loop, on the rows left.
          val maxRows = SQLConf.get.arrowMaxRecordsPerBatch
          val maxBytes = SQLConf.get.arrowMaxBytesPerBatch
          var rows = 0
          while (
            remaining.hasNext && rows < maxRows &&
            (maxBytes == Int.MaxValue || arrowWriter.sizeInBytes() < maxBytes)
          ) {
            arrowWriter.write(remaining.next())
            rows += 1
          }
          arrowWriter.finish()
          writer.writeBatch()
          arrowWriter.reset()
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
}
