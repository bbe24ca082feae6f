package io.rowbridge.comet;

import io.rowbridge.ConverterOptions;
import io.rowbridge.RowbridgeConverter;
import io.rowbridge.spark.engine.EngineInput;
import java.util.Set;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.BroadcastQueryStageExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.exchange.BroadcastExchangeLike;
import org.apache.spark.sql.execution.exchange.ReusedExchangeExec;
import org.apache.spark.sql.types.StructType;

/**
 * Apache Comet's plans as the input of rowbridge's transition (found by {@link
 * EngineInput#installed()}). Comet's operators are recognised by class name, so this class loads
 * with or without Comet.
 *
 * <p>Its transitions are {@code CometColumnarToRowExec} (the JVM one, Comet's default) and {@code
 * CometNativeColumnarToRowExec}. Neither is replaced above a broadcast: Comet's transition there
 * builds the broadcast relation from Comet's serialized batches. Spark's ColumnarToRowExec is taken
 * above the Comet operators that Comet's own rule would give a transition of its own; not above
 * those whose transition Comet removes (a row to columnar conversion, a collect limit, a native
 * write, a shuffle exchange under adaptive execution).
 */
public final class CometInput implements EngineInput {
  private static final String PACKAGE = "org.apache.spark.sql.comet.";

  private static final Set<String> TRANSITIONS =
      Set.of(PACKAGE + "CometColumnarToRowExec", PACKAGE + "CometNativeColumnarToRowExec");

  /** Comet operators whose ColumnarToRowExec above them Comet's rule removes. */
  private static final Set<String> TRANSITION_REMOVED =
      Set.of(
          PACKAGE + "CometSparkToColumnarExec",
          PACKAGE + "CometCollectLimitExec",
          PACKAGE + "CometNativeWriteExec");

  private static final String SHUFFLE = PACKAGE + "execution.shuffle.CometShuffleExchangeExec";

  @Override
  public String name() {
    return "comet";
  }

  @Override
  public boolean isTransition(SparkPlan plan) {
    return TRANSITIONS.contains(plan.getClass().getName())
        && plan.children().size() == 1
        && !isBroadcast(plan.children().head());
  }

  @Override
  public boolean feedsTransition(SparkPlan child) {
    String name = child.getClass().getName();
    if (TRANSITION_REMOVED.contains(name)
        || (name.equals(SHUFFLE) && child.conf().adaptiveExecutionEnabled())
        || isBroadcast(child)) {
      return false;
    }
    return isComet(unwrap(child));
  }

  @Override
  public RowbridgeConverter converter(StructType schema, ConverterOptions options) {
    return CometColumns.converter(schema, options);
  }

  @Override
  public BatchReader reader(StructType schema) {
    return new CometColumns(schema);
  }

  /** True for Comet's own operators (org.apache.spark.sql.comet and below). */
  static boolean isComet(SparkPlan plan) {
    return plan.getClass().getName().startsWith(PACKAGE);
  }

  /** The plan a query stage or a reused exchange stands for. */
  private static SparkPlan unwrap(SparkPlan plan) {
    if (plan instanceof QueryStageExec stage) {
      return unwrap(stage.plan());
    }
    if (plan instanceof ReusedExchangeExec reused) {
      return unwrap(reused.child());
    }
    return plan;
  }

  private static boolean isBroadcast(SparkPlan plan) {
    return plan instanceof BroadcastQueryStageExec || unwrap(plan) instanceof BroadcastExchangeLike;
  }
}
