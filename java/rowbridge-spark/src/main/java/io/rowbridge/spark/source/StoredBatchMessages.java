package io.rowbridge.spark.source;

import io.rowbridge.RowbridgeException;
import io.rowbridge.spark.frames.ColumnarBatchMessages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.LongAdder;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.TypeLayout;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.spark.sql.util.ArrowUtils;

/**
 * The record batch messages of one byte range of an Arrow IPC file (or a whole stream-format file),
 * as the file stores them: a batch of every column goes out as its bytes, compressed where the file
 * is, and a batch of some columns is cut to their field nodes and buffers, still compressed. The
 * reader of the messages decompresses them.
 *
 * <p>Each message's framing and lengths are checked against the range before its bytes are read, so
 * that a truncated or damaged file gives a {@link RowbridgeException} naming the file and the
 * offset; the body's contents are the reader's to check. A schema message (the stream format's
 * first) is skipped; a dictionary batch is an error, as the scan found no dictionary in the file's
 * schema. Owns the stream (closed at the end of the range or by {@link #close}) and the buffers it
 * allocates for cut batches. One thread.
 */
public final class StoredBatchMessages implements Iterator<byte[]>, AutoCloseable {
  private static final int CONTINUATION = -1;

  /** Messages this JVM sent whole, and cut to some columns, for tests. */
  private static final LongAdder WHOLE = new LongAdder();

  private static final LongAdder CUT = new LongAdder();

  private final String path;
  private final FSDataInputStream in;
  private final long end;
  private final BufferAllocator allocator;

  /** Per column read, its first field node and buffer and their counts; null: every column. */
  private final int[][] spans;

  private byte[] next;
  private boolean done;

  /**
   * @param path the file, for errors
   * @param in the file's stream, positioned at the range's first message (taken over)
   * @param end the offset where the range ends
   * @param fileSchema the file's Arrow schema
   * @param columns the file's columns to send, in order; null for every column
   */
  public StoredBatchMessages(
      String path, FSDataInputStream in, long end, Schema fileSchema, int[] columns) {
    this.path = path;
    this.in = in;
    this.end = end;
    this.allocator =
        ArrowUtils.rootAllocator()
            .newChildAllocator("rowbridge's stored batches of " + path, 0, Long.MAX_VALUE);
    this.spans = columns == null ? null : spans(fileSchema.getFields(), columns);
  }

  @Override
  public boolean hasNext() {
    if (next == null && !done) {
      try {
        next = read();
      } catch (IOException e) {
        close();
        throw new UncheckedIOException("rowbridge: reading " + path + ": " + e.getMessage(), e);
      } catch (RuntimeException e) {
        close();
        throw e;
      }
      if (next == null) {
        close();
      }
    }
    return next != null;
  }

  @Override
  public byte[] next() {
    if (!hasNext()) {
      throw new NoSuchElementException("rowbridge: no more batches in " + path);
    }
    byte[] message = next;
    next = null;
    return message;
  }

  /** The next record batch message of the range, or null at its end. */
  private byte[] read() throws IOException {
    while (true) {
      long offset = in.getPos();
      if (offset >= end) {
        return null;
      }
      byte[] prefix = new byte[8];
      int metadataLength;
      int framing;
      if (end - offset < 4) {
        throw damaged(offset, "a message prefix past the range's end");
      }
      in.readFully(prefix, 0, 4);
      int first = ByteBuffer.wrap(prefix).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
      if (first == CONTINUATION) {
        if (end - offset < 8) {
          throw damaged(offset, "a message prefix past the range's end");
        }
        in.readFully(prefix, 4, 4);
        metadataLength = ByteBuffer.wrap(prefix).order(ByteOrder.LITTLE_ENDIAN).getInt(4);
        framing = 8;
      } else {
        metadataLength = first; // the framing before the continuation marker
        framing = 4;
      }
      if (metadataLength == 0) {
        return null; // end of stream
      }
      if (metadataLength < 0 || metadataLength > end - offset - framing) {
        throw damaged(offset, "a metadata length of " + metadataLength);
      }
      byte[] metadata = new byte[metadataLength];
      in.readFully(metadata);
      Message header;
      try {
        header = Message.getRootAsMessage(ByteBuffer.wrap(metadata).order(ByteOrder.LITTLE_ENDIAN));
      } catch (RuntimeException e) {
        throw damaged(offset, "metadata that does not parse: " + e);
      }
      long bodyLength = header.bodyLength();
      long bodyStart = offset + framing + metadataLength;
      if (bodyLength < 0 || bodyLength > end - bodyStart || bodyLength > Integer.MAX_VALUE - 64) {
        throw damaged(offset, "a body of " + bodyLength + " bytes");
      }
      switch (header.headerType()) {
        case MessageHeader.Schema:
          in.seek(bodyStart + bodyLength);
          continue;
        case MessageHeader.RecordBatch:
          if (spans == null) {
            WHOLE.increment();
            return whole(metadata, (int) bodyLength);
          }
          CUT.increment();
          return cut(header, (int) bodyLength, offset);
        default:
          throw damaged(
              offset, "a message of type " + header.headerType() + ", not a record batch");
      }
    }
  }

  /** The message as it is, with the continuation marker before its metadata length. */
  private byte[] whole(byte[] metadata, int bodyLength) throws IOException {
    byte[] message = new byte[8 + metadata.length + bodyLength];
    ByteBuffer framing = ByteBuffer.wrap(message).order(ByteOrder.LITTLE_ENDIAN);
    framing.putInt(0, CONTINUATION);
    framing.putInt(4, metadata.length);
    System.arraycopy(metadata, 0, message, 8, metadata.length);
    in.readFully(message, 8 + metadata.length, bodyLength);
    return message;
  }

  /** The message of the columns read, their buffers as stored. */
  private byte[] cut(Message header, int bodyLength, long offset) throws IOException {
    byte[] bytes = new byte[bodyLength];
    in.readFully(bytes);
    ArrowBuf body = allocator.buffer(bodyLength);
    body.setBytes(0, bytes);
    body.writerIndex(bodyLength);
    ArrowRecordBatch all;
    try {
      all = MessageSerializer.deserializeRecordBatch(header, body);
    } catch (IOException | RuntimeException e) {
      if (body.refCnt() > 0) {
        body.close();
      }
      throw damaged(offset, "a record batch that does not read: " + e);
    }
    try {
      List<ArrowFieldNode> nodes = all.getNodes();
      List<ArrowBuf> buffers = all.getBuffers();
      List<ArrowFieldNode> keptNodes = new ArrayList<>();
      List<ArrowBuf> keptBuffers = new ArrayList<>();
      for (int[] span : spans) {
        if (span[0] + span[1] > nodes.size() || span[2] + span[3] > buffers.size()) {
          throw damaged(
              offset, nodes.size() + " field nodes and " + buffers.size() + " buffers, too few");
        }
        keptNodes.addAll(nodes.subList(span[0], span[0] + span[1]));
        keptBuffers.addAll(buffers.subList(span[2], span[2] + span[3]));
      }
      try (ArrowRecordBatch kept =
          new ArrowRecordBatch(all.getLength(), keptNodes, keptBuffers, all.getBodyCompression())) {
        return ColumnarBatchMessages.serialize(kept);
      }
    } finally {
      all.close();
    }
  }

  /** The messages made in this JVM so far: {@code [sent whole, cut to some columns]}. */
  public static long[] messagesMade() {
    return new long[] {WHOLE.sum(), CUT.sum()};
  }

  /** Per column read: its first field node, node count, first buffer and buffer count. */
  private static int[][] spans(List<Field> fields, int[] columns) {
    int[] firstNode = new int[fields.size() + 1];
    int[] firstBuffer = new int[fields.size() + 1];
    for (int i = 0; i < fields.size(); i++) {
      firstNode[i + 1] = firstNode[i] + nodeCount(fields.get(i));
      firstBuffer[i + 1] = firstBuffer[i] + bufferCount(fields.get(i));
    }
    int[][] spans = new int[columns.length][];
    for (int i = 0; i < columns.length; i++) {
      int c = columns[i];
      spans[i] =
          new int[] {
            firstNode[c],
            firstNode[c + 1] - firstNode[c],
            firstBuffer[c],
            firstBuffer[c + 1] - firstBuffer[c]
          };
    }
    return spans;
  }

  private static int nodeCount(Field field) {
    int count = 1;
    for (Field child : field.getChildren()) {
      count += nodeCount(child);
    }
    return count;
  }

  private static int bufferCount(Field field) {
    int count = TypeLayout.getTypeBufferCount(field.getType());
    for (Field child : field.getChildren()) {
      count += bufferCount(child);
    }
    return count;
  }

  private RowbridgeException damaged(long offset, String detail) {
    return new RowbridgeException(
        "rowbridge: " + path + " has a damaged message at byte " + offset + ": " + detail);
  }

  @Override
  public void close() {
    if (done) {
      return;
    }
    done = true;
    allocator.close();
    try {
      in.close();
    } catch (IOException e) {
      throw new UncheckedIOException("rowbridge: closing " + path, e);
    }
  }
}
