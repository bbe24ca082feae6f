package io.rowbridge.scan;

import java.util.Arrays;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Where an Arrow IPC file keeps its messages, as its footer says: what a caller that fetches the
 * bytes itself reads, and what a data source splits the file by. A stream-format file has no
 * footer: {@link #fileFormat()} is false and it has no blocks.
 */
public final class FileLayout {
  private final boolean fileFormat;
  private final long size;
  private final long footerOffset;
  private final long[] dictionaryOffsets;
  private final long[] dictionaryBytes;
  private final long[] batchOffsets;
  private final long[] metadataBytes;
  private final long[] bodyBytes;
  private final Schema schema;

  private FileLayout(
      boolean fileFormat,
      long size,
      long footerOffset,
      long[] dictionaryOffsets,
      long[] dictionaryBytes,
      long[] batchOffsets,
      long[] metadataBytes,
      long[] bodyBytes,
      Schema schema) {
    this.fileFormat = fileFormat;
    this.size = size;
    this.footerOffset = footerOffset;
    this.dictionaryOffsets = dictionaryOffsets;
    this.dictionaryBytes = dictionaryBytes;
    this.batchOffsets = batchOffsets;
    this.metadataBytes = metadataBytes;
    this.bodyBytes = bodyBytes;
    this.schema = schema;
  }

  /** From ScanNative.imageOpen's answer. */
  static FileLayout of(long[] values, Schema schema, long size) {
    boolean file = values[0] == 1;
    if (!file) {
      long[] none = new long[0];
      return new FileLayout(false, size, size, none, none, none, none, none, schema);
    }
    int at = 1;
    long footer = values[at++];
    int dictionaries = Math.toIntExact(values[at++]);
    long[] dictionaryOffsets = new long[dictionaries];
    long[] dictionaryBytes = new long[dictionaries];
    for (int i = 0; i < dictionaries; i++) {
      dictionaryOffsets[i] = values[at++];
      dictionaryBytes[i] = values[at++];
    }
    int batches = Math.toIntExact(values[at++]);
    long[] offsets = new long[batches];
    long[] metadata = new long[batches];
    long[] body = new long[batches];
    for (int i = 0; i < batches; i++) {
      offsets[i] = values[at++];
      metadata[i] = values[at++];
      body[i] = values[at++];
    }
    return new FileLayout(
        true, size, footer, dictionaryOffsets, dictionaryBytes, offsets, metadata, body, schema);
  }

  public boolean fileFormat() {
    return fileFormat;
  }

  /** The Arrow schema of the whole file. */
  public Schema schema() {
    return schema;
  }

  public long size() {
    return size;
  }

  /** Where the footer starts; it runs to the end of the file. */
  public long footerOffset() {
    return footerOffset;
  }

  public int numDictionaries() {
    return dictionaryOffsets.length;
  }

  public long dictionaryOffset(int i) {
    return dictionaryOffsets[i];
  }

  /** Dictionary batch {@code i}'s whole message (framing, metadata and body), in bytes. */
  public long dictionaryBytes(int i) {
    return dictionaryBytes[i];
  }

  public int numBatches() {
    return batchOffsets.length;
  }

  public long batchOffset(int i) {
    return batchOffsets[i];
  }

  /** Record batch {@code i}'s framing and metadata, in bytes (its body follows). */
  public long batchMetadataBytes(int i) {
    return metadataBytes[i];
  }

  public long batchBodyBytes(int i) {
    return bodyBytes[i];
  }

  /**
   * As an {@link IpcFileInfo} (rows and uncompressed sizes unknown: -1); a stream-format file shows
   * as one batch spanning the file.
   */
  public IpcFileInfo toInfo() {
    if (!fileFormat) {
      return new IpcFileInfo(
          schema,
          false,
          size,
          new long[] {-1},
          new long[] {size},
          new long[] {-1},
          new long[] {0},
          new long[] {size});
    }
    int count = batchOffsets.length;
    long[] unknown = new long[count];
    Arrays.fill(unknown, -1);
    long[] messageBytes = new long[count];
    for (int i = 0; i < count; i++) {
      messageBytes[i] = metadataBytes[i] + bodyBytes[i];
    }
    return new IpcFileInfo(
        schema,
        fileFormat,
        size,
        unknown,
        bodyBytes.clone(),
        unknown.clone(),
        batchOffsets.clone(),
        messageBytes);
  }
}
