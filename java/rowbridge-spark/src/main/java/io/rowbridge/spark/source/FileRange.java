package io.rowbridge.spark.source;

import io.rowbridge.scan.FileLayout;

/**
 * What one task's stream reads: the record batches {@code [firstBatch, firstBatch + batchCount)} of
 * one file ({@code batchCount} -1: every batch, for the stream format), and the top-level columns
 * to read. A local file has no {@code remote}; a file read through Hadoop has it open (footer read,
 * image opened for these columns) with its {@code layout}.
 */
record FileRange(
    String path,
    int firstBatch,
    int batchCount,
    int[] columns,
    HadoopFile remote,
    FileLayout layout) {
  FileRange(String path, int firstBatch, int batchCount, int[] columns) {
    this(path, firstBatch, batchCount, columns, null, null);
  }
}
