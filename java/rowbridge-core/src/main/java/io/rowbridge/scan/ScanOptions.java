package io.rowbridge.scan;

import io.rowbridge.ConverterOptions;
import java.util.function.BooleanSupplier;

/**
 * What a {@link NativeScan} reads and how far its stream runs ahead. As {@link ConverterOptions}:
 * each setting has a setter that returns this object and a getter of the same name; a scan reads
 * them when it opens.
 *
 * <p>Defaults: K = 1 batch waiting ahead of the consumer, W = 2 batches being decoded at once, a
 * blocked consumer wakes every 100 ms, every column, every batch, batch values checked by the
 * reader, rows converted with cheap validation.
 */
public final class ScanOptions {
  private int prefetch = 1;
  private int inFlight = 2;
  private int wakePeriodMillis = 100;
  private int[] columns;
  private int firstBatch;
  private int batchCount = -1;
  private BooleanSupplier interrupted;
  private ConverterOptions converterOptions;
  private boolean validateValues = true;

  public static ScanOptions defaults() {
    return new ScanOptions();
  }

  /** K: the most decoded batches waiting for the consumer (0 or more). */
  public ScanOptions prefetch(int k) {
    if (k < 0) {
      throw new IllegalArgumentException("prefetch must be 0 or more: " + k);
    }
    prefetch = k;
    return this;
  }

  /** W: the most batches being decoded at once (1 or more). */
  public ScanOptions inFlight(int w) {
    if (w < 1) {
      throw new IllegalArgumentException("in-flight must be 1 or more: " + w);
    }
    inFlight = w;
    return this;
  }

  /** How often a consumer blocked for a batch polls {@link #interrupted(BooleanSupplier)}. */
  public ScanOptions wakePeriodMillis(int ms) {
    if (ms <= 0) {
      throw new IllegalArgumentException("the wake period must be positive: " + ms);
    }
    wakePeriodMillis = ms;
    return this;
  }

  /**
   * The columns to read, as top-level column indices of the file's schema, in the order wanted,
   * each at most once; the others are neither decompressed nor decoded. {@code null}: every column;
   * an empty array: none (batches keep their row counts). The array is copied.
   */
  public ScanOptions columns(int[] topLevelColumnIndices) {
    columns = topLevelColumnIndices == null ? null : topLevelColumnIndices.clone();
    return this;
  }

  /**
   * The record batches [firstBatch, firstBatch + batchCount) of the file; batchCount -1: to the
   * end. A range past the file's last batch fails when the scan opens.
   */
  public ScanOptions batchRange(int first, int count) {
    if (first < 0 || count < -1) {
      throw new IllegalArgumentException(
          "invalid batch range: first " + first + ", count " + count);
    }
    firstBatch = first;
    batchCount = count;
    return this;
  }

  /**
   * Polled by a consumer blocked for a batch, on its own thread, at every wake-up; true cancels the
   * scan and the blocked call throws a {@link io.rowbridge.RowbridgeException} with code ECANCELED.
   * In Spark: {@code () -> taskContext.isInterrupted()}. {@code null}: never.
   */
  public ScanOptions interrupted(BooleanSupplier check) {
    interrupted = check;
    return this;
  }

  /**
   * The converter options of row scans: validation and maxChunkBytes are used (copyRows too, by
   * {@link RowScan#row}); the input, dictionaries and memory listener are not. {@code null}: the
   * defaults.
   */
  public ScanOptions converterOptions(ConverterOptions options) {
    converterOptions = options;
    return this;
  }

  /**
   * Whether the reader checks every offset, view, run end and dictionary index of a batch before
   * handing it out (default true). False only for files from a trusted writer: a corrupt offset
   * could then make a consumer read outside a buffer.
   */
  public ScanOptions validateValues(boolean validate) {
    validateValues = validate;
    return this;
  }

  public int prefetch() {
    return prefetch;
  }

  public int inFlight() {
    return inFlight;
  }

  public int wakePeriodMillis() {
    return wakePeriodMillis;
  }

  /** A copy of the selected column indices, or null for every column. */
  public int[] columns() {
    return columns == null ? null : columns.clone();
  }

  public int firstBatch() {
    return firstBatch;
  }

  public int batchCount() {
    return batchCount;
  }

  public BooleanSupplier interrupted() {
    return interrupted;
  }

  /** The converter options of row scans (never null). */
  public ConverterOptions converterOptions() {
    return converterOptions == null ? ConverterOptions.defaults() : converterOptions;
  }

  public boolean validateValues() {
    return validateValues;
  }

  int[] columnsUnsafe() {
    return columns;
  }
}
