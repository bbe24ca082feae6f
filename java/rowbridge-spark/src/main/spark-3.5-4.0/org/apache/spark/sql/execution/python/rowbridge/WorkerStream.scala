// In Spark's package, though it names no Spark-private API itself: it stands for the 4.1+
// WorkerStream, which needs BasePythonRunner, PythonEvalType and Utils (private[spark]) and
// QueryExecutionErrors (private[sql]), and is private to this package.
package org.apache.spark.sql.execution.python.rowbridge

import io.rowbridge.spark.python.ArrowRowsToPython

import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.DataType

/** The stream to a Python worker before Spark 4.1: uncompressed, each group one batch whatever its
  * size, no session for the worker's logs, and the UDFs' results checked by an assertion.
  */
private[rowbridge] object WorkerStream {

  val groupsHaveByteLimit: Boolean = false
  def codec(conf: SQLConf): (String, Int) = ("none", 0)
  def sessionUUID(plan: SparkPlan): Option[String] = None

  /** These lines have no setting to check a map worker's batch type. */
  def mapOutputCheck(conf: SQLConf, evalType: Int, out: DataType): Option[DataType => Unit] = None

  def evalResultCheck(expected: Seq[DataType]): Seq[DataType] => Unit = actual => {
    def types(all: Seq[DataType]) = all.mkString(", ")
    assert(SparkPython.sameTypes(expected, actual),
      s"Invalid schema from pandas_udf: expected ${types(expected)}, got ${types(actual)}")
  }

  val groupFraming: ArrowRowsToPython.Framing = ArrowRowsToPython.Framing.BATCH_PER_GROUP

  /** Groups go to the worker as the map operators' batches do, a batch each. */
  type GroupedInput = SparkPython.RowbridgeArrowInput
}
