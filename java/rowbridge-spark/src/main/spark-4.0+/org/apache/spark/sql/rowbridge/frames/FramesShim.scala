// In Spark's package for the Spark-private API it uses: classic.Dataset.ofRows (private[sql]).
package org.apache.spark.sql.rowbridge.frames

import org.apache.spark.sql.{classic, DataFrame, SparkSession}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/** How a DataFrame is made from a logical plan from Spark 4.0 on (the classic session's). */
private[frames] object FramesShim {
  def ofRows(session: SparkSession, plan: LogicalPlan): DataFrame =
    classic.Dataset.ofRows(session.asInstanceOf[classic.SparkSession], plan)
}
