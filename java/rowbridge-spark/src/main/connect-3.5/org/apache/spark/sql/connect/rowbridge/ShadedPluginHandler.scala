// In Spark Connect's package for the server API it uses: the planner's session holder and the
// session's executions (private[connect]).
package org.apache.spark.sql.connect.rowbridge

import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.connect.planner.SparkConnectPlanner
import org.apache.spark.sql.connect.service.{ExecuteHolder, ExecuteJobTag}

/** The Scala side of Spark 3.5's [[ConnectPlugin]] (Java): the extensions' bytes to
  * [[ConnectExtensions]].
  *
  * Spark 3.5 hands a command plugin the planner alone, without the execution that sends the
  * command's responses. The execution is found as the one of the planner's session that runs on
  * this thread: Connect's execution thread carries the operation's job tag (ExecuteJobTag: the
  * user, the session and the operation), which names it among the session's executions; and its
  * request must be this command.
  */
private[rowbridge] class ShadedPluginHandler extends ExtensionHandler {

  override def command(command: Array[Byte], planner: SparkConnectPlanner): Boolean =
    ConnectExtensions.command(command, planner, running(command, planner))

  override def relation(relation: Array[Byte], planner: SparkConnectPlanner): Option[LogicalPlan] =
    ConnectExtensions.relation(relation, planner)

  /** The execution of the planner's session that runs `command` on this thread. */
  private def running(command: Array[Byte], planner: SparkConnectPlanner): ExecuteHolder = {
    val session = planner.sessionHolder
    val prefix = ExecuteJobTag(session.userId, session.sessionId, "")
    val executions = planner.session.sparkContext.getJobTags().toSeq.flatMap { tag =>
      if (!tag.startsWith(prefix)) None
      else {
        session
          .executeHolder(tag.substring(prefix.length))
          .filter(execution => execution.jobTag == tag && runs(execution, command))
      }
    }
    executions match {
      case Seq(execution) => execution
      case _              => ConnectExtensions.notInExecution()
    }
  }

  /** Whether `execution`'s request is the command `command`. */
  private def runs(execution: ExecuteHolder, command: Array[Byte]): Boolean = {
    val plan = execution.request.getPlan
    plan.hasCommand && plan.getCommand.hasExtension &&
    java.util.Arrays.equals(plan.getCommand.getExtension.toByteArray, command)
  }
}
