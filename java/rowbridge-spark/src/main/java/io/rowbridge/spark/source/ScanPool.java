package io.rowbridge.spark.source;

import io.rowbridge.RowbridgeException;
import io.rowbridge.scan.NativeScan;
import org.apache.spark.SparkEnv;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The native worker pool of this JVM (one per executor), sized once from the executor's Spark
 * configuration ({@link SourceConf#POOL_THREADS}, else {@code spark.executor.cores}, else the JVM's
 * processors): the first task that opens a scan starts it; later tasks find it started. The pool is
 * never resized: a later, different size is reported once and ignored.
 */
final class ScanPool {
  private static final Logger LOG = LoggerFactory.getLogger(ScanPool.class);
  private static int size; // 0: not started by this class
  private static boolean warned;

  private ScanPool() {}

  /** Starts the pool unless it already runs. */
  static void ensure() {
    SparkEnv env = SparkEnv.get();
    int processors = Runtime.getRuntime().availableProcessors();
    int threads =
        env == null
            ? processors
            : env.conf()
                .getInt(
                    SourceConf.POOL_THREADS, env.conf().getInt("spark.executor.cores", processors));
    ensure(threads);
  }

  /** Starts the pool with {@code requested} workers unless it already runs. */
  static synchronized void ensure(int requested) {
    if (size == 0) {
      try {
        NativeScan.initPool(requested);
      } catch (RowbridgeException e) {
        LOG.warn(
            "rowbridge: the native scan pool was started elsewhere in this JVM: {}",
            e.getMessage());
      }
      size = requested;
    } else if (size != requested && !warned) {
      warned = true;
      LOG.warn(
          "rowbridge: the native scan pool already has {} workers; {} = {} is ignored "
              + "(the pool is sized once per executor)",
          size,
          SourceConf.POOL_THREADS,
          requested);
    }
  }
}
