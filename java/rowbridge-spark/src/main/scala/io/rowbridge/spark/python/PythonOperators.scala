package io.rowbridge.spark.python

import org.apache.spark.resource.ResourceProfile
import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression, PythonUDF}
import org.apache.spark.sql.execution.SparkPlan

/** The fields of Spark's Python operators that rowbridge replaces, whatever the Spark line
  * (`org.apache.spark.sql.execution.python.rowbridge.PythonRunners` reads them from that line's
  * classes).
  */
object PythonOperators {

  /** `mapInArrow` and `mapInPandas`; no resource profile on Spark 3.5. */
  case class MapInBatch(
      func: Expression,
      output: Seq[Attribute],
      child: SparkPlan,
      isBarrier: Boolean,
      evalType: Int,
      profile: Option[ResourceProfile]
  )

  object MapInBatch {

    /** The node's fields, with the evaluation type of its UDF. */
    def of(
        func: Expression,
        output: Seq[Attribute],
        child: SparkPlan,
        isBarrier: Boolean,
        profile: Option[ResourceProfile]
    ): Option[MapInBatch] = {
      val evalType = func.asInstanceOf[PythonUDF].evalType
      Some(MapInBatch(func, output, child, isBarrier, evalType, profile))
    }
  }

  /** `applyInPandas`, and `applyInArrow` (its rows in one struct column) from Spark 4.0 on. */
  case class FlatMapGroups(
      groupingAttributes: Seq[Attribute],
      func: Expression,
      output: Seq[Attribute],
      child: SparkPlan,
      evalType: Int,
      inOneColumn: Boolean
  )

  object FlatMapGroups {

    /** The node's fields, with the evaluation type of its UDF. */
    def of(
        grouping: Seq[Attribute],
        func: Expression,
        output: Seq[Attribute],
        child: SparkPlan,
        inOneColumn: Boolean
    ): Option[FlatMapGroups] = {
      val evalType = func.asInstanceOf[PythonUDF].evalType
      Some(FlatMapGroups(grouping, func, output, child, evalType, inOneColumn))
    }
  }
}
