package io.rowbridge.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.RowbridgeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scan across threads: cancel from another thread while the consumer waits, interruption
 * through the BooleanSupplier, and thousands of open/close cycles without growth in threads,
 * mappings or Arrow memory.
 */
class ScanThreadsTest {
  /** Large batches, so that converting one to rows keeps a worker busy for milliseconds. */
  static final int[] LARGE = {200_000, 200_000, 200_000, 200_000, 200_000, 200_000};

  @TempDir static Path directory;
  static BufferAllocator allocator;
  static String large;
  static String small;

  @BeforeAll
  static void writeFiles() throws IOException {
    allocator = new RootAllocator();
    large = ScanFiles.write(allocator, directory.resolve("large.arrow"), LARGE, 1).path.toString();
    small =
        ScanFiles.write(allocator, directory.resolve("small.arrow"), new int[] {10, 10, 10}, 2)
            .path
            .toString();
  }

  @AfterAll
  static void closeAllocator() {
    assertEquals(0, allocator.getAllocatedMemory());
    allocator.close();
  }

  /** K = 0 and W = 1: the consumer waits for every batch's conversion. */
  static ScanOptions slow() {
    return ScanOptions.defaults().prefetch(0).inFlight(1).wakePeriodMillis(1);
  }

  @Test
  void cancelFromAnotherThreadWhileTheConsumerWaits() throws Exception {
    try (RowScan scan = NativeScan.openRows(large, slow())) {
      AtomicLong batches = new AtomicLong();
      CompletableFuture<RowbridgeException> consumer =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  while (scan.nextBatch()) {
                    batches.incrementAndGet();
                  }
                  return null;
                } catch (RowbridgeException e) {
                  return e;
                }
              });
      while (batches.get() == 0 && !consumer.isDone()) {
        Thread.sleep(1);
      }
      Thread.sleep(2); // the consumer is now waiting for the next batch's conversion
      scan.cancel();
      RowbridgeException error = consumer.get(30, TimeUnit.SECONDS);
      assertTrue(error != null, "the consumer read every batch: nothing to cancel");
      assertEquals(RowbridgeException.ECANCELED, error.code(), error.getMessage());
      assertTrue(batches.get() < LARGE.length);
      assertTrue(scan.waitNanos() > 0);
      scan.cancel(); // again: harmless
    }
  }

  @Test
  void closeFromAnotherThreadWaitsForTheConsumerToLeaveNativeCode() throws Exception {
    RowScan scan = NativeScan.openRows(large, slow());
    AtomicLong batches = new AtomicLong();
    CompletableFuture<RuntimeException> consumer =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                while (scan.nextBatch()) {
                  batches.incrementAndGet();
                }
                return null;
              } catch (RowbridgeException | IllegalStateException e) {
                return e;
              }
            });
    while (batches.get() == 0 && !consumer.isDone()) {
      Thread.sleep(1);
    }
    Thread.sleep(2); // the consumer is now waiting for the next batch inside native code
    scan.close();
    RuntimeException error = consumer.get(30, TimeUnit.SECONDS);
    assertTrue(error != null, "the consumer read every batch: nothing to close under it");
    assertTrue(
        error instanceof IllegalStateException
            || ((RowbridgeException) error).code() == RowbridgeException.ECANCELED,
        error.toString());
    assertTrue(batches.get() < LARGE.length);
    scan.close();
  }

  @Test
  void theInterruptionCheckCancelsAWaitingConsumer() {
    AtomicBoolean interrupted = new AtomicBoolean();
    AtomicLong polls = new AtomicLong();
    int batches = 0;
    RowbridgeException error = null;
    try (RowScan rows =
        NativeScan.openRows(
            large,
            slow()
                .interrupted(
                    () -> {
                      polls.incrementAndGet();
                      return interrupted.get();
                    }))) {
      try {
        while (rows.nextBatch()) {
          batches++;
          interrupted.set(true); // seen at the next wait's first wake-up
        }
      } catch (RowbridgeException e) {
        error = e;
      }
      assertTrue(error != null, "no wait for a batch: the interruption was never polled");
      assertEquals(RowbridgeException.ECANCELED, error.code());
      assertTrue(error.getMessage().contains("interrupted"), error.getMessage());
      assertTrue(error.getMessage().contains(large), error.getMessage());
      assertEquals(1, batches);
      assertTrue(polls.get() > 0);
    }
  }

  @Test
  void thePoolIsSizedOnce() {
    int size = NativeScan.poolSize();
    assertTrue(size >= 1);
    NativeScan.initPool(size); // the same size again: nothing happens
    RowbridgeException resized =
        org.junit.jupiter.api.Assertions.assertThrows(
            RowbridgeException.class, () -> NativeScan.initPool(size + 1));
    assertEquals(RowbridgeException.EINVAL, resized.code());
    assertEquals(size, NativeScan.poolSize());
  }

  static long procStatus(String field) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith(field + ":")) {
        return Long.parseLong(line.substring(field.length() + 1).trim().split("\\s+")[0]);
      }
    }
    return -1;
  }

  static long mappingsOf(String path) throws IOException {
    return Files.readAllLines(Path.of("/proc/self/maps")).stream()
        .filter(line -> line.endsWith(path))
        .count();
  }

  @Test
  void thousandsOfOpenCloseCyclesLeaveNothingBehind() throws IOException {
    Runnable cycle =
        () -> {
          try (ArrowScan scan = NativeScan.openArrow(small, ScanOptions.defaults(), allocator)) {
            assertTrue(scan.loadNextBatch());
          }
          try (RowScan rows = NativeScan.openRows(small, ScanOptions.defaults().prefetch(2))) {
            assertTrue(rows.nextBatch());
          }
        };
    for (int i = 0; i < 200; i++) {
      cycle.run();
    }
    long threads = procStatus("Threads");
    // Five windows of 500 cycles: a leak grows RssAnon in each by the same amount, while the
    // JVM's heap settles after the first and then moves by up to ~150 MB either way as the
    // collector resizes it.
    long[] growthKb = new long[5];
    for (int window = 0; window < growthKb.length; window++) {
      System.gc();
      long before = procStatus("RssAnon");
      for (int i = 0; i < 500; i++) {
        cycle.run();
      }
      System.gc();
      growthKb[window] = procStatus("RssAnon") - before;
    }
    System.out.println(
        "ScanThreadsTest: 2700 cycles, threads "
            + threads
            + " -> "
            + procStatus("Threads")
            + ", RssAnon growth per 500 cycles (kB) "
            + java.util.Arrays.toString(growthKb));
    assertEquals(threads, procStatus("Threads"));
    assertEquals(0, mappingsOf(small), "a closed scan left its file mapped");
    assertEquals(0, allocator.getAllocatedMemory());
    // A leak grows every window; the JVM's own noise comes and goes: the smallest of the last
    // four windows.
    long settled = Long.MAX_VALUE;
    for (int window = 1; window < growthKb.length; window++) {
      settled = Math.min(settled, growthKb[window]);
    }
    assertTrue(settled < 4 * 1024, "RssAnon grew by " + settled + " kB per 500 cycles");
  }
}
