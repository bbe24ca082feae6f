package io.rowbridge.spark.cache;

import io.rowbridge.RowbridgeException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;

/**
 * Arrow IPC's LZ4_FRAME buffer compression, through the lz4-java library that Spark itself ships:
 * each buffer becomes one LZ4 frame behind the 8-byte uncompressed length the IPC format puts
 * first. The frame API works on streams, so a buffer passes through the heap on its way. Stateless;
 * any thread.
 */
final class Lz4FrameBufferCodec extends AbstractCompressionCodec {
  private static final long PREFIX = CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;

  @Override
  protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf plain) {
    int length = checkedLength(plain.writerIndex());
    byte[] input = new byte[length];
    plain.getBytes(0, input);
    ByteArrayOutputStream frame = new ByteArrayOutputStream(length / 2 + 64);
    // 64 KiB blocks: the frame reader allocates a block of the size the frame names per buffer,
    // and the default (4 MiB) made every small cached buffer allocate megabytes twice.
    try (LZ4FrameOutputStream out =
        new LZ4FrameOutputStream(frame, LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB)) {
      out.write(input);
    } catch (IOException e) {
      throw new RowbridgeException("rowbridge: lz4 could not compress a cached buffer: " + e);
    }
    byte[] packedBytes = frame.toByteArray();
    ArrowBuf packed = allocator.buffer(PREFIX + packedBytes.length);
    packed.setBytes(PREFIX, packedBytes);
    packed.writerIndex(PREFIX + packedBytes.length);
    return packed;
  }

  @Override
  protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf packed) {
    int length = checkedLength(readUncompressedLength(packed));
    byte[] frame = new byte[checkedLength(packed.writerIndex() - PREFIX)];
    packed.getBytes(PREFIX, frame);
    byte[] output = new byte[length];
    try (LZ4FrameInputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(frame))) {
      int filled = 0;
      while (filled < length) {
        int n = in.read(output, filled, length - filled);
        if (n < 0) {
          throw new IOException("the frame ends after " + filled + " of " + length + " bytes");
        }
        filled += n;
      }
    } catch (IOException e) {
      throw new RowbridgeException("rowbridge: a cached lz4 buffer is damaged: " + e.getMessage());
    }
    ArrowBuf plain = allocator.buffer(length);
    plain.setBytes(0, output);
    plain.writerIndex(length);
    return plain;
  }

  private static int checkedLength(long length) {
    if (length < 0 || length > Integer.MAX_VALUE - 64) {
      throw new RowbridgeException("rowbridge: a cached lz4 buffer of " + length + " bytes");
    }
    return (int) length;
  }

  @Override
  public CompressionUtil.CodecType getCodecType() {
    return CompressionUtil.CodecType.LZ4_FRAME;
  }
}
