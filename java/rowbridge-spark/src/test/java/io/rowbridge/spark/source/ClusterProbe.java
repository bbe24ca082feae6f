package io.rowbridge.spark.source;

import io.rowbridge.scan.NativeScan;
import io.rowbridge.spark.memory.TaskMemoryAccounting;
import java.util.List;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;

/**
 * What the executors of a cluster report about themselves, from a job of many short tasks (so that
 * every executor runs some): their process ids, and the rowbridge streams open in them.
 */
public final class ClusterProbe {
  private static final int TASKS = 24;

  private ClusterProbe() {}

  public static String thisProcess() {
    return String.valueOf(ProcessHandle.current().pid());
  }

  /** The process id of each task's executor. */
  public static List<String> executorProcesses(SparkSession spark) {
    return spark
        .range(0, TASKS, 1, TASKS)
        .mapPartitions(
            (MapPartitionsFunction<Long, String>)
                rows -> {
                  Thread.sleep(50);
                  return List.of(thisProcess()).iterator();
                },
            Encoders.STRING())
        .collectAsList();
  }

  /**
   * What rowbridge holds in each task's executor while the task runs (which holds nothing itself):
   * "streams=S bytes=B workers=W", the open streams, the native bytes accounted to tasks, and the
   * native pool's workers at work.
   */
  public static List<String> nativeState(SparkSession spark) {
    return spark
        .range(0, TASKS, 1, TASKS)
        .mapPartitions(
            (MapPartitionsFunction<Long, String>)
                rows -> {
                  Thread.sleep(50);
                  return List.of(
                          "streams="
                              + StreamTask.OPEN_STREAMS.get()
                              + " bytes="
                              + TaskMemoryAccounting.heldInThisJvm()
                              + " workers="
                              + NativeScan.busyWorkers())
                      .iterator();
                },
            Encoders.STRING())
        .collectAsList();
  }

  /** The streams open in each task's executor while the task runs (its own are none). */
  public static List<Integer> openStreams(SparkSession spark) {
    return spark
        .range(0, TASKS, 1, TASKS)
        .mapPartitions(
            (MapPartitionsFunction<Long, Integer>)
                rows -> {
                  Thread.sleep(50);
                  return List.of(StreamTask.OPEN_STREAMS.get()).iterator();
                },
            Encoders.INT())
        .collectAsList();
  }
}
