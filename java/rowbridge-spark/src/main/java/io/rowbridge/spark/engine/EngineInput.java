package io.rowbridge.spark.engine;

import io.rowbridge.ColumnBuffers;
import io.rowbridge.ConverterOptions;
import io.rowbridge.RowbridgeConverter;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Another engine's columnar plans as the input of rowbridge's transition: which of the engine's
 * operators are its own columnar to row transitions (replaced by rowbridge's where placement says),
 * which of its columnar operators the engine's own rule will give such a transition, and how its
 * column vectors read as {@link ColumnBuffers}. Implementations are found with {@link
 * ServiceLoader} (a {@code META-INF/services/io.rowbridge.spark.engine.EngineInput} entry in their
 * jar); {@code rowbridge-comet} provides Apache Comet's.
 *
 * <p>Implementations are stateless and have a public no-argument constructor: the driver's rule and
 * each task look them up by {@link #name()}.
 */
public interface EngineInput {

  /** The engine's name, as plans show it (for example "comet"). */
  String name();

  /**
   * True when {@code plan} is one of the engine's columnar to row transitions whose only child is
   * the columnar plan it reads, and whose rows rowbridge's transition may make instead.
   */
  boolean isTransition(SparkPlan plan);

  /**
   * True when Spark's own ColumnarToRowExec above {@code child} is one the engine's rule has not
   * yet turned into its own transition and would (the engine's rule runs after rowbridge's when it
   * was registered after it: Spark applies post-transition rules in reverse registration order).
   */
  boolean feedsTransition(SparkPlan child);

  /** A converter to rows of {@code schema} from the engine's batches. */
  RowbridgeConverter converter(StructType schema, ConverterOptions options);

  /**
   * A reader for one task's batches of rows of {@code schema}, used by one thread; the caller
   * closes it when the task is done with it.
   */
  BatchReader reader(StructType schema);

  /**
   * One task's view of the engine's batches as rowbridge's primitive columns. A reader may own
   * memory for columns it has to lay out anew (freed by {@link #close}).
   */
  interface BatchReader extends AutoCloseable {
    /**
     * Describes {@code batch}'s columns in {@link #columns()}; false when a column is not one the
     * engine's input reads (the batch then takes Spark's path).
     */
    boolean read(ColumnarBatch batch);

    /**
     * The columns {@link #read} last described; valid while the batch is open and until the next
     * {@link #read} or {@link #close}.
     */
    ColumnBuffers[] columns();

    /** Frees what the reader owns; the default owns nothing. */
    @Override
    default void close() {}
  }

  /** The engine inputs on the class path, in the order ServiceLoader finds them. */
  static List<EngineInput> installed() {
    return Installed.INPUTS;
  }

  /** The installed input named {@code name}; null when none is. */
  static EngineInput named(String name) {
    for (EngineInput input : Installed.INPUTS) {
      if (input.name().equals(name)) {
        return input;
      }
    }
    return null;
  }

  /** The inputs, loaded once per class loader. */
  final class Installed {
    private static final List<EngineInput> INPUTS = load();

    private Installed() {}

    private static List<EngineInput> load() {
      List<EngineInput> inputs = new ArrayList<>();
      ServiceLoader.load(EngineInput.class, EngineInput.class.getClassLoader())
          .forEach(inputs::add);
      return List.copyOf(inputs);
    }
  }
}
