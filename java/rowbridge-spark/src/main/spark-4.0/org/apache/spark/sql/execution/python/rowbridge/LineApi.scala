// In Spark's package for the Spark-private API it uses: BasePythonRunner and, through
// SparkPython.Funcs, ChainedPythonFunctions (private[spark]).
package org.apache.spark.sql.execution.python.rowbridge

import java.io.DataOutputStream

import org.apache.spark.sql.execution.python.rowbridge.PythonRunners.RunnerArgs
import org.apache.spark.sql.execution.python.rowbridge.SparkPython.Funcs
import org.apache.arrow.vector.ipc.ArrowStreamWriter

import org.apache.spark.api.python.BasePythonRunner
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.execution.python._
import org.apache.spark.sql.execution.python.EvalPythonExec.ArgumentMetadata
import org.apache.spark.sql.internal.SQLConf

/** Spark 4.0's runners: the profiler last, no session; no shared writer of sized batches. */
private[rowbridge] object LineApi {

  /** Spark 4.0's BatchedPythonArrowInput loop, on the rows rowbridge hands over. */
  trait BatchLoop extends BasicPythonArrowInput {
    self: BasePythonRunner[Iterator[InternalRow], _] =>
    protected def writeSparkBatch(writer: ArrowStreamWriter, rows: Iterator[InternalRow],
        dataOut: DataOutputStream): Unit = {
      val maxRows = SQLConf.get.arrowMaxRecordsPerBatch
      val maxBytes = SQLConf.get.arrowMaxBytesPerBatch
      def full = maxBytes != Int.MaxValue && arrowWriter.sizeInBytes() >= maxBytes
      var count = 0
      while (rows.hasNext && count < maxRows && !full) {
        arrowWriter.write(rows.next())
        count += 1
      }
      arrowWriter.finish()
      writer.writeBatch()
      arrowWriter.reset()
    }
  }

  class Runner(funcs: Funcs, offsets: Array[Array[Int]], a: RunnerArgs)
      extends ArrowPythonRunner(funcs, a.evalType, offsets, a.schema, a.timeZone, a.largeVarTypes,
        a.runnerConf, a.metrics, a.jobArtifactUUID, a.profiler)
      with BatchLoop

  class NamedArgRunner(funcs: Funcs, metas: Array[Array[ArgumentMetadata]], a: RunnerArgs)
      extends ArrowPythonWithNamedArgumentRunner(funcs, a.evalType, metas, a.schema, a.timeZone,
        a.largeVarTypes, a.runnerConf, a.metrics, a.jobArtifactUUID, a.profiler)
      with BatchLoop

  abstract class EvalFactory(e: EvalPythonExec, rows: Int, a: RunnerArgs)
      extends ArrowEvalPythonEvaluatorFactory(e.child.output, e.udfs, e.output, rows, a.evalType,
        a.timeZone, a.largeVarTypes, a.runnerConf, a.metrics, a.jobArtifactUUID, a.profiler)
}
