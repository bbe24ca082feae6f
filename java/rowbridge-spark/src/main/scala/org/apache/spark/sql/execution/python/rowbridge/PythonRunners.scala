// In Spark's package for the Spark-private API it uses: BasePythonRunner and JobArtifactSet
// (private[spark]).
package org.apache.spark.sql.execution.python.rowbridge

import java.io.DataOutputStream

import scala.jdk.CollectionConverters._

import io.rowbridge.spark.arrow.RowbridgeArrow
import io.rowbridge.spark.python.{ArrowRowsToPython, PythonInput, PythonOperators}
import org.apache.spark.sql.execution.python.rowbridge.RowbridgePython.{
  handedOverGroups,
  handedOverRows
}

import org.apache.spark.{JobArtifactSet, TaskContext}
import org.apache.spark.api.python.BasePythonRunner
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Expression, PythonUDF}
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.metric.SQLMetric
import org.apache.spark.sql.execution.python.{ArrowPythonRunner, FlatMapGroupsInPandasExec}
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.{DataType, StructType}
import org.apache.spark.sql.vectorized.ColumnarBatch

/** rowbridge's side of Spark's Python runners, the same on every Spark line. What a line's API
  * forces is in the shim folders (src/main/spark-*): [[SparkPython]] (3.5, and 4.0 on: the nodes,
  * the writer's thread), [[WorkerStream]] (3.5 to 4.0, and 4.1 on: compression, grouped streams,
  * schema checks) and [[LineApi]] (each line: the runners' constructors).
  */
private[rowbridge] object PythonRunners {

  def mapInBatch(plan: SparkPlan): Option[PythonOperators.MapInBatch] =
    SparkPython.mapInBatch(plan)

  def flatMapGroups(plan: SparkPlan): Option[PythonOperators.FlatMapGroups] = plan match {
    case FlatMapGroupsInPandasExec(grouping, func, output, child) =>
      PythonOperators.FlatMapGroups.of(grouping, func, output, child, false)
    case _ => SparkPython.flatMapGroupsInArrow(plan)
  }

  /** Whether Spark cuts each group's batches at the byte limit too (else a group is one batch). */
  def groupsHaveByteLimit: Boolean = WorkerStream.groupsHaveByteLimit

  /** The Arrow data at which Spark's writer closes a batch to a Python worker. */
  def maxArrowBytes(conf: SQLConf): Long = SparkPython.maxArrowBytes(conf)

  /** Whether Spark's writer runs on the task's thread, so the end of the task may free the native
    * memory (else Spark's writer thread frees it when it stops).
    */
  def closesAtTaskEnd: Boolean = SparkPython.closesAtTaskEnd

  /** The codec and ZSTD level of the stream to Python workers. */
  def codec(conf: SQLConf): (String, Int) = WorkerStream.codec(conf)

  /** The arguments of Spark's Arrow runners, made on the driver: every line's runners take the
    * first ones; [[LineApi]] passes the session and the profiler where its line takes them.
    */
  case class RunnerArgs(
      evalType: Int,
      schema: StructType,
      timeZone: String,
      largeVarTypes: Boolean,
      runnerConf: Map[String, String],
      metrics: Map[String, SQLMetric],
      jobArtifactUUID: Option[String],
      sessionUUID: Option[String],
      profiler: Option[String]
  )

  object RunnerArgs {
    def apply(
        plan: SparkPlan,
        evalType: Int,
        schema: StructType,
        metrics: Map[String, SQLMetric]
    ): RunnerArgs = RunnerArgs(
      evalType,
      schema,
      plan.conf.sessionLocalTimeZone,
      plan.conf.arrowUseLargeVarTypes,
      ArrowPythonRunner.getPythonRunnerConfMap(plan.conf),
      metrics,
      JobArtifactSet.getCurrentJobArtifactState.map(_.uuid),
      WorkerStream.sessionUUID(plan),
      SparkPython.profiler(plan.conf)
    )
  }

  /** A runner whose worker returns batches. */
  type Runner = BasePythonRunner[Iterator[InternalRow], ColumnarBatch]

  /** What a task needs to start the worker of a map or grouped operator; made on the driver. */
  class PythonFunction(
      plan: SparkPlan,
      func: Expression,
      evalType: Int,
      streamSchema: StructType,
      outputType: DataType,
      pythonMetrics: Map[String, SQLMetric]
  ) extends Serializable {
    private val funcs = SparkPython.funcs(func.asInstanceOf[PythonUDF])
    private val args = RunnerArgs(plan, evalType, streamSchema, pythonMetrics)
    private val checkOutput = WorkerStream.mapOutputCheck(plan.conf, evalType, outputType)

    /** The worker's batches for `rows`, each of one struct column, read by Spark's reader. */
    def compute(
        rows: Iterator[InternalRow],
        input: ArrowRowsToPython.Settings,
        context: TaskContext
    ): Iterator[ColumnarBatch] = run(input.open(SparkPython.inTask(context, rows).asJava), context)

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
      val inTask = SparkPython.inTask(context, batches)
      run(RowbridgePython.batchesToPython(inTask, rowsOf, input, sent, engine), context)
    }

    /** The worker's batches for `groups`, each of one struct column, read by Spark's reader. */
    def computeGroups(
        groups: Iterator[Iterator[InternalRow]],
        argOffsets: Array[Int],
        input: ArrowRowsToPython.Settings,
        context: TaskContext
    ): Iterator[ColumnarBatch] = {
      val toPython = input.openGroups(groups.map(_.asJava).asJava, WorkerStream.groupFraming)
      val runner = new LineApi.Runner(funcs, Array(argOffsets), args)
        with WorkerStream.GroupedInput {
        override protected def rowbridgeInput: ArrowRowsToPython = toPython
      }
      runner.compute(Iterator(Iterator.empty), context.partitionId(), context)
    }

    /** Spark's runner for this function with `toPython` as its input, and its schema check. */
    private def run(toPython: PythonInput, context: TaskContext): Iterator[ColumnarBatch] = {
      val runner = new LineApi.Runner(funcs, Array(Array(0)), args)
        with SparkPython.RowbridgeArrowInput {
        override protected def rowbridgeInput: PythonInput = toPython
      }
      val batches = runner.compute(Iterator(Iterator.empty), context.partitionId(), context)
      checkOutput.fold(batches) { check =>
        batches.map { batch => check(batch.column(0).dataType()); batch }
      }
    }
  }

  /** rowbridge's batches to a worker, then the rows it hands over to Spark's writer: rows whose
    * batch may reach the byte limit, which Spark's writer measures as it writes.
    */
  final class RowsToWorker(input: PythonInput, sent: SQLMetric) {
    private var sparkRows: Option[Iterator[InternalRow]] = None

    /** Writes the next batch (a handed-over one through `writeSparkBatch`) and counts its bytes in
      * `sent`; at the end, closes the input, then calls `atEnd`, and returns false.
      */
    def writeNext(dataOut: DataOutputStream, atEnd: () => Unit)(
        writeSparkBatch: Iterator[InternalRow] => Unit
    ): Boolean = {
      val start = dataOut.size()
      val wrote = writeBatch(dataOut, writeSparkBatch)
      if (wrote) sent += dataOut.size() - start
      else {
        input.close()
        atEnd()
      }
      wrote
    }

    private def writeBatch(
        dataOut: DataOutputStream,
        writeSparkBatch: Iterator[InternalRow] => Unit
    ): Boolean = input.writeNext(dataOut) || input.handedOver() && {
      val remaining = sparkRows.getOrElse {
        val handedOver = handedOverRows(input)
        sparkRows = Some(handedOver)
        handedOver
      }
      remaining.hasNext && { writeSparkBatch(remaining); true }
    }
  }

  /** rowbridge's grouped batches to a worker (a stream per group), then the groups it hands over to
    * Spark's writer, group by group, in the same framing.
    */
  final class GroupsToWorker(input: ArrowRowsToPython, sent: SQLMetric) {
    private var sparkGroups: Option[Iterator[Iterator[InternalRow]]] = None
    private var sparkGroup: Iterator[InternalRow] = Iterator.empty
    private var sparkGroupOpen = false

    /** Writes the next batch (a handed-over one through `writeSparkBatch`) and counts its bytes
      * (the end's too) in `sent`; at the end, closes the input, then calls `atEnd`, and returns
      * false.
      */
    def writeNext(dataOut: DataOutputStream, atEnd: () => Unit)(
        writeSparkBatch: Iterator[InternalRow] => Unit
    ): Boolean = {
      val start = dataOut.size()
      val wrote = input.writeNext(dataOut) ||
        input.handedOver() && writeHandedOver(dataOut, writeSparkBatch)
      sent += dataOut.size() - start
      if (!wrote) {
        input.close()
        atEnd()
      }
      wrote
    }

    /** One batch of the handed-over groups (the first may continue an open stream), or the end. */
    private def writeHandedOver(
        dataOut: DataOutputStream,
        writeSparkBatch: Iterator[InternalRow] => Unit
    ): Boolean = {
      val groups = sparkGroups.getOrElse {
        val handedOver = handedOverGroups(input)
        sparkGroups = Some(handedOver)
        sparkGroupOpen = input.groupOpened()
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
        dataOut.write(input.schemaMessage())
        sparkGroupOpen = true
      }
      writeSparkBatch(sparkGroup)
      true
    }
  }
}
