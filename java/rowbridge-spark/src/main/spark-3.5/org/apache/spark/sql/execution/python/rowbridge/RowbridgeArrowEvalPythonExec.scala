package org.apache.spark.sql.execution.python.rowbridge

import scala.jdk.CollectionConverters._

import io.rowbridge.spark.python.ArrowRowsToPython

import org.apache.spark.{JobArtifactSet, TaskContext}
import org.apache.spark.api.python.ChainedPythonFunctions
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, PythonUDF}
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.metric.SQLMetric
import org.apache.spark.sql.execution.python.{ArrowPythonRunner, EvalPythonExec, PythonSQLMetrics}
import org.apache.spark.sql.types.StructType

/** Scalar pandas UDFs and Arrow-optimized Python UDFs with rowbridge on both sides of the worker's
  * stream (Spark 3.5): the UDFs' arguments go to the worker as Arrow IPC batches made natively
  * ([[ArrowRowsToPython]]) and the results come back through rowbridge's converter. Spark's
  * EvalPythonExec keeps the input rows and joins each with its results, as with Spark's
  * ArrowEvalPythonExec.
  */
case class RowbridgeArrowEvalPythonExec(
    udfs: Seq[PythonUDF],
    resultAttrs: Seq[Attribute],
    child: SparkPlan,
    evalType: Int
) extends EvalPythonExec
    with PythonSQLMetrics {

  override def nodeName: String = "RowbridgeArrowEvalPython"

  override lazy val metrics: Map[String, SQLMetric] =
    pythonMetrics ++ RowbridgePython.outputMetrics(sparkContext)

  private val input = RowbridgePython.inputSettings(conf, new StructType(), false)
  private val timeZone = conf.sessionLocalTimeZone
  private val largeVarTypes = conf.arrowUseLargeVarTypes
  private val runnerConf = ArrowPythonRunner.getPythonRunnerConfMap(conf)
  private[this] val jobArtifactUUID = JobArtifactSet.getCurrentJobArtifactState.map(_.uuid)

  override protected def evaluate(
      funcs: Seq[ChainedPythonFunctions],
      argOffsets: Array[Array[Int]],
      iter: Iterator[InternalRow],
      schema: StructType,
      context: TaskContext
  ): Iterator[InternalRow] = {
    val outputTypes = output.drop(child.output.length).map(_.dataType)
    val toPython = input.forColumns(schema).open(iter.asJava)
    val runner = new ArrowPythonRunner(
      funcs,
      evalType,
      argOffsets,
      schema,
      timeZone,
      largeVarTypes,
      runnerConf,
      pythonMetrics,
      jobArtifactUUID
    ) with PythonRunners.RowbridgeArrowInput {
      override protected def rowbridgeInput: ArrowRowsToPython = toPython
    }
    val batches = runner
      .compute(Iterator(Iterator.empty), context.partitionId(), context)
      .map { batch =>
        val actual = (0 until batch.numCols()).map(i => batch.column(i).dataType())
        assert(
          outputTypes == actual,
          "Invalid schema from pandas_udf: " +
            s"expected ${outputTypes.mkString(", ")}, got ${actual.mkString(", ")}"
        )
        batch
      }
    RowbridgePython.rowSource(conf, resultAttrs, longMetric).open(batches.asJava).asScala
  }

  override protected def withNewChildInternal(newChild: SparkPlan): SparkPlan =
    copy(child = newChild)
}
