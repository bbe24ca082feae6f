// In Spark's package for the Spark-private API it uses: ChainedPythonFunctions, through
// SparkPython.Funcs, in the runners' constructors (private[spark]).
package org.apache.spark.sql.execution.python.rowbridge

import java.io.DataOutputStream

import org.apache.spark.sql.execution.python.rowbridge.PythonRunners.RunnerArgs
import org.apache.spark.sql.execution.python.rowbridge.SparkPython.Funcs
import org.apache.spark.sql.execution.python.rowbridge.WorkerStream.SizedBatches

import org.apache.spark.sql.execution.python._
import org.apache.spark.sql.execution.python.EvalPythonExec.ArgumentMetadata

/** Spark 4.2's runners: the session last (4.1's profiler argument is gone); the worker's command is
  * the UDF alone (4.1's metadata before it is gone too).
  */
private[rowbridge] object LineApi {

  abstract class EvalFactory(e: EvalPythonExec, rows: Int, a: RunnerArgs)
      extends ArrowEvalPythonEvaluatorFactory(e.child.output, e.udfs, e.output, rows, a.evalType,
        a.timeZone, a.largeVarTypes, a.runnerConf, a.metrics, a.jobArtifactUUID, a.sessionUUID)

  class NamedArgRunner(funcs: Funcs, metas: Array[Array[ArgumentMetadata]], a: RunnerArgs)
      extends ArrowPythonWithNamedArgumentRunner(funcs, a.evalType, metas, a.schema, a.timeZone,
        a.largeVarTypes, a.runnerConf, a.metrics, a.jobArtifactUUID, a.sessionUUID)
      with SizedBatches

  class Runner(funcs: Funcs, offsets: Array[Array[Int]], a: RunnerArgs)
      extends ArrowPythonRunner(funcs, a.evalType, offsets, a.schema, a.timeZone, a.largeVarTypes,
        a.runnerConf, a.metrics, a.jobArtifactUUID, a.sessionUUID)
      with SizedBatches {
    protected def writeRunnerCommand(dataOut: DataOutputStream): Unit = writeUDF(dataOut)
  }
}
