package org.apache.spark.sql.execution.python.rowbridge

import io.rowbridge.RowbridgeException
import io.rowbridge.spark.{RowbridgeColumnarToRowExec, RowbridgeConf}

import org.apache.spark.internal.Logging
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.catalyst.types.DataTypeUtils
import org.apache.spark.sql.execution.python.{ArrowEvalPythonExec, PandasGroupUtils}
import org.apache.spark.sql.types.StructType

/** Replaces the JVM side of Spark's Arrow exchange with Python workers by rowbridge's while
  * [[RowbridgeConf.PYTHON_ENABLED]] is true (read per query): `mapInArrow` and `mapInPandas` become
  * [[RowbridgeMapInBatchExec]], scalar pandas and Arrow UDFs and Arrow-optimized Python UDFs
  * [[RowbridgeArrowEvalPythonExec]]. An operator rowbridge cannot take as Spark runs it keeps
  * Spark's: batches of no row limit or of more than [[RowbridgePython.MaxRowsPerBatch]] rows, and
  * input columns of a type the native writer does not write (the reason is logged).
  */
case class ReplacePythonExchange(session: SparkSession) extends Rule[SparkPlan] with Logging {
  override def apply(plan: SparkPlan): SparkPlan = {
    val conf = session.sessionState.conf
    if (!RowbridgeConf.pythonEnabled(conf)) {
      plan
    } else {
      plan.transformUp {
        case eval: ArrowEvalPythonExec => replaceEval(eval).getOrElse(eval)
        case node                      =>
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
      // Above rowbridge's transition, the batches under it go to Python without becoming rows
      // (an uncompressed stream: Spark's codec is not applied to them).
      val columnarChild = map.child match {
        case RowbridgeColumnarToRowExec(batches, null)
            if !RowbridgePython
              .inputSettings(session.sessionState.conf, map.child.schema, true)
              .compressed() =>
          Some(batches)
        case _ => None
      }
      RowbridgeMapInBatchExec(
        map.func,
        map.output,
        columnarChild.getOrElse(map.child),
        map.isBarrier,
        map.evalType,
        map.profile,
        columnarChild.isDefined
      )
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

  private def replaceEval(eval: ArrowEvalPythonExec): Option[SparkPlan] =
    replacement(RowbridgePython.argumentSchema(eval.udfs), false, eval.nodeName) {
      RowbridgeArrowEvalPythonExec(eval.udfs, eval.resultAttrs, eval.child, eval.evalType)
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
