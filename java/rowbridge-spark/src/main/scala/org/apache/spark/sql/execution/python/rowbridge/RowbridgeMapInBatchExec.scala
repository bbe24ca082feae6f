// In Spark's package for the Spark-private API it uses: PythonEvalType (private[spark]).
package org.apache.spark.sql.execution.python.rowbridge

import scala.jdk.CollectionConverters._

import io.rowbridge.spark.conf.RowbridgeConf
import io.rowbridge.spark.engine.EngineInput
import io.rowbridge.spark.python.{ArrowBatchesToPython, ArrowRowsToPython, PythonInput}
import io.rowbridge.spark.transition.BatchRowSource

import org.apache.spark.{SparkContext, TaskContext}
import org.apache.spark.api.python.PythonEvalType
import org.apache.spark.rdd.RDD
import org.apache.spark.resource.ResourceProfile
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, AttributeSet, Expression, PythonUDF}
import org.apache.spark.sql.catalyst.plans.physical.Partitioning
import org.apache.spark.sql.catalyst.types.DataTypeUtils
import org.apache.spark.sql.execution.{SparkPlan, UnaryExecNode}
import org.apache.spark.sql.execution.metric.{SQLMetric, SQLMetrics}
import org.apache.spark.sql.execution.python.PythonSQLMetrics
import org.apache.spark.sql.types.{StructField, StructType}
import org.apache.spark.sql.vectorized.{ArrowColumnVector, ColumnVector, ColumnarBatch}

/** `mapInArrow` and `mapInPandas` with rowbridge on both sides of the Python worker's stream: the
  * child's rows become Arrow IPC record batches natively ([[ArrowRowsToPython]], one struct column
  * as Spark sends them), or, with `columnarInput`, the columnar child's Arrow-backed batches are
  * sent without becoming rows ([[io.rowbridge.spark.python.ArrowBatchesToPython]]; with an `engine`
  * named, they are that engine's, read by its [[io.rowbridge.spark.engine.EngineInput]]), and the
  * worker's batches become UnsafeRows through rowbridge's converter ([[BatchRowSource]]). PySpark's
  * worker, the protocol and the user's function are Spark's own, and so are the batch boundaries,
  * the schema check of the worker's batches and the errors.
  */
case class RowbridgeMapInBatchExec(
    func: Expression,
    output: Seq[Attribute],
    child: SparkPlan,
    isBarrier: Boolean,
    evalType: Int,
    profile: Option[ResourceProfile],
    columnarInput: Boolean = false,
    engine: Option[String] = None
) extends UnaryExecNode
    with PythonSQLMetrics {

  override def nodeName: String =
    if (evalType == PythonEvalType.SQL_MAP_ARROW_ITER_UDF) "RowbridgeMapInArrow"
    else "RowbridgeMapInPandas"

  override def simpleString(maxFields: Int): String =
    super.simpleString(maxFields) + (
      if (!columnarInput) ""
      else engine.fold(" (columnar input)")(name => s" (columnar input from $name)")
    )

  override def producedAttributes: AttributeSet = AttributeSet(output)

  override def outputPartitioning: Partitioning = child.outputPartitioning

  override lazy val metrics: Map[String, SQLMetric] =
    pythonMetrics ++ RowbridgePython.outputMetrics(sparkContext) ++ (
      if (!columnarInput) Map.empty
      else
        Map(
          "numBatchesWithoutRows" -> SQLMetrics
            .createMetric(sparkContext, "batches to Python from columnar input"),
          "numInputRowsConverted" -> SQLMetrics
            .createMetric(sparkContext, "rows of columnar input converted for Python"),
          "numInputBatchesConverted" -> SQLMetrics
            .createMetric(sparkContext, "columnar input batches converted for Python"),
          "numInputSparkBatches" -> SQLMetrics
            .createMetric(sparkContext, "columnar input batches converted by Spark"),
          "inputConvertTime" -> SQLMetrics.createNanoTimingMetric(
            sparkContext,
            "time converting columnar input to rows"
          )
        )
    )

  // Made on the driver, where the session and the job's artifacts are.
  @transient private lazy val input = RowbridgePython.inputSettings(conf, child.schema, true)
  @transient private lazy val python = new PythonRunners.PythonFunction(
    this,
    func,
    evalType,
    input.streamSchema(),
    func.dataType,
    pythonMetrics
  )

  override protected def doExecute(): RDD[InternalRow] = {
    val settings = input
    val runner = python
    val rows = RowbridgePython.rowSource(conf, output, longMetric)
    val columns = output.size
    val rdd = if (columnarInput) {
      // The child's Arrow-backed batches go to Python as they are; the rows of any other batch
      // come from rowbridge's converter, as its transition would have made them.
      val inputRows = new BatchRowSource(
        DataTypeUtils.fromAttributes(child.output),
        RowbridgeConf.maxChunkBytes(conf),
        RowbridgeConf.validation(conf),
        longMetric("numInputRowsConverted"),
        longMetric("numInputBatchesConverted"),
        longMetric("numInputSparkBatches"),
        longMetric("inputConvertTime"),
        engine.orNull
      )
      val sent = longMetric("numBatchesWithoutRows")
      val inputEngine = engine
      val evaluate = (partition: Iterator[ColumnarBatch]) => {
        val rowsOf = (batches: Iterator[ColumnarBatch]) => inputRows.open(batches.asJava).asScala
        val batches =
          runner.computeBatches(partition, rowsOf, settings, sent, inputEngine, TaskContext.get())
        RowbridgePython.rowsOfStructBatches(batches, columns, rows)
      }
      if (isBarrier) child.executeColumnar().barrier().mapPartitions(evaluate)
      else child.executeColumnar().mapPartitionsInternal(evaluate)
    } else {
      val evaluate = (partition: Iterator[InternalRow]) => {
        val batches = runner.compute(partition, settings, TaskContext.get())
        RowbridgePython.rowsOfStructBatches(batches, columns, rows)
      }
      if (isBarrier) child.execute().barrier().mapPartitions(evaluate)
      else child.execute().mapPartitionsInternal(evaluate)
    }
    profile.map(rdd.withResources).getOrElse(rdd)
  }

  override protected def withNewChildInternal(newChild: SparkPlan): RowbridgeMapInBatchExec =
    copy(child = newChild)
}

/** What rowbridge's Python operators share. */
private[rowbridge] object RowbridgePython {

  /** Rows per batch beyond which rowbridge leaves the operator to Spark (its staging is sized by
    * them).
    */
  val MaxRowsPerBatch: Int = 1 << 22

  /** The settings of the stream of `schema`'s rows to a Python worker under `conf`; `byteLimit`:
    * whether Spark cuts those batches at spark.sql.execution.arrow.maxBytesPerBatch too.
    */
  def inputSettings(
      conf: org.apache.spark.sql.internal.SQLConf,
      schema: StructType,
      inOneColumn: Boolean,
      byteLimit: Boolean = true
  ): ArrowRowsToPython.Settings = {
    val (codec, level) = PythonRunners.codec(conf)
    new ArrowRowsToPython.Settings(
      schema,
      inOneColumn,
      conf.sessionLocalTimeZone,
      conf.arrowUseLargeVarTypes,
      conf.arrowMaxRecordsPerBatch,
      if (byteLimit) PythonRunners.maxArrowBytes(conf) else Long.MaxValue,
      codec,
      level,
      PythonRunners.closesAtTaskEnd
    )
  }

  /** The metrics of [[rowSource]]. */
  def outputMetrics(sparkContext: SparkContext): Map[String, SQLMetric] = Map(
    "numOutputRows" -> SQLMetrics.createMetric(sparkContext, "rows from Python"),
    "numInputBatches" -> SQLMetrics.createMetric(sparkContext, "batches from Python"),
    "numSparkBatches" -> SQLMetrics
      .createMetric(sparkContext, "batches from Python converted by Spark"),
    "convertTime" -> SQLMetrics.createNanoTimingMetric(
      sparkContext,
      "time converting batches from Python to rows"
    )
  )

  /** The schema of the arguments `udfs` send to the worker (before Spark drops repeated ones). */
  def argumentSchema(udfs: Seq[PythonUDF]): StructType = {
    def arguments(udf: PythonUDF): Seq[Expression] = udf.children match {
      case Seq(inner: PythonUDF) => arguments(inner)
      case children              => children
    }
    StructType(udfs.flatMap(arguments).zipWithIndex.map { case (argument, i) =>
      StructField(s"_$i", argument.dataType)
    })
  }

  /** The rows of the worker's batches, through rowbridge's converter. */
  def rowSource(
      conf: org.apache.spark.sql.internal.SQLConf,
      output: Seq[Attribute],
      metric: String => SQLMetric
  ): BatchRowSource =
    new BatchRowSource(
      DataTypeUtils.fromAttributes(output),
      RowbridgeConf.maxChunkBytes(conf),
      RowbridgeConf.validation(conf),
      metric("numOutputRows"),
      metric("numInputBatches"),
      metric("numSparkBatches"),
      metric("convertTime"),
      null
    )

  /** The rows of the worker's batches of one struct column, whose fields are the `columns` output
    * columns.
    */
  def rowsOfStructBatches(
      batches: Iterator[ColumnarBatch],
      columns: Int,
      rows: BatchRowSource
  ): Iterator[InternalRow] = {
    val flat = batches.map { batch =>
      val struct = batch.column(0).asInstanceOf[ArrowColumnVector]
      val fields = new ColumnarBatch(Array.tabulate[ColumnVector](columns)(struct.getChild))
      fields.setNumRows(batch.numRows())
      fields
    }
    rows.open(flat.asJava).asScala
  }

  /** The input of the child's Arrow-backed `batches` (the named `engine`'s, or Arrow Java's without
    * one) to a worker; the rows of those that do not fit the stream's schema come from `rowsOf`,
    * and `sent` counts the batches sent without rows.
    */
  def batchesToPython(
      batches: Iterator[ColumnarBatch],
      rowsOf: Iterator[ColumnarBatch] => Iterator[InternalRow],
      input: ArrowRowsToPython.Settings,
      sent: SQLMetric,
      engine: Option[String]
  ): PythonInput =
    new ArrowBatchesToPython(
      input,
      batches.asJava,
      rest => rowsOf(rest.asScala).asJava,
      count => sent += count,
      engine.map { name =>
        Option(EngineInput.named(name)).getOrElse(
          throw new IllegalStateException(s"rowbridge: no engine input named $name is installed")
        )
      }.orNull
    )

  /** The rows `input` left to Spark's writer, as that writer takes them. */
  def handedOverRows(input: PythonInput): Iterator[InternalRow] =
    asSparkWrites(input, input.remainingRows().asScala)

  /** The groups `input` left to Spark's writer, as that writer takes them. */
  def handedOverGroups(input: ArrowRowsToPython): Iterator[Iterator[InternalRow]] =
    input.remainingGroups().asScala.map(group => asSparkWrites(input, group.asScala))

  private def asSparkWrites(input: PythonInput, rows: Iterator[InternalRow]) =
    if (input.inOneColumn()) rows.map(row => InternalRow(row)) else rows
}
