package io.rowbridge.spark.frames;

import io.rowbridge.RowbridgeException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.MessageMetadataResult;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An Arrow IPC stream's bytes (a schema message, record batch messages, an optional end-of-stream
 * marker) split into its schema and its record batch messages, each message's bytes copied out
 * whole, as {@link RecordBatchMessages} and {@link PythonBatchesTable} take them.
 *
 * <p>Every length the stream claims is checked against the bytes there are, so a malformed or
 * truncated stream raises a {@link RowbridgeException} naming the stream and the byte where it
 * broke, never reads past its end. Dictionary batches are refused by name.
 */
public final class IpcStreamMessages {
  private final Schema schema;
  private final List<byte[]> batches;

  private IpcStreamMessages(Schema schema, List<byte[]> batches) {
    this.schema = schema;
    this.batches = batches;
  }

  /** The stream's schema. */
  public Schema schema() {
    return schema;
  }

  /** The stream's record batch messages, in order (owned by this object; not copied). */
  public List<byte[]> batches() {
    return batches;
  }

  /**
   * Splits {@code bytes}, an IPC stream; {@code what} names it in errors.
   *
   * @throws RowbridgeException when the bytes are not a stream of a schema and record batches
   */
  public static IpcStreamMessages split(byte[] bytes, String what) {
    int at = 0;
    Schema schema = null;
    List<byte[]> batches = new ArrayList<>();
    while (at < bytes.length) {
      ReadChannel channel =
          new ReadChannel(
              Channels.newChannel(new ByteArrayInputStream(bytes, at, bytes.length - at)));
      MessageMetadataResult message;
      try {
        message = MessageSerializer.readMessage(channel);
      } catch (IOException | RuntimeException e) {
        throw malformed(what, bytes, at, "its message metadata does not read: " + e.getMessage());
      }
      if (message == null) {
        if (!endOfStream(bytes, at)) {
          throw malformed(what, bytes, at, "it ends inside a message");
        }
        break;
      }
      long end = at + channel.bytesRead() + message.getMessageBodyLength();
      if (message.getMessageBodyLength() < 0 || end > bytes.length) {
        throw malformed(
            what,
            bytes,
            at,
            "a message claims a body of " + message.getMessageBodyLength() + " bytes");
      }
      byte type = message.getMessage().headerType();
      if (schema == null) {
        if (type != MessageHeader.Schema) {
          throw malformed(what, bytes, at, "the first message is not a schema");
        }
        try {
          schema = MessageSerializer.deserializeSchema(message.getMessage());
        } catch (RuntimeException e) {
          throw malformed(what, bytes, at, "its schema does not read: " + e.getMessage());
        }
      } else if (type == MessageHeader.RecordBatch) {
        batches.add(Arrays.copyOfRange(bytes, at, (int) end));
      } else if (type == MessageHeader.DictionaryBatch) {
        throw malformed(what, bytes, at, "dictionary batches are not taken here");
      } else {
        throw malformed(what, bytes, at, "a message of header type " + type + " is not a batch");
      }
      at = (int) end;
    }
    if (schema == null) {
      throw malformed(what, bytes, 0, "it has no schema message");
    }
    return new IpcStreamMessages(schema, batches);
  }

  /** Whether the bytes from {@code at} are exactly an end-of-stream marker (old or new form). */
  private static boolean endOfStream(byte[] bytes, int at) {
    int left = bytes.length - at;
    int zeros = at;
    if (left == 8) {
      for (int i = 0; i < 4; i++) {
        if (bytes[at + i] != (byte) 0xFF) {
          return false;
        }
      }
      zeros = at + 4;
    } else if (left != 4) {
      return false;
    }
    for (int i = zeros; i < bytes.length; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return true;
  }

  private static RowbridgeException malformed(String what, byte[] bytes, int at, String why) {
    return new RowbridgeException(
        "rowbridge: "
            + what
            + " ("
            + bytes.length
            + " bytes) is not a valid Arrow IPC stream at byte "
            + at
            + ": "
            + why);
  }
}
