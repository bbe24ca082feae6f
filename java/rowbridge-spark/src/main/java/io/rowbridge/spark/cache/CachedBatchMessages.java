package io.rowbridge.spark.cache;

import io.rowbridge.RowbridgeException;
import io.rowbridge.spark.frames.BatchMessages;
import io.rowbridge.spark.python.RecordBatchBuilder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.apache.arrow.flatbuf.BodyCompressionMethod;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.compression.NoCompressionCodec;
import org.apache.arrow.vector.ipc.message.ArrowBodyCompression;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.columnar.CachedBatch;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The Arrow cache's batches as Arrow IPC record batch messages with their buffers as the cache
 * stores them, compressed where the cache compresses (the reader decompresses): each cached batch's
 * one-column messages of the columns asked for become one message, their field nodes and buffers
 * concatenated under the cache's codec. A compact decimal column ({@link CompactDecimals}) is
 * widened back to decimal128 and its buffers go uncompressed (marked so per buffer, as the IPC
 * format allows); a column kept uncompressed in a compressed batch is marked the same way.
 *
 * <p>A batch whose columns are not of the expected Arrow types (but for a timestamp's zone label),
 * or whose columns use different codecs, goes through {@link CachedBatchReader} and {@code
 * fallback} instead. Each message is made from the cached bytes before the next batch is read. The
 * buffers belong to this iterator's allocator, freed when the task completes.
 */
public final class CachedBatchMessages extends BatchMessages<CachedBatch> {
  private static final long UNCOMPRESSED = -1L;

  /** Messages this JVM made with the buffers as stored, and through the reader, for tests. */
  private static final LongAdder STORED = new LongAdder();

  private static final LongAdder READ = new LongAdder();

  private final int[] columns;
  private final List<Field> expected;
  private final BufferAllocator allocator;
  private final Function<ColumnarBatch, byte[]> fallback;

  /** The schema message the column plans below are for. */
  private byte[] schemaMessage;

  /** Per column asked for: its cached field when it goes as stored or widened; null if neither. */
  private Field[] cachedFields;

  /** Per column asked for: the vectors a compact decimal is read into and widened to; else null. */
  private VectorSchemaRoot[] compact;

  private DecimalVector[] wide;
  private final OneBatch pending = new OneBatch();
  private CachedBatchReader reader;
  private long index;

  /**
   * @param batches the partition's cached batches, each an {@link ArrowCachedBatch}
   * @param columns the cached columns to send, by position, in output order
   * @param expected the stream's Arrow schema, one field per column
   * @param fallback the message of a batch read by {@link CachedBatchReader} (its columns in
   *     order), for batches that cannot go as stored
   */
  public CachedBatchMessages(
      Iterator<CachedBatch> batches,
      int[] columns,
      Schema expected,
      Function<ColumnarBatch, byte[]> fallback) {
    super(batches);
    if (columns.length != expected.getFields().size()) {
      throw new IllegalArgumentException(
          "rowbridge: "
              + columns.length
              + " cached columns for an Arrow schema of "
              + expected.getFields().size()
              + " fields");
    }
    this.columns = columns.clone();
    this.expected = expected.getFields();
    this.fallback = fallback;
    this.allocator =
        ArrowUtils.rootAllocator()
            .newChildAllocator("rowbridge's cached batches to Python", 0, Long.MAX_VALUE);
    TaskContext task = TaskContext.get();
    if (task != null) {
      task.addTaskCompletionListener((TaskContext context) -> close());
    }
  }

  @Override
  protected byte[] messageOf(CachedBatch batch) {
    long number = index++;
    if (!(batch instanceof ArrowCachedBatch cached)) {
      throw new RowbridgeException(
          "rowbridge: cached batch "
              + number
              + " is a "
              + batch.getClass().getName()
              + ", not one of rowbridge's Arrow cache");
    }
    return cached.numRows() > 0 ? message(cached, number) : null;
  }

  private byte[] message(ArrowCachedBatch cached, long number) {
    if (cached.schemaMessage() != schemaMessage) {
      plan(cached);
    }
    List<ArrowRecordBatch> read = new ArrayList<>(columns.length);
    try {
      byte codec = NoCompressionCodec.COMPRESSION_TYPE;
      for (int i = 0; i < columns.length; i++) {
        if (cachedFields[i] == null) {
          return throughReader(cached);
        }
        ArrowRecordBatch column =
            HeapMessages.recordBatch(
                cached.columnMessage(columns[i]), allocator, columns[i], number);
        read.add(column);
        byte own = column.getBodyCompression().getCodec();
        if (own != NoCompressionCodec.COMPRESSION_TYPE && compact[i] == null) {
          if (codec != NoCompressionCodec.COMPRESSION_TYPE && codec != own) {
            return throughReader(cached);
          }
          codec = own;
        }
      }
      byte[] message = combined(read, cached.numRows(), codec);
      STORED.increment();
      return message;
    } finally {
      read.forEach(ArrowRecordBatch::close);
    }
  }

  /** The columns' batches as one message under {@code codec}. */
  private byte[] combined(List<ArrowRecordBatch> read, int rows, byte codec) {
    boolean compressed = codec != NoCompressionCodec.COMPRESSION_TYPE;
    List<ArrowFieldNode> nodes = new ArrayList<>();
    List<ArrowBuf> buffers = new ArrayList<>();
    List<ArrowBuf> owned = new ArrayList<>();
    List<ArrowRecordBatch> widened = new ArrayList<>();
    try {
      for (int i = 0; i < columns.length; i++) {
        ArrowRecordBatch column = read.get(i);
        if (compact[i] != null) {
          column = widen(i, column, rows);
          widened.add(column);
        }
        nodes.addAll(column.getNodes());
        boolean marked =
            compressed
                && column.getBodyCompression().getCodec() == NoCompressionCodec.COMPRESSION_TYPE;
        for (ArrowBuf buffer : column.getBuffers()) {
          if (marked && buffer.writerIndex() > 0) {
            ArrowBuf prefixed = uncompressedInCompressed(buffer);
            owned.add(prefixed);
            buffers.add(prefixed);
          } else {
            buffers.add(buffer);
          }
        }
      }
      ArrowBodyCompression compression =
          compressed
              ? new ArrowBodyCompression(codec, BodyCompressionMethod.BUFFER)
              : NoCompressionCodec.DEFAULT_BODY_COMPRESSION;
      try (ArrowRecordBatch batch = new ArrowRecordBatch(rows, nodes, buffers, compression)) {
        return HeapMessages.of(batch);
      }
    } finally {
      owned.forEach(ArrowBuf::close);
      widened.forEach(ArrowRecordBatch::close);
    }
  }

  /** Column {@code i}'s compact longs loaded, widened to decimal128 and unloaded (uncompressed). */
  private ArrowRecordBatch widen(int i, ArrowRecordBatch column, int rows) {
    new VectorLoader(compact[i], CacheCompression.DECOMPRESSION).load(column);
    CompactDecimals.widen((BigIntVector) compact[i].getVector(0), wide[i], rows);
    VectorSchemaRoot root =
        new VectorSchemaRoot(
            Collections.singletonList(wide[i].getField()),
            Collections.singletonList(wide[i]),
            rows);
    return new VectorUnloader(root).getRecordBatch();
  }

  /** {@code buffer} behind the length prefix that marks it uncompressed in a compressed body. */
  private ArrowBuf uncompressedInCompressed(ArrowBuf buffer) {
    long length = buffer.writerIndex();
    ArrowBuf prefixed = allocator.buffer(length + Long.BYTES);
    prefixed.setLong(0, UNCOMPRESSED);
    prefixed.setBytes(Long.BYTES, buffer, 0, length);
    prefixed.writerIndex(length + Long.BYTES);
    return prefixed;
  }

  /** Which columns of this schema go as stored, widened, or not at all. */
  private void plan(ArrowCachedBatch cached) {
    schemaMessage = cached.schemaMessage();
    List<Field> stored = HeapMessages.schema(schemaMessage).getFields();
    closeVectors();
    cachedFields = new Field[columns.length];
    compact = new VectorSchemaRoot[columns.length];
    wide = new DecimalVector[columns.length];
    for (int i = 0; i < columns.length; i++) {
      if (columns[i] < 0 || columns[i] >= stored.size() || columns[i] >= cached.numColumns()) {
        throw new RowbridgeException(
            "rowbridge: a cached batch of "
                + stored.size()
                + " columns has no column "
                + columns[i]);
      }
      Field field = stored.get(columns[i]);
      Field widened = CompactDecimals.wideField(field);
      if (widened != null && RecordBatchBuilder.fits(expected.get(i), widened)) {
        cachedFields[i] = field;
        compact[i] = VectorSchemaRoot.create(new Schema(List.of(field)), allocator);
        wide[i] = (DecimalVector) widened.createVector(allocator);
      } else if (widened == null && RecordBatchBuilder.fits(expected.get(i), field)) {
        cachedFields[i] = field;
      }
    }
  }

  /** The batch read by {@link CachedBatchReader}, then made a message by {@link #fallback}. */
  private byte[] throughReader(ArrowCachedBatch cached) {
    if (reader == null) {
      reader = new CachedBatchReader(pending, columns);
    }
    pending.batch = cached;
    READ.increment();
    return fallback.apply(reader.next());
  }

  /**
   * The messages made in this JVM so far: {@code [with the buffers as stored, through the reader]}.
   */
  public static long[] messagesMade() {
    return new long[] {STORED.sum(), READ.sum()};
  }

  private void closeVectors() {
    if (compact != null) {
      for (int i = 0; i < compact.length; i++) {
        if (compact[i] != null) {
          compact[i].close();
          wide[i].close();
        }
      }
    }
  }

  private void close() {
    if (reader != null) {
      reader.close();
    }
    closeVectors();
    allocator.close();
  }

  /** The one batch handed to the reader at a time. */
  private static final class OneBatch implements Iterator<CachedBatch> {
    CachedBatch batch;

    @Override
    public boolean hasNext() {
      return batch != null;
    }

    @Override
    public CachedBatch next() {
      if (batch == null) {
        throw new NoSuchElementException("rowbridge: no cached batch pending");
      }
      CachedBatch taken = batch;
      batch = null;
      return taken;
    }
  }
}
