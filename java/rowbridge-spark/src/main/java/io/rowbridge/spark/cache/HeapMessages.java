package io.rowbridge.spark.cache;

import io.rowbridge.RowbridgeException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;

/**
 * Arrow IPC messages (stream framing: continuation marker, metadata length, flatbuffer metadata,
 * body) written into and read out of heap arrays with one copy each way: a record batch's buffers
 * are copied once into the array, and a read copies the body once into off-heap memory, which the
 * loaded vectors then share. Stateless.
 */
final class HeapMessages {
  private HeapMessages() {}

  /** {@code batch} as one message in a heap array of exactly its size. Borrows the batch. */
  static byte[] of(ArrowRecordBatch batch) {
    HeapChannel channel = new HeapChannel();
    try {
      MessageSerializer.serialize(new WriteChannel(channel), batch); // counts the bytes
      channel.allocate();
      MessageSerializer.serialize(new WriteChannel(channel), batch);
    } catch (IOException e) {
      throw new IllegalStateException("a heap channel does not fail", e);
    }
    return channel.bytes();
  }

  /** {@code schema} as one schema message. */
  static byte[] of(Schema schema) {
    HeapChannel channel = new HeapChannel();
    try {
      MessageSerializer.serialize(new WriteChannel(channel), schema);
      channel.allocate();
      MessageSerializer.serialize(new WriteChannel(channel), schema);
    } catch (IOException e) {
      throw new IllegalStateException("a heap channel does not fail", e);
    }
    return channel.bytes();
  }

  /** The schema of a schema message. */
  static Schema schema(byte[] message) {
    try {
      return MessageSerializer.deserializeSchema(
          new ReadChannel(new ByteArrayReadableSeekableByteChannel(message)));
    } catch (IOException | RuntimeException e) {
      throw new RowbridgeException(
          "rowbridge: a cached batch's schema message ("
              + message.length
              + " bytes) does not read: "
              + e);
    }
  }

  /**
   * The record batch of a message, its body copied once into a buffer of {@code allocator}. The
   * caller closes the batch (its buffers live on in the vectors it was loaded into).
   */
  static ArrowRecordBatch recordBatch(
      byte[] message, BufferAllocator allocator, int column, long batch) {
    ByteBuffer framing = ByteBuffer.wrap(message).order(ByteOrder.LITTLE_ENDIAN);
    if (message.length < 8 || framing.getInt(0) != -1) {
      throw damaged(column, batch, message, "no continuation marker");
    }
    int metadataLength = framing.getInt(4);
    if (metadataLength <= 0 || metadataLength > message.length - 8) {
      throw damaged(column, batch, message, "a metadata length of " + metadataLength);
    }
    ByteBuffer metadata = ByteBuffer.wrap(message, 8, metadataLength).slice();
    metadata.order(ByteOrder.LITTLE_ENDIAN);
    Message header = Message.getRootAsMessage(metadata);
    long bodyLength = header.bodyLength();
    long bodyStart = 8L + metadataLength;
    if (header.headerType() != MessageHeader.RecordBatch
        || bodyLength < 0
        || bodyStart + bodyLength > message.length) {
      throw damaged(column, batch, message, "not a record batch of " + bodyLength + " body bytes");
    }
    ArrowBuf body = allocator.buffer(bodyLength);
    try {
      body.setBytes(0, message, (int) bodyStart, bodyLength);
      body.writerIndex(bodyLength);
      // Takes over the body's reference: the record batch's buffers are slices of it.
      return MessageSerializer.deserializeRecordBatch(header, body);
    } catch (IOException | RuntimeException e) {
      if (body.refCnt() > 0) {
        body.close();
      }
      throw damaged(column, batch, message, e.toString());
    }
  }

  /** Names column {@code column} of cached batch {@code batch} (built for errors only). */
  static String columnName(int column, long batch) {
    return "column " + column + " of cached batch " + batch;
  }

  private static RowbridgeException damaged(int column, long batch, byte[] message, String detail) {
    return new RowbridgeException(
        "rowbridge: "
            + columnName(column, batch)
            + " ("
            + message.length
            + " bytes) is damaged: "
            + detail);
  }

  /**
   * A channel that first counts what a message writes ({@code bytes} null), then, after {@link
   * #allocate}, writes the same message into an array of exactly that size.
   */
  private static final class HeapChannel implements WritableByteChannel {
    private byte[] bytes;
    private long size;

    void allocate() {
      if (size > Integer.MAX_VALUE - 16) {
        throw new RowbridgeException(
            "rowbridge: a cached column's message of "
                + size
                + " bytes passes 2 GiB: lower spark.sql.inMemoryColumnarStorage.batchSize");
      }
      bytes = new byte[(int) size];
      size = 0;
    }

    @Override
    public int write(ByteBuffer source) {
      int n = source.remaining();
      if (bytes == null) {
        source.position(source.limit());
      } else {
        source.get(bytes, (int) size, n);
      }
      size += n;
      return n;
    }

    byte[] bytes() {
      if (bytes == null || size != bytes.length) {
        throw new IllegalStateException("the message wrote " + size + " bytes, counted before");
      }
      return bytes;
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }
}
