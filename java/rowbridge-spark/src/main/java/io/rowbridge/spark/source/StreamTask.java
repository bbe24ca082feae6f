package io.rowbridge.spark.source;

import io.rowbridge.RowbridgeException;
import io.rowbridge.scan.ScanOptions;

import java.util.concurrent.atomic.AtomicInteger;

import org.apache.spark.TaskContext;
import org.apache.spark.util.TaskCompletionListener;

/**
 * What a task's reader shares, whatever it reads: the scan options of its range, a completion
 * listener that closes the stream when the task ends however it ends, interruption (a killed
 * task's blocked wait notices it within the wake period and cancels the stream), and errors that
 * name the file and the batches.
 */
final class StreamTask {
  /** Streams open in this JVM (for tests: a killed task must bring it back down). */
  static final AtomicInteger OPEN_STREAMS = new AtomicInteger();

  final FileRange range;
  final TaskContext context;

  StreamTask(FileRange range, AutoCloseable reader) {
    this.range = range;
    this.context = TaskContext.get();
    if (context != null) {
      context.addTaskCompletionListener((TaskCompletionListener) ctx -> {
        try {
          reader.close();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
    }
  }

  ScanOptions options(SourceConf conf) {
    TaskContext task = context;
    return ScanOptions.defaults().withPrefetch(conf.prefetch()).withInFlight(conf.inFlight())
        .withWakePeriodMillis(conf.wakeMillis()).withColumns(range.columns())
        .withBatchRange(range.firstBatch(), range.batchCount())
        .withInterrupted(() -> task != null && task.isInterrupted());
  }

  /**
   * The exception a reader throws for a failure of its stream: a killed task ends as killed
   * (TaskKilledException); anything else is an error naming the file, the batches and the
   * native message.
   */
  RuntimeException failure(RuntimeException e) {
    if (context != null) {
      context.killTaskIfInterrupted();
    }
    int code = e instanceof RowbridgeException r ? r.code() : RowbridgeException.EIO;
    RowbridgeException failure = new RowbridgeException(SourceErrors.describe(range.path(),
        range.firstBatch(), range.batchCount(), e), code);
    failure.initCause(e);
    return failure;
  }
}
