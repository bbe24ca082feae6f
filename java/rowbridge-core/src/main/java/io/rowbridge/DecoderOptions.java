package io.rowbridge;

/** How large a {@link RowbridgeDecoder}'s batches grow, and who is told of its native memory. */
public final class DecoderOptions {
  /** The default row cap of a batch (Spark's own Arrow batches hold at most 10 000 rows). */
  public static final int DEFAULT_MAX_ROWS = 8192;

  /** The default byte cap of a batch's staged rows: 64 MiB. */
  public static final long DEFAULT_MAX_BYTES = 64L << 20;

  private int maxRows = DEFAULT_MAX_ROWS;
  private long maxBytes = DEFAULT_MAX_BYTES;
  private NativeMemoryListener memoryListener;

  public static DecoderOptions defaults() {
    return new DecoderOptions();
  }

  /** The most rows of one batch. */
  public int maxRows() {
    return maxRows;
  }

  public DecoderOptions maxRows(int value) {
    if (value < 1) {
      throw new IllegalArgumentException("rowbridge: maxRows must be positive, not " + value);
    }
    this.maxRows = value;
    return this;
  }

  /**
   * The most bytes of rows one batch stages (a single larger row is a batch of its own): this
   * bounds the staging buffer, and with it the vectors of a batch.
   */
  public long maxBytes() {
    return maxBytes;
  }

  public DecoderOptions maxBytes(long value) {
    if (value < 1) {
      throw new IllegalArgumentException("rowbridge: maxBytes must be positive, not " + value);
    }
    this.maxBytes = value;
    return this;
  }

  /**
   * Told of the native memory the decoder holds: its staging buffer, and the Arrow buffers of its
   * reused VectorSchemaRoot (which its allocator also counts). Null: nobody.
   */
  public NativeMemoryListener memoryListener() {
    return memoryListener;
  }

  public DecoderOptions memoryListener(NativeMemoryListener value) {
    this.memoryListener = value;
    return this;
  }
}
