// In Spark's package for the Spark-private API it uses: classic.Dataset.ofRows (private[sql]).
package org.apache.spark.sql.connect.rowbridge

import org.apache.spark.sql.{classic, Row}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/** How a Connect session's plan becomes a DataFrame from Spark 4.0 on (the classic session's). */
private[rowbridge] object ConnectDatasets {
  def ofRows(session: classic.SparkSession, plan: LogicalPlan): classic.Dataset[Row] =
    classic.Dataset.ofRows(session, plan)
}
