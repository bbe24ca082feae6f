package org.apache.spark.sql.execution.python.rowbridge

import java.io.DataOutputStream

import scala.jdk.CollectionConverters._

import io.rowbridge.spark.python.{ArrowRowsToPython, PythonInput}
import org.apache.arrow.vector.VectorSchemaRoot
import org.apache.arrow.vector.ipc.ArrowStreamWriter

import org.apache.spark.{ContextAwareIterator, JobArtifactSet, TaskContext}
import org.apache.spark.api.python.{BasePythonRunner, ChainedPythonFunctions}
import org.apache.spark.resource.ResourceProfile
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression, PythonUDF}
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.metric.SQLMetric
import org.apache.spark.sql.execution.python.{
  ArrowPythonRunner,
  BasicPythonArrowInput,
  FlatMapGroupsInPandasExec,
  MapInPandasExec,
  PythonMapInArrowExec
}
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.{DataType, StructType}
import org.apache.spark.sql.vectorized.ColumnarBatch

/** The Spark-line-specific side of rowbridge's Python operators (Spark 3.5). */
private[rowbridge] object PythonRunners {

  def mapInBatch(plan: SparkPlan): Option[PythonOperators.MapInBatch] = plan match {
    case PythonMapInArrowExec(func, output, child, isBarrier) =>
      Some(PythonOperators.MapInBatch(func, output, child, isBarrier, evalTypeOf(func), None))
    case MapInPandasExec(func, output, child, isBarrier) =>
      Some(PythonOperators.MapInBatch(func, output, child, isBarrier, evalTypeOf(func), None))
    case _ => None
  }

  def flatMapGroups(plan: SparkPlan): Option[PythonOperators.FlatMapGroups] = plan match {
    case FlatMapGroupsInPandasExec(grouping, func, output, child) =>
      Some(PythonOperators.FlatMapGroups(grouping, func, output, child, evalTypeOf(func), false))
    case _ => None
  }

  /** Spark 3.5 sends each group as one batch, whatever its size. */
  val groupsHaveByteLimit: Boolean = false

  private def evalTypeOf(func: Expression): Int = func.asInstanceOf[PythonUDF].evalType

  /** Spark 3.5 cuts batches to Python workers by their row count alone. */
  def maxArrowBytes(conf: SQLConf): Long = Long.MaxValue

  /** Spark's writer thread frees the native memory when it stops (the task joins it first). */
  val closesAtTaskEnd: Boolean = false

  /** Spark 3.5 does not compress the stream to Python workers. */
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
    private val chained = Seq(ChainedPythonFunctions(Seq(func.asInstanceOf[PythonUDF].func)))
    private val runnerConf = ArrowPythonRunner.getPythonRunnerConfMap(plan.conf)
    private val timeZone = plan.conf.sessionLocalTimeZone
    private val largeVarTypes = plan.conf.arrowUseLargeVarTypes
    private val jobArtifactUUID = JobArtifactSet.getCurrentJobArtifactState.map(_.uuid)

    /** The worker's batches for `rows`, each of one struct column, read by Spark's reader. */
    def compute(
        rows: Iterator[InternalRow],
        input: ArrowRowsToPython.Settings,
        context: TaskContext
    ): Iterator[ColumnarBatch] = {
      val taskRows = new ContextAwareIterator(context, rows)
      run(input.open(taskRows.asJava), Array(0), context)
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
      val toPython = RowbridgePython.batchesToPython(
        new ContextAwareIterator(context, batches),
        rowsOf,
        input,
        sent,
        engine
      )
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
        jobArtifactUUID
      ) with RowbridgeArrowInput {
        override protected def rowbridgeInput: PythonInput = toPython
      }
      runner.compute(Iterator(Iterator.empty), context.partitionId(), context)
    }
  }

  /** Spark's Arrow input to a Python worker with the batches written by rowbridge, on Spark's
    * writer thread.
    */
  trait RowbridgeArrowInput extends BasicPythonArrowInput {
    self: BasePythonRunner[Iterator[InternalRow], _] =>

    protected def rowbridgeInput: PythonInput

    override protected def writeIteratorToArrowStream(
        root: VectorSchemaRoot,
        writer: ArrowStreamWriter,
        dataOut: DataOutputStream,
        inputIterator: Iterator[Iterator[InternalRow]]
    ): Unit = {
      try {
        var more = true
        while (more) {
          val start = dataOut.size()
          more = rowbridgeInput.writeNext(dataOut)
          if (more) pythonMetrics("pythonDataSent") += dataOut.size() - start
        }
      } finally {
        rowbridgeInput.close()
      }
    }
  }
}
