// In Spark Connect's package for the server API it uses: the planner's session (private[connect]).
package org.apache.spark.sql.connect.rowbridge

import io.rowbridge.RowbridgeException

import org.apache.spark.connect.proto
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.connect.planner.SparkConnectPlanner
import org.apache.spark.sql.connect.service.ExecuteHolder
import org.sparkproject.connect.protobuf.{Any => ProtoAny, CodedInputStream, WireFormat}

/** What rowbridge's Spark Connect plugin serves, on every line that has one: a command and a
  * relation that a Connect client's `rowbridge.spark` sends (python/rowbridge/spark/_connect.py).
  * Each line's plugin class takes the extensions as its Connect hands them over and passes their
  * bytes (a serialized `google.protobuf.Any`) here: [[ConnectPlugin]] from 4.0 on, the Java
  * ConnectPlugin of 3.5, whose plugin interfaces take Connect's shaded `Any`.
  *
  *   - [[ToArrow]] (a command): a DataFrame's batches to the client as Connect's own Arrow batch
  *     responses, made by rowbridge ([[ConnectArrowResults]]).
  *   - [[ArrowRelation]] (a relation): the Arrow data of Connect's createDataFrame made into rows
  *     by rowbridge's converter ([[ConnectArrowRelation]]).
  *
  * Each message has one field, `spark.connect.Relation input = 1`
  * (java/rowbridge-spark/src/main/proto/rowbridge_connect.proto). The plugin serves the plan of the
  * request it is called for, in that request's session, with the session's own settings; it opens
  * no port or socket. Any other extension is left to the next plugin.
  */
private[rowbridge] object ConnectExtensions {

  /** The message names (the `Any` type URLs end in them). */
  val ToArrow = "io.rowbridge.connect.ToArrow"
  val ArrowRelation = "io.rowbridge.connect.ArrowRelation"

  private val InputField = 1

  /** Runs `command` if it is a [[ToArrow]], sending its results through `execution` (the execution
    * that runs the command, asked for only then); false for any other command.
    */
  def command(
      command: Array[Byte],
      planner: SparkConnectPlanner,
      execution: => ExecuteHolder
  ): Boolean =
    inputOf(command, ToArrow) match {
      case None        => false
      case Some(input) =>
        val holder = execution
        ConnectArrowResults.send(planner.transformRelation(input), holder)
        true
    }

  /** The plan of `relation` if it is an [[ArrowRelation]]; None for any other relation. */
  def relation(relation: Array[Byte], planner: SparkConnectPlanner): Option[LogicalPlan] =
    inputOf(relation, ArrowRelation).map(ConnectArrowRelation.plan(_, planner))

  /** The error for a [[ToArrow]] command that reaches the plugin outside an execution. */
  def notInExecution(): Nothing =
    throw new RowbridgeException(
      s"rowbridge: the Connect command $ToArrow runs only in an execution of its session"
    )

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
