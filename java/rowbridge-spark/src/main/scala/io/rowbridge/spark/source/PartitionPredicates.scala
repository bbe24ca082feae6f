package io.rowbridge.spark.source

import scala.util.control.NonFatal

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.util.TypeUtils
import org.apache.spark.sql.connector.expressions.{Expression, Literal, NamedReference}
import org.apache.spark.sql.connector.expressions.filter.Predicate
import org.apache.spark.sql.types.{DataType, StructType}

/** Runtime filters (DataSource V2 predicates on partition columns, such as dynamic partition
  * pruning's IN lists) evaluated against one partition directory's values, with SQL's null
  * semantics. A predicate of a form not known here keeps the partition: pruning is an optimisation,
  * and Spark still applies the filter to the rows.
  */
private[source] object PartitionPredicates {
  private final class Unknown extends RuntimeException(null, null, false, false)

  /** False only when `predicate` is false or null for these partition values. */
  def accepts(predicate: Predicate, values: InternalRow, schema: StructType): Boolean = {
    try {
      evaluate(predicate, values, schema) == true
    } catch {
      case _: Unknown  => true
      case NonFatal(_) => true
    }
  }

  /** The value of `e`: a catalyst value, a Boolean for a predicate, null for SQL's null. */
  private def evaluate(e: Expression, values: InternalRow, schema: StructType): Any = e match {
    case reference: NamedReference =>
      val index = indexOf(reference, schema)
      if (values.isNullAt(index)) null else values.get(index, schema(index).dataType)
    case literal: Literal[_]  => literal.value()
    case predicate: Predicate =>
      def arg(i: Int): Any = evaluate(predicate.children()(i), values, schema)
      lazy val argType = typeOf(predicate.children()(0), schema)
      predicate.name() match {
        case "ALWAYS_TRUE"  => true
        case "ALWAYS_FALSE" => false
        case "IS_NULL"      => arg(0) == null
        case "IS_NOT_NULL"  => arg(0) != null
        case "NOT"          =>
          arg(0) match {
            case null       => null
            case b: Boolean => !b
            case _          => throw new Unknown
          }
        case "AND" =>
          (arg(0), arg(1)) match {
            case (false, _) | (_, false) => false
            case (true, true)            => true
            case _                       => null
          }
        case "OR" =>
          (arg(0), arg(1)) match {
            case (true, _) | (_, true) => true
            case (false, false)        => false
            case _                     => null
          }
        case "IN" =>
          val value = arg(0)
          if (value == null) {
            null
          } else {
            val candidates = (1 until predicate.children().length).map(arg)
            if (candidates.exists(c => c != null && compare(argType, value, c) == 0)) true
            else if (candidates.contains(null)) null
            else false
          }
        case "<=>" =>
          (arg(0), arg(1)) match {
            case (null, null)          => true
            case (null, _) | (_, null) => false
            case (a, b)                => compare(argType, a, b) == 0
          }
        case name @ ("=" | "<>" | "<" | "<=" | ">" | ">=") =>
          (arg(0), arg(1)) match {
            case (null, _) | (_, null) => null
            case (a, b)                =>
              val order = compare(argType, a, b)
              name match {
                case "="  => order == 0
                case "<>" => order != 0
                case "<"  => order < 0
                case "<=" => order <= 0
                case ">"  => order > 0
                case _    => order >= 0
              }
          }
        case _ => throw new Unknown
      }
    case _ => throw new Unknown
  }

  private def indexOf(reference: NamedReference, schema: StructType): Int = {
    val names = reference.fieldNames()
    if (names.length != 1) throw new Unknown
    val index = schema.fieldNames.indexOf(names(0))
    if (index < 0) throw new Unknown
    index
  }

  private def typeOf(e: Expression, schema: StructType): DataType = e match {
    case reference: NamedReference => schema(indexOf(reference, schema)).dataType
    case literal: Literal[_]       => literal.dataType()
    case _                         => throw new Unknown
  }

  private def compare(dataType: DataType, a: Any, b: Any): Int =
    TypeUtils.getInterpretedOrdering(dataType).compare(a, b)
}
