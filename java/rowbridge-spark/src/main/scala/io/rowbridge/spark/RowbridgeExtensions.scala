package io.rowbridge.spark

import io.rowbridge.spark.arrow.ReplaceRowToColumnar
import io.rowbridge.spark.python.ProtectReusedPythonInput
import io.rowbridge.spark.transition.ReplaceColumnarToRow

import org.apache.spark.sql.{SparkSession, SparkSessionExtensions}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.{ColumnarRule, SparkPlan}
import org.apache.spark.sql.execution.python.rowbridge.ReplacePythonExchange

/** The session extension: `spark.sql.extensions=io.rowbridge.spark.RowbridgeExtensions` (a name
  * users set, so it stays in this package). Its columnar rule chains each concern's rule, each in
  * its own package: the transition's ([[transition.ReplaceColumnarToRow]]: rowbridge's
  * ColumnarToRow above the allow-listed scans while `spark.rowbridge.columnarToRow.enabled`), rows
  * to Arrow ([[arrow.ReplaceRowToColumnar]]: RowToArrowExec in place of RowToColumnarExec when
  * enabled), and the Python exchange's
  * ([[org.apache.spark.sql.execution.python.rowbridge.ReplacePythonExchange]], while
  * `spark.rowbridge.python.enabled`). Always, Spark 4.2's columnar input to Arrow UDFs copies the
  * rows of the batches rowbridge reuses ([[python.ProtectReusedPythonInput]]).
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
