// In Spark's package for the Spark-private API it uses: PandasGroupUtils (private[python]).
package org.apache.spark.sql.execution.python.rowbridge

import scala.jdk.CollectionConverters._

import io.rowbridge.RowbridgeException
import io.rowbridge.spark.conf.RowbridgeConf
import io.rowbridge.spark.engine.EngineInput
import io.rowbridge.spark.python.PythonOperators
import io.rowbridge.spark.transition.{ReplaceColumnarToRow, RowbridgeColumnarToRowExec}

import org.apache.spark.SparkEnv
import org.apache.spark.internal.Logging
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.{Attribute, PythonUDF}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.{ColumnarToRowExec, SparkPlan}
import org.apache.spark.sql.catalyst.types.DataTypeUtils
import org.apache.spark.sql.execution.python.{
  ArrowEvalPythonExec,
  BatchEvalPythonExec,
  PandasGroupUtils
}
import org.apache.spark.sql.types.StructType

/** Replaces the JVM side of Spark's Arrow exchange with Python workers by rowbridge's while
  * [[RowbridgeConf.PYTHON_ENABLED]] is true (read per query): `mapInArrow` and `mapInPandas` become
  * [[RowbridgeMapInBatchExec]], scalar pandas and Arrow UDFs and Arrow-optimized Python UDFs
  * [[RowbridgeArrowEvalPythonExec]], plain (pickled) Python UDFs [[RowbridgeBatchEvalPythonExec]]
  * where the workers run rowbridge's Python modules ([[PlainUdfs]]; each UDF it cannot answer as
  * the pickled path does, and all of them without those modules, stay Spark's, named as such in the
  * plan by [[SparkPickledEvalPythonExec]]). An operator rowbridge cannot take as Spark runs it
  * keeps Spark's: batches of no row limit or of more than [[RowbridgePython.MaxRowsPerBatch]] rows,
  * and input columns of a type the native writer does not write (the reason is logged).
  *
  * Above a columnar to row transition whose batches rowbridge reads (its own over Arrow Java
  * vectors; another engine's, or Spark's above that engine's columnar plan, with an [[EngineInput]]
  * installed and [[RowbridgeConf.ENGINES_ENABLED]] true), `mapInArrow` and `mapInPandas` take the
  * transition's child and send its batches without making rows, unless the stream is compressed.
  */
case class ReplacePythonExchange(session: SparkSession) extends Rule[SparkPlan] with Logging {
  override def apply(plan: SparkPlan): SparkPlan = {
    val conf = session.sessionState.conf
    if (!RowbridgeConf.pythonEnabled(conf)) {
      plan
    } else {
      plan.transformUp {
        case eval: ArrowEvalPythonExec => replaceEval(eval).getOrElse(eval)
        case eval: BatchEvalPythonExec if !eval.isInstanceOf[SparkPickledEvalPythonExec] =>
          replaceBatchEval(eval)
        case parent =>
          val node = if (parent.supportsColumnar) parent else takeColumnarEvals(parent)
          PythonRunners
            .mapInBatch(node)
            .flatMap(replace)
            .orElse(PythonRunners.flatMapGroups(node).flatMap(replaceGroups))
            .getOrElse(node)
      }
    }
  }

  private def replace(map: PythonOperators.MapInBatch): Option[SparkPlan] =
    replacement(map.child.schema, true, map.func.prettyName) {
      // Above a transition whose batches rowbridge reads, they go to Python without becoming
      // rows (an uncompressed stream: Spark's codec is not applied to them).
      val columnarChild =
        if (
          RowbridgePython
            .inputSettings(session.sessionState.conf, map.child.schema, true)
            .compressed()
        ) None
        else columnarInput(map.child)
      RowbridgeMapInBatchExec(
        map.func,
        map.output,
        columnarChild.map(_._1).getOrElse(map.child),
        map.isBarrier,
        map.evalType,
        map.profile,
        columnarChild.isDefined,
        columnarChild.flatMap(_._2)
      )
    }

  /** The columnar plan under `child` whose batches go to Python, and the engine they are of (None
    * for Arrow Java's); None when `child` is not a transition whose batches rowbridge reads.
    */
  private def columnarInput(child: SparkPlan): Option[(SparkPlan, Option[String])] = {
    lazy val engines =
      if (RowbridgeConf.enginesEnabled(session.sessionState.conf)) EngineInput.installed().asScala
      else Nil
    child match {
      case RowbridgeColumnarToRowExec(batches, engine) => Some((batches, engine))
      case ColumnarToRowExec(batches)                  =>
        engines.find(_.feedsTransition(batches)).map(engine => (batches, Some(engine.name())))
      case transition if transition.children.size == 1 =>
        engines
          .find(_.isTransition(transition))
          .map(e => (transition.children.head, Some(e.name())))
      case _ => None
    }
  }

  private def replaceGroups(groups: PythonOperators.FlatMapGroups): Option[SparkPlan] = {
    val data = PandasGroupUtils.resolveArgOffsets(groups.child.output, groups.groupingAttributes)._1
    replacement(DataTypeUtils.fromAttributes(data), groups.inOneColumn, groups.func.prettyName) {
      RowbridgeFlatMapGroupsExec(
        groups.groupingAttributes,
        groups.func,
        groups.output,
        groups.child,
        groups.evalType,
        groups.inOneColumn
      )
    }
  }

  /** Spark 4.2's ArrowEvalPythonExec over a columnar child reads its batches itself, with no
    * transition under it (`spark.sql.execution.arrow.pythonUDF.columnarInput.enabled`); it is taken
    * where its parent reads rows ([[takeColumnarEvals]]), and otherwise stays Spark's.
    */
  private def replaceEval(eval: ArrowEvalPythonExec): Option[SparkPlan] =
    if (eval.supportsColumnar) None else evalOver(eval, eval.child)

  /** rowbridge's operator for `eval`'s UDFs over the rows of `input`, or None (logged). */
  private def evalOver(eval: ArrowEvalPythonExec, input: => SparkPlan): Option[SparkPlan] =
    replacement(RowbridgePython.argumentSchema(eval.udfs), false, eval.nodeName) {
      RowbridgeArrowEvalPythonExec(eval.udfs, eval.resultAttrs, input, eval.evalType)
    }

  /** `parent` (which reads its children's rows) with each Spark 4.2 ArrowEvalPythonExec among its
    * children that reads its own child's batches replaced by rowbridge's, over a transition to rows
    * (rowbridge's where [[ReplaceColumnarToRow]] places it). Measured on lineitem from
    * `format("rowbridge")`, this is faster than Spark 4.2's columnar input, which copies the rows
    * of batches whose vectors are reused (docs/BENCHMARKS.md, "Spark 4.2").
    */
  private def takeColumnarEvals(parent: SparkPlan): SparkPlan = {
    val children = parent.children.map {
      case eval: ArrowEvalPythonExec if eval.supportsColumnar =>
        evalOver(eval, ReplaceColumnarToRow(session)(ColumnarToRowExec(eval.child))).getOrElse(eval)
      case child => child
    }
    if (children.corresponds(parent.children)(_ eq _)) parent else parent.withNewChildren(children)
  }

  /** Plain UDFs: rowbridge's operator for those it can answer as Spark's pickled path does, over
    * Spark's (annotated with the reason) for the others.
    */
  private def replaceBatchEval(eval: BatchEvalPythonExec): SparkPlan = {
    def spark(udfs: Seq[(PythonUDF, Attribute)], child: SparkPlan, reason: String) =
      new SparkPickledEvalPythonExec(udfs.map(_._1), udfs.map(_._2), child, reason)
    val all = eval.udfs.zip(eval.resultAttrs)
    PlainUdfs.runtimeMissing(SparkEnv.get.conf) match {
      case Some(reason) => spark(all, eval.child, reason)
      case None         =>
        val (ours, theirs) = all.partition { case (udf, _) => PlainUdfs.unsupported(udf).isEmpty }
        val taken =
          if (ours.isEmpty) None
          else
            replacement(RowbridgePython.argumentSchema(ours.map(_._1)), true, eval.nodeName) {
              RowbridgeBatchEvalPythonExec(ours.map(_._1), ours.map(_._2), eval.child)
            }
        taken match {
          case None => spark(all, eval.child, "rowbridge cannot take these UDFs (logged)")
          case Some(node) if theirs.isEmpty => node
          case Some(node)                   =>
            val reasons = theirs.flatMap { case (udf, _) => PlainUdfs.unsupported(udf) }
            spark(theirs, node, reasons.mkString("; "))
        }
    }
  }

  /** `node`, or None when rowbridge cannot send rows of `schema` as Spark does (logged). */
  private def replacement(schema: StructType, inOneColumn: Boolean, what: String)(
      node: => SparkPlan
  ): Option[SparkPlan] = {
    val conf = session.sessionState.conf
    val rows = conf.arrowMaxRecordsPerBatch
    if (rows <= 0 || rows > RowbridgePython.MaxRowsPerBatch) {
      logInfo(
        s"rowbridge: Spark runs $what: spark.sql.execution.arrow.maxRecordsPerBatch is " +
          s"$rows (rowbridge takes 1 to ${RowbridgePython.MaxRowsPerBatch})"
      )
      None
    } else {
      try {
        RowbridgePython.inputSettings(conf, schema, inOneColumn).check()
        Some(node)
      } catch {
        case e: RowbridgeException =>
          logInfo(s"rowbridge: Spark runs $what: ${e.getMessage}")
          None
      }
    }
  }
}
