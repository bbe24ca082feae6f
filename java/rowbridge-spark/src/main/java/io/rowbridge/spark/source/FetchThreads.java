package io.rowbridge.spark.source;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Java threads that fetch files read through Hadoop ahead of their decoders, one per task
 * reading such a file (so at most the executor's task slots): daemon threads, created when needed,
 * gone after a minute idle. They are Java's own threads: Hadoop is never called from a native
 * thread.
 */
final class FetchThreads {
  private static final AtomicInteger NEXT = new AtomicInteger();
  private static final ThreadFactory FACTORY =
      runnable -> {
        Thread thread = new Thread(runnable, "rowbridge-fetch-" + NEXT.incrementAndGet());
        thread.setDaemon(true);
        return thread;
      };
  static final ExecutorService POOL = Executors.newCachedThreadPool(FACTORY);

  private FetchThreads() {}
}
