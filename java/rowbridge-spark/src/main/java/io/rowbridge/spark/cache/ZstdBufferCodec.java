package io.rowbridge.spark.cache;

import com.github.luben.zstd.Zstd;
import io.rowbridge.RowbridgeException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;

/**
 * Arrow IPC's ZSTD buffer compression, through the zstd-jni library that Spark itself ships: each
 * buffer is compressed on its own, off-heap to off-heap, behind the 8-byte uncompressed length the
 * IPC format puts first. Stateless; any thread.
 */
final class ZstdBufferCodec extends AbstractCompressionCodec {
  private static final long PREFIX = CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;

  private final int level;

  ZstdBufferCodec(int level) {
    this.level = level;
  }

  @Override
  protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf plain) {
    long length = plain.writerIndex();
    long bound = Zstd.compressBound(length);
    ArrowBuf packed = allocator.buffer(PREFIX + bound);
    long written =
        Zstd.compressUnsafe(
            packed.memoryAddress() + PREFIX, bound, plain.memoryAddress(), length, level);
    if (Zstd.isError(written)) {
      packed.close();
      throw new RowbridgeException(
          "rowbridge: zstd could not compress a cached buffer of "
              + length
              + " bytes: "
              + Zstd.getErrorName(written));
    }
    packed.writerIndex(PREFIX + written);
    return packed;
  }

  @Override
  protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf packed) {
    long length = readUncompressedLength(packed);
    ArrowBuf plain = allocator.buffer(length);
    long read =
        Zstd.decompressUnsafe(
            plain.memoryAddress(),
            length,
            packed.memoryAddress() + PREFIX,
            packed.writerIndex() - PREFIX);
    if (Zstd.isError(read) || read != length) {
      plain.close();
      throw new RowbridgeException(
          "rowbridge: a cached zstd buffer is damaged: "
              + (Zstd.isError(read) ? Zstd.getErrorName(read) : read + " bytes, not " + length));
    }
    plain.writerIndex(length);
    return plain;
  }

  @Override
  public CompressionUtil.CodecType getCodecType() {
    return CompressionUtil.CodecType.ZSTD;
  }
}
