// In Spark Connect's package, beside the plugin that hands it the extensions.
package org.apache.spark.sql.connect.rowbridge;

import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.connect.planner.SparkConnectPlanner;
import scala.Option;

/**
 * What rowbridge's Spark 3.5 Connect plugin ({@link ConnectPlugin}) does with an extension's bytes
 * (a serialized {@code google.protobuf.Any}). Implemented in Scala ({@code ShadedPluginHandler}),
 * which the plugin finds by name: the module's Java compiles before its Scala.
 */
interface ExtensionHandler {

  /** Runs {@code command} if it is rowbridge's; false for any other command. */
  boolean command(byte[] command, SparkConnectPlanner planner);

  /** The plan of {@code relation} if it is rowbridge's; None for any other relation. */
  Option<LogicalPlan> relation(byte[] relation, SparkConnectPlanner planner);
}
