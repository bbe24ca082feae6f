// In Spark Connect's package for the server API it uses: the planner's session (private[connect]).
package org.apache.spark.sql.connect.rowbridge

import scala.jdk.CollectionConverters._
import scala.util.Try

import io.rowbridge.spark.frames.IpcStreamMessages

import org.apache.spark.connect.proto
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.connect.planner.SparkConnectPlanner
import org.apache.spark.sql.rowbridge.frames.ArrowFrames
import org.apache.spark.sql.types.{
  ArrayType,
  DataType,
  MapType,
  StructField,
  StructType,
  UserDefinedType
}
import org.apache.spark.sql.util.ArrowUtils

/** The relation a Connect client's `rowbridge.spark.create_dataframe` sends: the relation Connect's
  * own createDataFrame made (its local data inline, or cached on the server beforehand), whose
  * Arrow batches rowbridge's converter makes into rows ([[ArrowFrames.toDataFrame]]: a local
  * relation for small data, batches read by the executors for larger), where Spark's planner would
  * read them row by row.
  *
  * rowbridge takes the data when the batches are of the rows' schema as they are: the schema the
  * client sent (or, with none, the batches' own), no user-defined type, and each column's Arrow
  * type the one Spark's Arrow schema gives its Spark type. Anything else (a relation of another
  * kind, no data, batches that need Spark's casts) goes to Spark's own planner, whose answer and
  * errors are Spark's.
  */
private[rowbridge] object ConnectArrowRelation {

  def plan(input: proto.Relation, planner: SparkConnectPlanner): LogicalPlan = {
    val data = input.getRelTypeCase match {
      case proto.Relation.RelTypeCase.LOCAL_RELATION => Some(LocalData.of(input.getLocalRelation))
      case _                                         => CachedLocalData.of(input, planner)
    }
    data.filter(_.streams.nonEmpty).flatMap(rows(_, planner)).getOrElse {
      planner.transformRelation(input)
    }
  }

  /** The relation of `data`'s rows made by rowbridge, or None when Spark's planner should. */
  private def rows(data: LocalData, planner: SparkConnectPlanner): Option[LogicalPlan] = {
    val session = planner.session
    val streams = data.streams.zipWithIndex.map { case (read, index) =>
      IpcStreamMessages.split(read(), s"Connect local data, stream $index")
    }
    val arrowSchema = streams.head.schema
    if (streams.exists(stream => !stream.schema.equals(arrowSchema))) return None
    val fromArrow = Try(ArrowUtils.fromArrowSchema(arrowSchema)).toOption.getOrElse(return None)
    val schema = data.schema.map(parsed(_, planner)).getOrElse(fromArrow)
    val conf = session.sessionState.conf
    val largeVarTypes =
      conf.getConfString("spark.sql.execution.arrow.useLargeVarTypes", "false").toBoolean
    val expected = Try(
      ArrowUtils.toArrowSchema(schema, conf.sessionLocalTimeZone, true, largeVarTypes)
    ).toOption
    val asIs = !hasUserType(schema) &&
      normalized(fromArrow) == normalized(schema) &&
      expected.exists(sameTypes(_, arrowSchema))
    if (!asIs) None
    else {
      val messages = streams.iterator.flatMap(_.batches.asScala)
      Some(ArrowFrames.toDataFrame(messages, schema.json, session).queryExecution.logical)
    }
  }

  /** The schema string as Spark's planner reads it: a struct, or one column named "value". */
  private def parsed(schema: String, planner: SparkConnectPlanner): StructType = {
    val parser = planner.session.sessionState.sqlParser
    val read = Try(DataType.fromJson(schema))
      .orElse(Try(parser.parseTableSchema(schema)))
      .orElse(Try(parser.parseDataType(schema)))
      .get
    read match {
      case struct: StructType => struct
      case other              => StructType(Seq(StructField("value", other)))
    }
  }

  private def hasUserType(dataType: DataType): Boolean = dataType.existsRecursively {
    case _: UserDefinedType[_] => true
    case _                     => false
  }

  /** `dataType` with the fields of its nested structs named by position, as Spark's planner
    * compares them.
    */
  private def normalized(dataType: DataType): DataType = dataType match {
    case StructType(fields) =>
      StructType(fields.zipWithIndex.map { case (field, index) =>
        StructField(s"col_$index", normalized(field.dataType), field.nullable)
      })
    case ArrayType(element, containsNull)  => ArrayType(normalized(element), containsNull)
    case MapType(key, value, containsNull) =>
      MapType(normalized(key), normalized(value), containsNull)
    case other => other
  }

  /** Whether two Arrow schemas have the same types at every depth (names and time zones aside). */
  private def sameTypes(
      a: org.apache.arrow.vector.types.pojo.Schema,
      b: org.apache.arrow.vector.types.pojo.Schema
  ): Boolean = {
    def same(
        x: org.apache.arrow.vector.types.pojo.Field,
        y: org.apache.arrow.vector.types.pojo.Field
    ): Boolean = {
      val types = (x.getType, y.getType) match {
        case (
              p: org.apache.arrow.vector.types.pojo.ArrowType.Timestamp,
              q: org.apache.arrow.vector.types.pojo.ArrowType.Timestamp
            ) =>
          p.getUnit == q.getUnit && (p.getTimezone == null) == (q.getTimezone == null)
        case (p, q) => p == q
      }
      types && x.getChildren.size == y.getChildren.size &&
      x.getChildren.asScala.zip(y.getChildren.asScala).forall { case (c, d) => same(c, d) }
    }
    a.getFields.size == b.getFields.size &&
    a.getFields.asScala.zip(b.getFields.asScala).forall { case (x, y) => same(x, y) }
  }
}
