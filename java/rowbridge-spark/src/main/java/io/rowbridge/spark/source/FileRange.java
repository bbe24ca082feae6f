package io.rowbridge.spark.source;

/**
 * What one task's stream reads: the record batches {@code [firstBatch, firstBatch + batchCount)}
 * of one local file ({@code batchCount} -1: every batch, for the stream format), and the
 * top-level columns to read.
 */
record FileRange(String path, int firstBatch, int batchCount, int[] columns) {}
