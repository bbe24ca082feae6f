// In Spark Connect's package, beside the Scala that serves the extensions.
package org.apache.spark.sql.connect.rowbridge;

import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.connect.planner.SparkConnectPlanner;
import org.apache.spark.sql.connect.plugin.CommandPlugin;
import org.apache.spark.sql.connect.plugin.RelationPlugin;
import org.sparkproject.connect.protobuf.Any;
import scala.Option;
import scala.runtime.BoxedUnit;

/**
 * rowbridge's Spark Connect plugin on Spark 3.5, registered on the server with {@code
 * spark.connect.extensions.command.classes} and {@code spark.connect.extensions.relation.classes}
 * as from 4.0 on, and serving the same messages.
 *
 * <p>Spark 3.5's plugin interfaces take Connect's shaded protobuf {@code Any}
 * (org.sparkproject.connect.protobuf): their bytecode names it, while their Scala signatures name
 * the unshaded class, so that no Scala class can implement them. This one is Java, and hands each
 * extension's bytes to the Scala that serves them ({@link ExtensionHandler}), found by name once.
 */
public class ConnectPlugin implements CommandPlugin, RelationPlugin {

  private static final String HANDLER =
      "org.apache.spark.sql.connect.rowbridge.ShadedPluginHandler";

  private final ExtensionHandler handler = handler();

  private static ExtensionHandler handler() {
    try {
      return Class.forName(HANDLER, true, ConnectPlugin.class.getClassLoader())
          .asSubclass(ExtensionHandler.class)
          .getDeclaredConstructor()
          .newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "rowbridge: the Connect plugin's " + HANDLER + " is missing", e);
    }
  }

  @Override
  public Option<BoxedUnit> process(Any command, SparkConnectPlanner planner) {
    return handler.command(command.toByteArray(), planner)
        ? Option.apply(BoxedUnit.UNIT)
        : Option.empty();
  }

  @Override
  public Option<LogicalPlan> transform(Any relation, SparkConnectPlanner planner) {
    return handler.relation(relation.toByteArray(), planner);
  }
}
