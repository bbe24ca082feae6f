package io.rowbridge.spark.cache;

import java.util.Locale;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;

/**
 * How the cache compresses its Arrow buffers ({@code spark.rowbridge.cache.compression}): none, lz4
 * (LZ4_FRAME) or zstd, each buffer on its own as Arrow IPC's body compression does. A buffer that
 * would not shrink is kept as it is, which the IPC format marks per buffer.
 */
public enum CacheCompression {
  NONE,
  LZ4,
  ZSTD;

  /** zstd's level for the cache: fast to build, and most of zstd's ratio on columnar buffers. */
  static final int ZSTD_LEVEL = 1;

  /**
   * The compression named {@code name} (none, lz4 or zstd, in any case).
   *
   * @throws IllegalArgumentException naming the setting and its values otherwise
   */
  public static CacheCompression of(String name) {
    switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "none":
        return NONE;
      case "lz4":
        return LZ4;
      case "zstd":
        return ZSTD;
      default:
        throw new IllegalArgumentException(
            "spark.rowbridge.cache.compression must be none, lz4 or zstd, not '" + name + "'");
    }
  }

  /** A codec that compresses buffers this way (new per call: codecs are cheap and stateless). */
  CompressionCodec codec() {
    switch (this) {
      case LZ4:
        return new Lz4FrameBufferCodec();
      case ZSTD:
        return new ZstdBufferCodec(ZSTD_LEVEL);
      default:
        return NoCompressionCodec.INSTANCE;
    }
  }

  /** What decompresses a loaded batch: the codec its message names, whichever that is. */
  public static final CompressionCodec.Factory DECOMPRESSION =
      new CompressionCodec.Factory() {
        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType type) {
          switch (type) {
            case LZ4_FRAME:
              return new Lz4FrameBufferCodec();
            case ZSTD:
              return new ZstdBufferCodec(ZSTD_LEVEL);
            default:
              return NoCompressionCodec.INSTANCE;
          }
        }

        // Abstract in Arrow Java 18, absent in 12: no @Override, so that both lines compile.
        public CompressionCodec createCodec(CompressionUtil.CodecType type, int level) {
          return createCodec(type);
        }
      };
}
