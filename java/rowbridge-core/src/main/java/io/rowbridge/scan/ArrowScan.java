package io.rowbridge.scan;

import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A scan of an Arrow IPC file as Arrow Java record batches, for one consumer thread. Each batch is
 * decoded by a native worker and imported through the Arrow C Data Interface (arrow-c-data) into
 * one reused {@link VectorSchemaRoot}, whose buffers point at the native batch: no copy.
 * Dictionary-encoded columns hold their indices; their dictionaries are in {@link #dictionaries()}.
 *
 * <p>A native failure (a corrupt batch, an unreadable file) is a {@link
 * io.rowbridge.RowbridgeException} with the native message, after the good batches before it.
 * {@link #cancel} may be called from any thread, also while the consumer is blocked in {@link
 * #loadNextBatch}; {@link #close} (on the consumer's thread) frees everything, mid-stream too.
 */
public final class ArrowScan extends ScanBase {
  private final BufferAllocator allocator;
  private final CDataDictionaryProvider dictionaries;
  private final Schema schema;
  private final VectorSchemaRoot root;

  ArrowScan(ScanInput input, ScanOptions options, BufferAllocator allocator) {
    this(input, options, checked(allocator), new CDataDictionaryProvider());
  }

  private ArrowScan(
      ScanInput input,
      ScanOptions options,
      BufferAllocator allocator,
      CDataDictionaryProvider dictionaries) {
    super(NativeStream.openImported(input, options, false, allocator, dictionaries, null));
    this.allocator = allocator;
    this.dictionaries = dictionaries;
    this.schema = stream.schema();
    try {
      this.root = VectorSchemaRoot.create(schema, allocator);
    } catch (RuntimeException | Error e) {
      stream.close();
      dictionaries.close();
      throw e;
    }
  }

  private static BufferAllocator checked(BufferAllocator allocator) {
    if (allocator == null) {
      throw new IllegalArgumentException("rowbridge scan: no allocator (null)");
    }
    return allocator;
  }

  /** The Arrow schema of the batches (after the column selection). */
  public Schema schema() {
    return schema;
  }

  /**
   * Loads the next batch into {@link #getVectorSchemaRoot}; false at the end (the root then has no
   * rows). Waits when the next batch is not decoded yet, polling the interruption check of {@link
   * ScanOptions#interrupted(java.util.function.BooleanSupplier)} at every wake-up.
   */
  public boolean loadNextBatch() {
    return advance();
  }

  @Override
  int pollNext(long handle) {
    ArrowArray array = ArrowArray.allocateNew(allocator);
    try {
      int result = ScanNative.nextArray(handle, array.memoryAddress());
      if (result == ScanNative.BATCH) {
        Data.importIntoVectorSchemaRoot(allocator, array, root, dictionaries); // moves array
      }
      return result;
    } finally {
      array.close();
    }
  }

  @Override
  void onEnd() {
    root.clear();
  }

  /** The batch last loaded: one reused root, valid until the next load or close. */
  public VectorSchemaRoot getVectorSchemaRoot() {
    return root;
  }

  /** The dictionaries of dictionary-encoded columns, as of the batch last loaded. */
  public DictionaryProvider dictionaries() {
    return dictionaries;
  }

  /**
   * Closes the scan: waits for batches being decoded to reach their end, frees every native batch,
   * the file, the root and the dictionaries. Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      stream.close();
    } finally {
      root.close();
      dictionaries.close();
    }
  }
}
