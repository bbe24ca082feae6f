// In Spark Connect's package for the server API it uses: the planner's execute holder and session
// holder (private[connect]).
package org.apache.spark.sql.connect.rowbridge

import java.util.Optional

import io.rowbridge.RowbridgeException

import org.apache.spark.connect.proto
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.connect.planner.SparkConnectPlanner
import org.apache.spark.sql.connect.plugin.{CommandPlugin, RelationPlugin}
import org.sparkproject.connect.protobuf.{Any => ProtoAny, CodedInputStream, WireFormat}

/** rowbridge's Spark Connect plugin: a command and a relation that a Connect client's
  * `rowbridge.spark` sends (python/rowbridge/spark/_connect.py), registered on the server with
  * `spark.connect.extensions.command.classes` and `spark.connect.extensions.relation.classes`.
  *
  *   - [[ToArrow]] (a command): a DataFrame's batches to the client as Connect's own Arrow batch
  *     responses, made by rowbridge ([[ConnectArrowResults]]).
  *   - [[ArrowRelation]] (a relation): the Arrow data of Connect's createDataFrame made into rows
  *     by rowbridge's converter ([[ConnectArrowRelation]]).
  *
  * Each is a `google.protobuf.Any` whose message has one field, `spark.connect.Relation input = 1`
  * (java/rowbridge-spark/src/main/proto/rowbridge_connect.proto). The plugin serves the plan of the
  * request it is called for, in that request's session, with the session's own settings; it opens
  * no port or socket. Any other extension is left to the next plugin.
  */
class ConnectPlugin extends CommandPlugin with RelationPlugin {

  override def process(command: Array[Byte], planner: SparkConnectPlanner): Boolean = {
    ConnectPlugin.inputOf(command, ConnectPlugin.ToArrow) match {
      case None        => false
      case Some(input) =>
        val holder = planner.executeHolderOpt.getOrElse {
          throw new RowbridgeException(
            "rowbridge: the Connect command " + ConnectPlugin.ToArrow + " runs only in an execution"
          )
        }
        ConnectArrowResults.send(planner.transformRelation(input), holder)
        true
    }
  }

  override def transform(
      relation: Array[Byte],
      planner: SparkConnectPlanner
  ): Optional[LogicalPlan] =
    ConnectPlugin.inputOf(relation, ConnectPlugin.ArrowRelation) match {
      case None        => Optional.empty()
      case Some(input) => Optional.of(ConnectArrowRelation.plan(input, planner))
    }
}

object ConnectPlugin {

  /** The message names (the `Any` type URLs end in them). */
  val ToArrow = "io.rowbridge.connect.ToArrow"
  val ArrowRelation = "io.rowbridge.connect.ArrowRelation"

  private val InputField = 1

  /** The `input` relation of an extension of message `name`, or None for any other extension.
    *
    * @throws RowbridgeException
    *   for an extension of that name whose bytes do not read as its message
    */
  def inputOf(extension: Array[Byte], name: String): Option[proto.Relation] = {
    val any = ProtoAny.parseFrom(extension)
    val url = any.getTypeUrl
    if (url != name && !url.endsWith("/" + name)) return None
    try {
      val in = CodedInputStream.newInstance(any.getValue.asReadOnlyByteBuffer())
      var input: Option[proto.Relation] = None
      var tag = in.readTag()
      while (tag != 0) {
        if (
          WireFormat.getTagFieldNumber(tag) == InputField &&
          WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED
        ) {
          input = Some(proto.Relation.parseFrom(in.readBytes()))
        } else if (!in.skipField(tag)) {
          tag = 0
        }
        if (tag != 0) tag = in.readTag()
      }
      input.orElse(
        throw new RowbridgeException(s"rowbridge: the Connect message $name has no input")
      )
    } catch {
      case e: java.io.IOException =>
        val error = new RowbridgeException(
          s"rowbridge: the Connect message $name does not read as one: ${e.getMessage}"
        )
        error.initCause(e)
        throw error
    }
  }
}
