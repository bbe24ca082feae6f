package org.apache.spark.sql.rowbridge.frames

import org.apache.spark.rdd.RDD
import org.apache.spark.sql.{classic, DataFrame, SparkSession}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.types.StructType

/** How a DataFrame is made from rows or a logical plan on Spark 4.1 (the classic session's). */
private[frames] object FramesShim {
  def createDataFrame(
      session: SparkSession,
      rows: RDD[InternalRow],
      schema: StructType
  ): DataFrame =
    session.asInstanceOf[classic.SparkSession].internalCreateDataFrame(rows, schema)

  def ofRows(session: SparkSession, plan: LogicalPlan): DataFrame =
    classic.Dataset.ofRows(session.asInstanceOf[classic.SparkSession], plan)
}
