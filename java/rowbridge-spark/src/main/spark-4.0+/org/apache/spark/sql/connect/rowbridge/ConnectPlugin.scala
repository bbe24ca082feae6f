// In Spark Connect's package for the server API it uses: the planner's execute holder
// (private[connect]).
package org.apache.spark.sql.connect.rowbridge

import java.util.Optional

import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.connect.planner.SparkConnectPlanner
import org.apache.spark.sql.connect.plugin.{CommandPlugin, RelationPlugin}

/** rowbridge's Spark Connect plugin from Spark 4.0 on, registered on the server with
  * `spark.connect.extensions.command.classes` and `spark.connect.extensions.relation.classes`:
  * 4.0's plugin interfaces take each extension's bytes, which [[ConnectExtensions]] serves. A
  * command runs in the execution the planner carries.
  */
class ConnectPlugin extends CommandPlugin with RelationPlugin {

  override def process(command: Array[Byte], planner: SparkConnectPlanner): Boolean =
    ConnectExtensions.command(
      command,
      planner,
      planner.executeHolderOpt.getOrElse(ConnectExtensions.notInExecution())
    )

  override def transform(
      relation: Array[Byte],
      planner: SparkConnectPlanner
  ): Optional[LogicalPlan] =
    ConnectExtensions.relation(relation, planner) match {
      case Some(plan) => Optional.of(plan)
      case None       => Optional.empty()
    }
}
