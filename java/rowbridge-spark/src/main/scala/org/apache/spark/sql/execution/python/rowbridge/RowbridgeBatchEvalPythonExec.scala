// In Spark's package for the Spark-private API it uses: PythonEvalType and Utils (private[spark]).
package org.apache.spark.sql.execution.python.rowbridge

import java.io.File

import net.razorvine.pickle.Unpickler

import org.apache.spark.{ContextAwareIterator, SparkEnv, TaskContext}
import org.apache.spark.api.python.PythonEvalType
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{
  Attribute,
  AttributeSet,
  GenericInternalRow,
  JoinedRow,
  PythonUDF,
  UnsafeProjection,
  UnsafeRow
}
import org.apache.spark.sql.execution.{SparkPlan, UnaryExecNode}
import org.apache.spark.sql.execution.metric.SQLMetric
import org.apache.spark.sql.execution.python.{
  BatchEvalPythonExec,
  EvaluatePython,
  HybridRowQueue,
  PythonSQLMetrics
}
import org.apache.spark.sql.types.DataType
import org.apache.spark.util.Utils

/** Plain (pickled) Python UDFs, Spark's `BatchEvalPythonExec`, with rowbridge on both sides of the
  * worker's stream: the UDFs' arguments go to PySpark's worker as Arrow batches made by rowbridge's
  * decoder ([[io.rowbridge.spark.python.ArrowRowsToPython]]), a `mapInArrow` function of
  * rowbridge's runtime ([[PlainUdfs]]) calls the UDFs with the Python values the pickled path gives
  * them, and their results come back through rowbridge's converter. A result the runtime sends
  * pickled (one whose Java object Spark would convert, drop or fail on) is converted here with
  * Spark's own `Unpickler` and `EvaluatePython.makeFromJava`, as on the pickled path. The input
  * rows wait in Spark's `HybridRowQueue` and are joined with their results, as in Spark's
  * `EvalPythonExec`.
  */
case class RowbridgeBatchEvalPythonExec(
    udfs: Seq[PythonUDF],
    resultAttrs: Seq[Attribute],
    child: SparkPlan
) extends UnaryExecNode
    with PythonSQLMetrics {

  override def nodeName: String = "RowbridgeBatchEvalPython"

  override def output: Seq[Attribute] = child.output ++ resultAttrs

  override def producedAttributes: AttributeSet = AttributeSet(resultAttrs)

  override lazy val metrics: Map[String, SQLMetric] =
    pythonMetrics ++ RowbridgePython.outputMetrics(sparkContext)

  // Made on the driver, where the session and the job's artifacts are.
  @transient private lazy val plan = PlainUdfs.plan(udfs, conf)
  @transient private lazy val input = RowbridgePython.inputSettings(conf, plan.argumentSchema, true)
  @transient private lazy val python = new PythonRunners.PythonFunction(
    this,
    plan.function,
    PythonEvalType.SQL_MAP_ARROW_ITER_UDF,
    input.streamSchema(),
    plan.outputType.asNullable,
    pythonMetrics
  )

  override protected def doExecute(): RDD[InternalRow] = {
    val settings = input
    val runner = python
    val arguments = plan.arguments
    val streamAttributes = plan.streamAttributes
    val resultTypes = udfs.map(_.dataType)
    val rows = RowbridgePython.rowSource(conf, streamAttributes, longMetric)
    val childOutput = child.output
    val outputAttributes = output
    val received = longMetric("pythonNumRowsReceived")
    val joinedAttributes = childOutput ++ resultAttrs ++ streamAttributes.drop(resultAttrs.size)
    child.execute().mapPartitionsInternal { partition =>
      val context = TaskContext.get()
      val queue = HybridRowQueue(
        context.taskMemoryManager(),
        new File(Utils.getLocalDir(SparkEnv.get.conf)),
        childOutput.length
      )
      context.addTaskCompletionListener[Unit](_ => queue.close())
      val toUnsafe = UnsafeProjection.create(childOutput, childOutput)
      val project = UnsafeProjection.create(arguments, childOutput)
      val argumentRows = new ContextAwareIterator(context, partition).map { row =>
        val unsafe = row match {
          case unsafe: UnsafeRow => unsafe
          case other             => toUnsafe(other)
        }
        queue.add(unsafe)
        project(unsafe)
      }
      val batches = runner.compute(argumentRows, settings, context)
      val results = RowbridgePython.rowsOfStructBatches(batches, streamAttributes.size, rows)
      val pickled = new PickledResults(resultTypes)
      val joined = new JoinedRow
      val projectOutput = UnsafeProjection.create(outputAttributes, joinedAttributes)
      results.map { result =>
        received += 1
        projectOutput(joined(queue.remove(), pickled.resolve(result)))
      }
    }
  }

  override protected def withNewChildInternal(newChild: SparkPlan): RowbridgeBatchEvalPythonExec =
    copy(child = newChild)
}

/** The UDFs' results of one row: each UDF's value column, then its pickled column, which holds the
  * pickle of a result that Spark's `makeFromJava` converts, drops or fails on; that result is
  * converted here as Spark's pickled path converts it.
  */
private[rowbridge] final class PickledResults(types: Seq[DataType]) {
  EvaluatePython.registerPicklers()
  private val unpickler = new Unpickler
  private val fromJava = types.map(EvaluatePython.makeFromJava).toArray
  private val fieldTypes = types.toArray
  private val count = types.length

  def resolve(row: InternalRow): InternalRow = {
    var j = 0
    while (j < count) {
      if (!row.isNullAt(count + j)) return converted(row)
      j += 1
    }
    row
  }

  private def converted(row: InternalRow): InternalRow = {
    val out = new GenericInternalRow(2 * count)
    var j = 0
    while (j < count) {
      val value =
        if (!row.isNullAt(count + j)) fromJava(j)(unpickler.loads(row.getBinary(count + j)))
        else if (row.isNullAt(j)) null
        else row.get(j, fieldTypes(j))
      out.update(j, value)
      j += 1
    }
    out
  }
}

/** Spark's own `BatchEvalPythonExec`, left to Spark by rowbridge for the reason it shows in the
  * plan (`explain`).
  */
class SparkPickledEvalPythonExec(
    udfs: Seq[PythonUDF],
    resultAttrs: Seq[Attribute],
    child: SparkPlan,
    val reason: String
) extends BatchEvalPythonExec(udfs, resultAttrs, child) {

  override def nodeName: String = "BatchEvalPython"

  override def simpleString(maxFields: Int): String =
    super.simpleString(maxFields) + s" (Spark's pickled path: $reason)"

  override protected def otherCopyArgs: Seq[AnyRef] = Seq(reason)

  // Not equal to Spark's own node: a rule that replaces that node by this one must see a change.
  override def canEqual(that: Any): Boolean = that.isInstanceOf[SparkPickledEvalPythonExec]

  override def equals(that: Any): Boolean = that match {
    case other: SparkPickledEvalPythonExec => other.reason == reason && super.equals(other)
    case _                                 => false
  }

  override def hashCode(): Int = 31 * super.hashCode() + reason.hashCode

  override protected def withNewChildInternal(newChild: SparkPlan): BatchEvalPythonExec =
    new SparkPickledEvalPythonExec(udfs, resultAttrs, newChild, reason)
}
