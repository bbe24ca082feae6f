package io.rowbridge.spark.source;

import io.rowbridge.scan.FileLayout;
import io.rowbridge.scan.ScanBase;
import java.util.ArrayList;
import java.util.List;

/**
 * Fetches the record batches of a task's range from a {@link HadoopFile} in order, at most {@code
 * ahead} batches beyond those the task has taken (K + W + 1: what the stream may hold), or further
 * while those batches' bytes stay within {@link #UNIT_BYTES} (small batches), and opens the scan's
 * gate to each batch once its bytes are in the image. With a column selection, a batch's metadata
 * is read first (with the previous batch's buffers) and then only its selected columns' buffers;
 * otherwise the whole messages of consecutive batches, up to {@link #UNIT_BYTES} at a time (so one
 * request serves several small batches).
 *
 * <p>It runs either as a Java thread of its own ({@link #run}, reading ahead while the task
 * consumes) or on the task's thread ({@link #fetchFor} before each batch). A failure is kept
 * ({@link #failure}) and cancels the scan, so a task waiting for a batch wakes up and reports it.
 */
final class BatchFetcher implements Runnable {
  /**
   * The most bytes of whole batches read in one request (a larger batch is read alone), and how far
   * small batches may be read ahead of the task beyond {@code ahead} batches.
   */
  static final long UNIT_BYTES = 8L << 20;

  private final HadoopFile file;
  private final FileLayout layout;
  private final int first;
  private final int count;
  private final int ahead;
  private final boolean pruned;
  private final ScanBase scan;

  /** Guarded by this. */
  private long taken;

  private boolean stopped;

  /** Batches fetched; written by the fetching thread only. */
  private int fetched;

  /** The next batch's metadata was read with the last batch's ranges. */
  private boolean nextMetadataRead;

  private volatile RuntimeException failure;

  BatchFetcher(HadoopFile file, FileLayout layout, FileRange range, int ahead, ScanBase scan) {
    this.file = file;
    this.layout = layout;
    this.first = range.firstBatch();
    this.count = range.batchCount() < 0 ? 0 : range.batchCount();
    this.ahead = ahead;
    int[] columns = range.columns();
    this.pruned = columns != null && columns.length < layout.schema().getFields().size();
    this.scan = scan;
  }

  /** The task took its {@code batches}-th batch: the fetcher may read further ahead. */
  synchronized void taken(long batches) {
    if (batches > taken) {
      taken = batches;
      notifyAll();
    }
  }

  /** Stops fetching: the thread returns after the read in progress (whose bytes are dropped). */
  synchronized void stop() {
    stopped = true;
    notifyAll();
  }

  /** Why fetching failed, or null. */
  RuntimeException failure() {
    return failure;
  }

  @Override
  public void run() {
    try {
      while (fetched < count) {
        synchronized (this) {
          while (!stopped && fetched >= windowEnd(taken)) {
            wait();
          }
          if (stopped) {
            return;
          }
        }
        fetchNext();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      fail(e);
    }
  }

  /** On the task's thread, which took {@code took} batches: fetches the window's batches. */
  void fetchFor(long took) {
    try {
      while (fetched < windowEnd(took)) {
        fetchNext();
      }
    } catch (RuntimeException e) {
      fail(e);
      throw e;
    }
  }

  private void fail(RuntimeException e) {
    failure = e;
    scan.cancel();
  }

  private void fetchNext() {
    if (pruned) {
      fetchPruned();
      return;
    }
    // Whole batches: this one, and those after it in the window while the unit stays small.
    int batch = first + fetched;
    long start = layout.batchOffset(batch);
    int end;
    synchronized (this) {
      end = first + Math.max(fetched + 1, windowEnd(taken));
    }
    int last = batch;
    while (last + 1 < end && blockEnd(last + 1) - start <= UNIT_BYTES) {
      last++;
    }
    read(List.<long[]>of(new long[] {start, blockEnd(last) - start}));
    for (int b = batch; b <= last; b++) { // each batch's pages are given back with it
      file.image().filled(b, blockEnd(b) - layout.batchOffset(b));
    }
    fetched += last - batch + 1;
    scan.batchesReady(fetched);
  }

  /** Where batch {@code b}'s message ends. */
  private long blockEnd(int b) {
    return layout.batchOffset(b) + layout.batchMetadataBytes(b) + layout.batchBodyBytes(b);
  }

  /**
   * How many batches of the range may be fetched once the task took {@code took}: {@code ahead}
   * more, or more while they span at most UNIT_BYTES from the first not taken.
   */
  private int windowEnd(long took) {
    int end = (int) Math.min(count, Math.max(0, took) + ahead);
    if (pruned) {
      return end;
    }
    int from = first + (int) Math.min(Math.max(0, took), count - 1);
    while (end < count && blockEnd(first + end) - layout.batchOffset(from) <= UNIT_BYTES) {
      end++;
    }
    return end;
  }

  private void fetchPruned() {
    int batch = first + fetched;
    long offset = layout.batchOffset(batch);
    long metadata = layout.batchMetadataBytes(batch);
    List<long[]> ranges = new ArrayList<>();
    long bytes = 0;
    if (!nextMetadataRead) {
      bytes += read(List.<long[]>of(new long[] {offset, metadata}));
    }
    long[] needed = file.image().batchRanges(batch);
    for (int i = 0; i < needed.length; i += 2) {
      long start = Math.max(needed[i], offset + metadata); // the metadata is in
      long end = needed[i] + needed[i + 1];
      if (end > start) {
        ranges.add(new long[] {start, end - start});
      }
    }
    nextMetadataRead = batch + 1 < first + count;
    if (nextMetadataRead) {
      ranges.add(new long[] {layout.batchOffset(batch + 1), layout.batchMetadataBytes(batch + 1)});
    }
    bytes += read(ranges);
    file.image().filled(batch, bytes);
    fetched++;
    scan.batchesReady(fetched);
  }

  private long read(List<long[]> ranges) {
    return file.readMerged(ranges, HadoopFile.MERGE_GAP_BYTES);
  }
}
