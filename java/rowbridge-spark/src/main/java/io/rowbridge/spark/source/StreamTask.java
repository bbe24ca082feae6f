package io.rowbridge.spark.source;

import io.rowbridge.RowbridgeException;
import io.rowbridge.scan.ScanBase;
import io.rowbridge.scan.ScanOptions;
import io.rowbridge.spark.memory.TaskMemoryAccounting;
import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.spark.TaskContext;
import org.apache.spark.util.TaskCompletionListener;

/**
 * What a task's reader shares, whatever it reads: the scan options of its range, a completion
 * listener that closes the stream when the task ends however it ends, interruption (a killed task's
 * blocked wait notices it within the wake period and cancels the stream), and errors that name the
 * file and the batches. For a file read through Hadoop it also runs the {@link BatchFetcher}: on a
 * fetch thread, as the task's Hadoop user, or on the task's thread.
 */
final class StreamTask {
  /** Streams open in this JVM (for tests: a killed task must bring it back down). */
  static final AtomicInteger OPEN_STREAMS = new AtomicInteger();

  final FileRange range;
  final TaskContext context;
  private BatchFetcher fetcher;
  private Future<?> fetching;
  private boolean fetchOnTaskThread;
  private int ahead;

  StreamTask(FileRange range, AutoCloseable reader) {
    this.range = range;
    this.context = TaskContext.get();
    if (context != null) {
      context.addTaskCompletionListener(
          (TaskCompletionListener)
              ctx -> {
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
    return ScanOptions.defaults()
        .prefetch(conf.prefetch())
        .inFlight(conf.inFlight())
        .wakePeriodMillis(conf.wakeMillis())
        .columns(range.columns())
        .batchRange(range.firstBatch(), range.batchCount())
        .interrupted(() -> task != null && task.isInterrupted());
  }

  /**
   * Starts fetching a remote range into {@code scan} (nothing for a local file): at most K + W + 1
   * batches ahead of those the task took.
   */
  void startFetching(ScanBase scan, SourceConf conf) {
    if (range.remote() == null || !range.layout().fileFormat()) {
      return;
    }
    ahead = conf.prefetch() + conf.inFlight() + 1;
    fetcher = new BatchFetcher(range.remote(), range.layout(), range, ahead, scan);
    fetchOnTaskThread = conf.fetchOnTaskThread();
    if (fetchOnTaskThread) {
      return;
    }
    UserGroupInformation user;
    try {
      user = UserGroupInformation.getCurrentUser();
    } catch (IOException e) {
      throw new RowbridgeException(
          "rowbridge: cannot read " + range.path() + ": no Hadoop user for the task: " + e,
          RowbridgeException.EIO);
    }
    BatchFetcher running = fetcher;
    fetching =
        FetchThreads.POOL.submit(
            () ->
                user.doAs(
                    (PrivilegedExceptionAction<Void>)
                        () -> {
                          running.run();
                          return null;
                        }));
  }

  /** Before the task takes its next batch from {@code scan} (nothing for a local file). */
  void beforeBatch(ScanBase scan) {
    if (fetcher == null) {
      return;
    }
    long taken = scan.batchesRead();
    if (fetchOnTaskThread) {
      fetcher.fetchFor(taken);
    } else {
      fetcher.taken(taken);
    }
  }

  /** Stops fetching and closes the remote file (the scan keeps what it read). Idempotent. */
  void stopFetching() {
    if (fetcher != null) {
      fetcher.stop();
    }
    if (fetching != null) {
      fetching.cancel(true);
    }
    if (range.remote() != null) {
      range.remote().close();
    }
  }

  /**
   * Opens the reader's scan with {@code opener} and starts fetching its range. On failure closes
   * what was opened, runs {@code cleanup} (the reader's own allocators) and throws the task's
   * failure. A scan returned is counted in {@link #OPEN_STREAMS} until {@link #close}.
   */
  <S extends ScanBase> S open(SourceConf conf, Supplier<S> opener, Runnable cleanup) {
    S scan = null;
    try {
      scan = opener.get();
      startFetching(scan, conf);
    } catch (RuntimeException e) {
      if (scan != null) {
        scan.close();
      }
      stopFetching();
      cleanup.run();
      throw failure(e);
    }
    OPEN_STREAMS.incrementAndGet();
    return scan;
  }

  /**
   * The task's accounting of {@code what} native memory, whose refusal names the read options to
   * lower ({@code prefetch}, {@code inFlight}, then {@code more}); null outside a Spark task.
   */
  TaskMemoryAccounting memory(String what, SourceConf conf, String more) {
    if (context == null) {
      return null;
    }
    String lower =
        "lower the read options "
            + SourceConf.PREFETCH
            + " (now "
            + conf.prefetch()
            + ") or "
            + SourceConf.IN_FLIGHT
            + " (now "
            + conf.inFlight()
            + ")"
            + more
            + ", write smaller record batches,";
    return new TaskMemoryAccounting(context.taskMemoryManager(), what, lower);
  }

  /**
   * Closes an open scan at the reader's close: stops fetching, closes the scan, gives the task's
   * memory back and uncounts the stream.
   */
  void close(ScanBase scan, TaskMemoryAccounting memory) {
    stopFetching();
    try {
      scan.close();
    } finally {
      if (memory != null) {
        memory.releaseAll();
      }
      OPEN_STREAMS.decrementAndGet();
    }
  }

  /**
   * The exception a reader throws for a failure of its stream: a killed task ends as killed
   * (TaskKilledException); anything else is an error naming the file, the batches and the native
   * message.
   */
  RuntimeException failure(RuntimeException e) {
    if (context != null) {
      context.killTaskIfInterrupted();
    }
    RuntimeException fetch = fetcher == null ? null : fetcher.failure();
    if (fetch != null) {
      return fetch; // names the file, the bytes and Hadoop's message
    }
    int code = e instanceof RowbridgeException r ? r.code() : RowbridgeException.EIO;
    RowbridgeException failure =
        new RowbridgeException(
            SourceErrors.describe(range.path(), range.firstBatch(), range.batchCount(), e), code);
    failure.initCause(e);
    return failure;
  }
}
