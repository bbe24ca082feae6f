// In Spark's package for the Spark-private API it uses: ChainedPythonFunctions, through
// SparkPython.Funcs, in the runners' constructors (private[spark]).
package org.apache.spark.sql.execution.python.rowbridge

import java.io.DataOutputStream

import org.apache.spark.sql.execution.python.rowbridge.PythonRunners.RunnerArgs
import org.apache.spark.sql.execution.python.rowbridge.SparkPython.Funcs
import org.apache.spark.sql.execution.python.rowbridge.WorkerStream.SizedBatches

import org.apache.spark.sql.execution.python._
import org.apache.spark.sql.execution.python.EvalPythonExec.ArgumentMetadata

/** Spark 4.1's runners: the session and the profiler last; the worker's command starts with the
  * runner's metadata.
  */
private[rowbridge] object LineApi {

  class Runner(funcs: Funcs, offsets: Array[Array[Int]], a: RunnerArgs)
      extends ArrowPythonRunner(funcs, a.evalType, offsets, a.schema, a.timeZone, a.largeVarTypes,
        a.runnerConf, a.metrics, a.jobArtifactUUID, a.sessionUUID, a.profiler)
      with SizedBatches {
    protected def writeRunnerCommand(dataOut: DataOutputStream): Unit = {
      handleMetadataBeforeExec(dataOut)
      writeUDF(dataOut)
    }
  }

  class NamedArgRunner(funcs: Funcs, metas: Array[Array[ArgumentMetadata]], a: RunnerArgs)
      extends ArrowPythonWithNamedArgumentRunner(funcs, a.evalType, metas, a.schema, a.timeZone,
        a.largeVarTypes, a.runnerConf, a.metrics, a.jobArtifactUUID, a.sessionUUID, a.profiler)
      with SizedBatches

  abstract class EvalFactory(e: EvalPythonExec, rows: Int, a: RunnerArgs)
      extends ArrowEvalPythonEvaluatorFactory(e.child.output, e.udfs, e.output, rows, a.evalType,
        a.timeZone, a.largeVarTypes, a.runnerConf, a.metrics, a.jobArtifactUUID, a.sessionUUID,
        a.profiler)
}
