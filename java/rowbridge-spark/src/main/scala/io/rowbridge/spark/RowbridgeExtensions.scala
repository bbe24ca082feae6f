package io.rowbridge.spark

import io.rowbridge.spark.arrow.ReplaceRowToColumnar
import io.rowbridge.spark.python.ProtectReusedPythonInput
import io.rowbridge.spark.transition.ReplaceColumnarToRow

import org.apache.spark.sql.{SparkSession, SparkSessionExtensions}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.{ColumnarRule, SparkPlan}
import org.apache.spark.sql.execution.python.rowbridge.ReplacePythonExchange

/** The session extension: `spark.sql.extensions=io.rowbridge.spark.RowbridgeExtensions`. Its
  * columnar rule replaces Spark's ColumnarToRowExec with [[RowbridgeColumnarToRowExec]] above the
  * allow-listed scans ([[RowbridgeConf.SCANS]]) while [[RowbridgeConf.ENABLED]] is true; when
  * [[RowbridgeConf.ROW_TO_COLUMNAR_ENABLED]] is, Spark's RowToColumnarExec with [[RowToArrowExec]];
  * and while [[RowbridgeConf.PYTHON_ENABLED]] is, the JVM side of the Arrow exchange with Python
  * workers ([[ReplacePythonExchange]]). Always, Spark 4.2's columnar input to Arrow UDFs copies the
  * rows of the batches rowbridge reuses ([[ProtectReusedPythonInput]]).
  */
class RowbridgeExtensions extends (SparkSessionExtensions => Unit) {
  override def apply(extensions: SparkSessionExtensions): Unit = {
    extensions.injectColumnar(session => RowbridgeColumnarRule(session))
  }
}

case class RowbridgeColumnarRule(session: SparkSession) extends ColumnarRule {
  override def postColumnarTransitions: Rule[SparkPlan] = plan =>
    ProtectReusedPythonInput(
      ReplacePythonExchange(session)(
        ReplaceRowToColumnar(session)(ReplaceColumnarToRow(session)(plan))
      )
    )
}
