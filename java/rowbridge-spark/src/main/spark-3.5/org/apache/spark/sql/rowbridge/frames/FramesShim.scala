package org.apache.spark.sql.rowbridge.frames

import org.apache.spark.rdd.RDD
import org.apache.spark.sql.{DataFrame, Dataset, SparkSession}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.types.StructType

/** How a DataFrame is made from rows or a logical plan on Spark 3.5 (the session's own). */
private[frames] object FramesShim {
  def createDataFrame(
      session: SparkSession,
      rows: RDD[InternalRow],
      schema: StructType
  ): DataFrame =
    session.internalCreateDataFrame(rows, schema)

  def ofRows(session: SparkSession, plan: LogicalPlan): DataFrame = Dataset.ofRows(session, plan)
}
