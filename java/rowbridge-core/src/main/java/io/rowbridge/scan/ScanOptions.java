package io.rowbridge.scan;

import io.rowbridge.ConverterOptions;
import java.util.function.BooleanSupplier;

/**
 * What a {@link NativeScan} reads and how far its stream runs ahead. Immutable: every {@code with*}
 * method returns a copy.
 *
 * <p>Defaults: K = 1 batch waiting ahead of the consumer, W = 2 batches being decoded at once, a
 * blocked consumer wakes every 100 ms, every column, every batch, batch values checked by the
 * reader, rows converted with cheap validation.
 */
public final class ScanOptions {
  private final int prefetch;
  private final int inFlight;
  private final int wakePeriodMillis;
  private final int[] columns;
  private final int firstBatch;
  private final int batchCount;
  private final BooleanSupplier interrupted;
  private final ConverterOptions converterOptions;
  private final boolean validateValues;

  private ScanOptions(
      int prefetch,
      int inFlight,
      int wakePeriodMillis,
      int[] columns,
      int firstBatch,
      int batchCount,
      BooleanSupplier interrupted,
      ConverterOptions converterOptions,
      boolean validateValues) {
    this.prefetch = prefetch;
    this.inFlight = inFlight;
    this.wakePeriodMillis = wakePeriodMillis;
    this.columns = columns;
    this.firstBatch = firstBatch;
    this.batchCount = batchCount;
    this.interrupted = interrupted;
    this.converterOptions = converterOptions;
    this.validateValues = validateValues;
  }

  public static ScanOptions defaults() {
    return new ScanOptions(1, 2, 100, null, 0, -1, null, null, true);
  }

  /** K: the most decoded batches waiting for the consumer (0 or more). */
  public ScanOptions withPrefetch(int k) {
    if (k < 0) {
      throw new IllegalArgumentException("prefetch must be 0 or more: " + k);
    }
    return new ScanOptions(
        k,
        inFlight,
        wakePeriodMillis,
        columns,
        firstBatch,
        batchCount,
        interrupted,
        converterOptions,
        validateValues);
  }

  /** W: the most batches being decoded at once (1 or more). */
  public ScanOptions withInFlight(int w) {
    if (w < 1) {
      throw new IllegalArgumentException("in-flight must be 1 or more: " + w);
    }
    return new ScanOptions(
        prefetch,
        w,
        wakePeriodMillis,
        columns,
        firstBatch,
        batchCount,
        interrupted,
        converterOptions,
        validateValues);
  }

  /** How often a consumer blocked for a batch polls {@link #withInterrupted}. */
  public ScanOptions withWakePeriodMillis(int ms) {
    if (ms <= 0) {
      throw new IllegalArgumentException("the wake period must be positive: " + ms);
    }
    return new ScanOptions(
        prefetch,
        inFlight,
        ms,
        columns,
        firstBatch,
        batchCount,
        interrupted,
        converterOptions,
        validateValues);
  }

  /**
   * The columns to read, as top-level column indices of the file's schema, in the order wanted,
   * each at most once; the others are neither decompressed nor decoded. {@code null}: every column;
   * an empty array: none (batches keep their row counts).
   */
  public ScanOptions withColumns(int[] topLevelColumnIndices) {
    int[] copy = topLevelColumnIndices == null ? null : topLevelColumnIndices.clone();
    return new ScanOptions(
        prefetch,
        inFlight,
        wakePeriodMillis,
        copy,
        firstBatch,
        batchCount,
        interrupted,
        converterOptions,
        validateValues);
  }

  /**
   * The record batches [firstBatch, firstBatch + batchCount) of the file; batchCount -1: to the
   * end. A range past the file's last batch fails when the scan opens.
   */
  public ScanOptions withBatchRange(int firstBatch, int batchCount) {
    if (firstBatch < 0 || batchCount < -1) {
      throw new IllegalArgumentException(
          "invalid batch range: first " + firstBatch + ", count " + batchCount);
    }
    return new ScanOptions(
        prefetch,
        inFlight,
        wakePeriodMillis,
        columns,
        firstBatch,
        batchCount,
        interrupted,
        converterOptions,
        validateValues);
  }

  /**
   * Polled by a consumer blocked for a batch, on its own thread, at every wake-up; true cancels the
   * scan and the blocked call throws a {@link io.rowbridge.RowbridgeException} with code ECANCELED.
   * In Spark: {@code () -> taskContext.isInterrupted()}. {@code null}: never.
   */
  public ScanOptions withInterrupted(BooleanSupplier interrupted) {
    return new ScanOptions(
        prefetch,
        inFlight,
        wakePeriodMillis,
        columns,
        firstBatch,
        batchCount,
        interrupted,
        converterOptions,
        validateValues);
  }

  /**
   * The converter options of row scans: validation and maxChunkBytes are used (copyRows too, by
   * {@link RowScan#row}); the input, dictionaries and memory listener are not. {@code null}: the
   * defaults.
   */
  public ScanOptions withConverterOptions(ConverterOptions options) {
    return new ScanOptions(
        prefetch,
        inFlight,
        wakePeriodMillis,
        columns,
        firstBatch,
        batchCount,
        interrupted,
        options,
        validateValues);
  }

  /**
   * Whether the reader checks every offset, view, run end and dictionary index of a batch before
   * handing it out (default true). False only for files from a trusted writer: a corrupt offset
   * could then make a consumer read outside a buffer.
   */
  public ScanOptions withValidateValues(boolean validate) {
    return new ScanOptions(
        prefetch,
        inFlight,
        wakePeriodMillis,
        columns,
        firstBatch,
        batchCount,
        interrupted,
        converterOptions,
        validate);
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
