package io.rowbridge.spark

import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.types.DataTypeUtils
import org.apache.spark.sql.types.StructType

/** The Spark-version-specific calls of this module, in one place (Spark 4.1). */
private[spark] object SparkShims {
  def schemaOf(attributes: Seq[Attribute]): StructType = DataTypeUtils.fromAttributes(attributes)
}
