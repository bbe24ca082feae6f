package io.rowbridge.scan;

import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What an Arrow IPC file's footer (and its batches' metadata, never their bodies) says: the
 * schema, the record batches, each batch's body size and row count. A data source splits a file
 * into batch ranges of about equal bytes with it.
 */
public final class IpcFileInfo {
  private final Schema schema;
  private final boolean fileFormat;
  private final long inputBytes;
  private final long[] rows;
  private final long[] bodyBytes;
  private final long[] uncompressedBytes;

  IpcFileInfo(Schema schema, boolean fileFormat, long inputBytes, long[] rows, long[] bodyBytes,
      long[] uncompressedBytes) {
    this.schema = schema;
    this.fileFormat = fileFormat;
    this.inputBytes = inputBytes;
    this.rows = rows;
    this.bodyBytes = bodyBytes;
    this.uncompressedBytes = uncompressedBytes;
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
