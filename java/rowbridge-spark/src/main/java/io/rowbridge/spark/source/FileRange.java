package io.rowbridge.spark.source;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One input partition: the record batches {@code [firstBatch, firstBatch + batchCount)} of one
 * file ({@code bodyBytes} of batch bodies), and the top-level columns to read.
 */
record FileRange(String path, int firstBatch, int batchCount, long bodyBytes, int[] columns)
    implements InputPartition {}
