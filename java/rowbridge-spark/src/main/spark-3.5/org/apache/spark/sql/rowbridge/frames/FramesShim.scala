// In Spark's package for the Spark-private API it uses: Dataset.ofRows (private[sql]).
package org.apache.spark.sql.rowbridge.frames

import org.apache.spark.sql.{DataFrame, Dataset, SparkSession}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/** How a DataFrame is made from a logical plan on Spark 3.5 (the session's own). */
private[frames] object FramesShim {
  def ofRows(session: SparkSession, plan: LogicalPlan): DataFrame = Dataset.ofRows(session, plan)
}
