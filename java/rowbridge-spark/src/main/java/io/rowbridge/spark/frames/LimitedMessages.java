package io.rowbridge.spark.frames;

import io.rowbridge.RowbridgeException;
import io.rowbridge.spark.cache.CacheCompression;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.util.ArrowUtils;

/**
 * The first {@code limit} rows of a stream of Arrow IPC record batch messages: whole messages while
 * they fit, then the message that crosses the limit cut to the rows left (read, decompressed where
 * it is compressed, sliced and written anew, uncompressed), then nothing: no further message is
 * asked for. {@link #rows} and {@link #head} serve the driver, which cuts the job's concatenated
 * partitions the same way.
 */
public final class LimitedMessages implements Iterator<byte[]> {
  private final Iterator<byte[]> messages;
  private final Schema schema;
  private long left;

  /** The first {@code limit} rows of {@code messages}, record batches of {@code schema}. */
  public LimitedMessages(Iterator<byte[]> messages, long limit, Schema schema) {
    this.messages = messages;
    this.schema = schema;
    this.left = limit;
  }

  @Override
  public boolean hasNext() {
    return left > 0 && messages.hasNext();
  }

  @Override
  public byte[] next() {
    if (!hasNext()) {
      throw new NoSuchElementException("rowbridge: no more messages under the limit");
    }
    byte[] message = messages.next();
    long rows = rows(message);
    if (rows <= left) {
      left -= rows;
      return message;
    }
    byte[] cut = head(message, schema, (int) left);
    left = 0;
    return cut;
  }

  /** The rows of a record batch message (the length its header says). */
  public static long rows(byte[] message) {
    ByteBuffer framing = ByteBuffer.wrap(message).order(ByteOrder.LITTLE_ENDIAN);
    if (message.length < 8 || framing.getInt(0) != -1) {
      throw new RowbridgeException("rowbridge: a batch message without its continuation marker");
    }
    int metadataLength = framing.getInt(4);
    if (metadataLength <= 0 || metadataLength > message.length - 8) {
      throw new RowbridgeException("rowbridge: a batch message of metadata " + metadataLength);
    }
    ByteBuffer metadata = ByteBuffer.wrap(message, 8, metadataLength).slice();
    Message header = Message.getRootAsMessage(metadata.order(ByteOrder.LITTLE_ENDIAN));
    if (header.headerType() != MessageHeader.RecordBatch) {
      throw new RowbridgeException("rowbridge: a batch message is not an Arrow record batch");
    }
    return ((RecordBatch) header.header(new RecordBatch())).length();
  }

  /**
   * The message of the first {@code rows} rows of {@code message}, a record batch of {@code
   * schema}.
   */
  public static byte[] head(byte[] message, Schema schema, int rows) {
    try (BufferAllocator allocator =
            ArrowUtils.rootAllocator()
                .newChildAllocator("rowbridge's cut of a batch", 0, Long.MAX_VALUE);
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      ReadChannel in = new ReadChannel(Channels.newChannel(new ByteArrayInputStream(message)));
      try (ArrowRecordBatch batch = MessageSerializer.deserializeRecordBatch(in, allocator)) {
        new VectorLoader(root, CacheCompression.DECOMPRESSION).load(batch);
      }
      try (VectorSchemaRoot first = root.slice(0, rows);
          ArrowRecordBatch cut = new VectorUnloader(first).getRecordBatch()) {
        return ColumnarBatchMessages.serialize(cut);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("rowbridge: reading a batch message to cut it", e);
    }
  }
}
