// In Spark's package for the Spark-private API it uses: Dataset.ofRows (private[sql]).
package org.apache.spark.sql.connect.rowbridge

import org.apache.spark.sql.{DataFrame, Dataset, SparkSession}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/** How a Connect session's plan becomes a DataFrame on Spark 3.5 (the session's own). */
private[rowbridge] object ConnectDatasets {
  def ofRows(session: SparkSession, plan: LogicalPlan): DataFrame = Dataset.ofRows(session, plan)
}
