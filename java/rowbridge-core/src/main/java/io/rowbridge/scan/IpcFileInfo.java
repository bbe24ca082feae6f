package io.rowbridge.scan;

import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What an Arrow IPC file's footer (and its batches' metadata, never their bodies) says: the schema,
 * the record batches, each batch's place, body size and row count. A data source splits a file into
 * batch ranges of about equal bytes with it.
 */
public final class IpcFileInfo {
  private final Schema schema;
  private final boolean fileFormat;
  private final long inputBytes;
  private final long[] rows;
  private final long[] bodyBytes;
  private final long[] uncompressedBytes;
  private final long[] offsets;
  private final long[] messageBytes;

  IpcFileInfo(
      Schema schema,
      boolean fileFormat,
      long inputBytes,
      long[] rows,
      long[] bodyBytes,
      long[] uncompressedBytes,
      long[] offsets,
      long[] messageBytes) {
    this.schema = schema;
    this.fileFormat = fileFormat;
    this.inputBytes = inputBytes;
    this.rows = rows;
    this.bodyBytes = bodyBytes;
    this.uncompressedBytes = uncompressedBytes;
    this.offsets = offsets;
    this.messageBytes = messageBytes;
  }

  /** The Arrow schema of the whole file (dictionary-encoded fields carry their encoding). */
  public Schema schema() {
    return schema;
  }

  /** True for the IPC file format (random access), false for the stream format. */
  public boolean isFileFormat() {
    return fileFormat;
  }

  /** The size of the input in bytes. */
  public long inputBytes() {
    return inputBytes;
  }

  public int numBatches() {
    return rows.length;
  }

  /** The body of record batch {@code i} as stored (compressed when compressed), in bytes. */
  public long batchBodyBytes(int i) {
    return bodyBytes[i];
  }

  /** The body of record batch {@code i} once decompressed, in bytes. */
  public long batchUncompressedBytes(int i) {
    return uncompressedBytes[i];
  }

  /** Where record batch {@code i}'s message starts in the input, in bytes. */
  public long batchOffset(int i) {
    return offsets[i];
  }

  /** Record batch {@code i}'s whole message (framing, metadata and body), in bytes. */
  public long batchMessageBytes(int i) {
    return messageBytes[i];
  }

  /**
   * The batches whose message starts in the byte range {@code [start, start + length)}, as {@code
   * {first, count}}: a file cut into byte ranges gives each batch to exactly one range.
   */
  public int[] batchesStartingIn(long start, long length) {
    int first = 0;
    while (first < offsets.length && offsets[first] < start) {
      first++;
    }
    int end = first;
    while (end < offsets.length && offsets[end] < start + length) {
      end++;
    }
    return new int[] {first, end - first};
  }

  /** The rows of record batch {@code i} (-1 if unknown; the reader always knows them). */
  public long batchRows(int i) {
    return rows[i];
  }

  /** The rows of every batch. */
  public long numRows() {
    long total = 0;
    for (long r : rows) {
      total += r;
    }
    return total;
  }
}
