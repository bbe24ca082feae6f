package org.apache.spark.sql.execution.python.rowbridge

import scala.jdk.CollectionConverters._

import io.rowbridge.spark.python.ArrowRowsToPython

import org.apache.spark.{JobArtifactSet, TaskContext}
import org.apache.spark.api.python.ChainedPythonFunctions
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, PythonUDF}
import org.apache.spark.sql.errors.QueryExecutionErrors
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.metric.SQLMetric
import org.apache.spark.sql.execution.python.{
  ArrowEvalPythonEvaluatorFactory,
  ArrowPythonRunner,
  ArrowPythonWithNamedArgumentRunner,
  EvalPythonEvaluatorFactory,
  EvalPythonExec,
  PythonSQLMetrics
}
import org.apache.spark.sql.execution.python.EvalPythonExec.ArgumentMetadata
import org.apache.spark.sql.types.{StructType, UserDefinedType}
import org.apache.spark.sql.types.DataType.equalsIgnoreCompatibleCollation

/** Scalar pandas and Arrow UDFs and Arrow-optimized Python UDFs with rowbridge on both sides of the
  * worker's stream (Spark 4.1): the UDFs' arguments go to the worker as Arrow IPC batches made
  * natively ([[ArrowRowsToPython]]) and the results come back through rowbridge's converter.
  * Spark's EvalPythonExec keeps the input rows and joins each with its results, as with Spark's
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

  private[this] val jobArtifactUUID = JobArtifactSet.getCurrentJobArtifactState.map(_.uuid)
  private[this] val sessionUUID = Option(session).collect {
    case session if session.sessionState.conf.pythonWorkerLoggingEnabled => session.sessionUUID
  }

  override protected def evaluatorFactory: EvalPythonEvaluatorFactory = {
    val input = RowbridgePython.inputSettings(conf, new StructType(), false)
    val results = RowbridgePython.rowSource(conf, resultAttrs, longMetric)
    val timeZone = conf.sessionLocalTimeZone
    val largeVarTypes = conf.arrowUseLargeVarTypes
    val runnerConf = ArrowPythonRunner.getPythonRunnerConfMap(conf)
    val artifacts = jobArtifactUUID
    val session = sessionUUID
    val metrics = pythonMetrics
    val kind = evalType
    val outputTypes = resultAttrs.map(_.dataType.transformRecursively {
      case udt: UserDefinedType[_] => udt.sqlType
    })
    new ArrowEvalPythonEvaluatorFactory(
      child.output,
      udfs,
      output,
      conf.arrowMaxRecordsPerBatch,
      evalType,
      timeZone,
      largeVarTypes,
      runnerConf,
      metrics,
      artifacts,
      session
    ) {
      override def evaluate(
          funcs: Seq[(ChainedPythonFunctions, Long)],
          argMetas: Array[Array[ArgumentMetadata]],
          iter: Iterator[InternalRow],
          schema: StructType,
          context: TaskContext
      ): Iterator[InternalRow] = {
        val toPython = input.forColumns(schema).open(iter.asJava)
        val runner = new ArrowPythonWithNamedArgumentRunner(
          funcs,
          kind,
          argMetas,
          schema,
          timeZone,
          largeVarTypes,
          runnerConf,
          metrics,
          artifacts,
          session
        ) with PythonRunners.RowbridgeArrowInput {
          override protected def rowbridgeInput: ArrowRowsToPython = toPython
        }
        val batches = runner
          .compute(Iterator(Iterator.empty), context.partitionId(), context)
          .map { batch =>
            val actual = (0 until batch.numCols()).map(i => batch.column(i).dataType())
            if (!equalsIgnoreCompatibleCollation(outputTypes, actual)) {
              throw QueryExecutionErrors.arrowDataTypeMismatchError(
                "pandas_udf()",
                outputTypes,
                actual
              )
            }
            batch
          }
        results.open(batches.asJava).asScala
      }
    }
  }

  override protected def withNewChildInternal(newChild: SparkPlan): SparkPlan =
    copy(child = newChild)
}
