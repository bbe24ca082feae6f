package io.rowbridge.spark.source;

import io.rowbridge.RowbridgeException;
import io.rowbridge.scan.FileLayout;
import io.rowbridge.scan.FilledFile;
import io.rowbridge.scan.IpcFileInfo;
import io.rowbridge.scan.NativeScan;
import io.rowbridge.scan.RowScan;
import io.rowbridge.scan.ScanOptions;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.util.functional.FutureIO;
import org.apache.spark.sql.types.StructType;

/**
 * One Arrow IPC file read through Hadoop's FileSystem (HDFS, S3A, ABFS, GCS, ...) into a {@link
 * FilledFile}: the head and footer first, then byte ranges. A stream that reads positioned bytes
 * into a direct buffer (HDFS) reads straight into the image; any other reads with {@code
 * readVectored} (which object stores serve with parallel ranged requests) into heap buffers copied
 * into the image. Failures are {@link RowbridgeException}s (EIO) naming the file, the byte range
 * and Hadoop's message.
 *
 * <p>Used by one thread at a time; {@link #close} may come from another (the image refuses writes
 * after it, so a read still in flight writes nothing).
 */
final class HadoopFile implements AutoCloseable {
  /** The bytes read from the end of the file first, expecting the footer to fit. */
  private static final int TAIL_BYTES = 64 << 10;

  /** Ranges closer than this are read as one (the gap is cheaper than another request). */
  static final long MERGE_GAP_BYTES = 64 << 10;

  private static final byte[] MAGIC = "ARROW1".getBytes(StandardCharsets.US_ASCII);

  private final Path path;
  private final FileStatus status;
  private final FSDataInputStream in;
  private final FilledFile image;

  /** The stream reads positioned bytes into direct buffers (ByteBufferPositionedReadable). */
  private final boolean direct;

  private HadoopFile(Path path, FileStatus status, FSDataInputStream in, FilledFile image) {
    this.path = path;
    this.status = status;
    this.in = in;
    this.image = image;
    this.direct = in.hasCapability(StreamCapabilities.PREADBYTEBUFFER);
  }

  /**
   * Opens {@code path} with {@code conf}. With {@code planned} (size and modification time when the
   * scan was planned, else -1), a file that changed since is an error naming both. A missing file
   * throws FileNotFoundException (the caller may skip it).
   */
  static HadoopFile open(Path path, Configuration conf, long plannedSize, long plannedModified)
      throws IOException {
    FileSystem fs = path.getFileSystem(conf);
    FileStatus status = fs.getFileStatus(path);
    if ((plannedSize >= 0 && status.getLen() != plannedSize)
        || (plannedModified > 0 && status.getModificationTime() != plannedModified)) {
      throw new RowbridgeException(
          "rowbridge: cannot read "
              + path
              + ": the file changed since "
              + "the scan was planned ("
              + plannedSize
              + " bytes, modified at "
              + plannedModified
              + " ms; now "
              + status.getLen()
              + " bytes, "
              + status.getModificationTime()
              + " ms)",
          RowbridgeException.EIO);
    }
    FSDataInputStream in =
        FutureIO.awaitFuture(
            fs.openFile(path)
                .withFileStatus(status)
                .opt("fs.option.openfile.read.policy", "vector, random")
                .build());
    try {
      return new HadoopFile(path, status, in, FilledFile.create(path.toString(), status.getLen()));
    } catch (RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /** The footer of {@code path}, read through Hadoop (rows and uncompressed sizes unknown). */
  static IpcFileInfo inspect(Path path, Configuration conf) throws IOException {
    try (HadoopFile file = open(path, conf, -1, -1)) {
      return file.readFooter(null, true).toInfo();
    }
  }

  /**
   * The Spark schema of {@code path}'s columns, for a file with dictionary-encoded columns (whose
   * Spark type is the value type the native scan reports).
   */
  static StructType sparkSchemaOf(Path path, Configuration conf) throws IOException {
    try (HadoopFile file = open(path, conf, -1, -1)) {
      file.readFooter(null, true);
      try (RowScan scan =
          NativeScan.openRows(file.image(), ScanOptions.defaults().batchRange(0, 0), null)) {
        return scan.sparkSchema();
      }
    }
  }

  FilledFile image() {
    return image;
  }

  /**
   * Reads the head and the footer (a stream-format file: all of it) and opens the image for a scan
   * of {@code columns} (null: all). Returns its layout, with the whole file's schema.
   */
  FileLayout readFooter(int[] columns, boolean validateValues) {
    long size = status.getLen();
    long tail = Math.min(size, TAIL_BYTES);
    long head = Math.min(size, MAGIC.length);
    List<long[]> first = new ArrayList<>();
    first.add(new long[] {0, head});
    first.add(new long[] {size - tail, tail});
    List<FileRange> read = fetch(first, 0);
    long bytes = store(read);
    boolean file = size >= 2L * MAGIC.length + 4;
    for (int i = 0; i < MAGIC.length && file; i++) {
      file = byteAt(read, i) == MAGIC[i];
    }
    if (!file) {
      bytes = readAll(size); // the stream format: read in order, so all of it
    } else {
      long footer = 0;
      for (int i = 0; i < 4; i++) {
        footer |= (byteAt(read, size - 10 + i) & 0xFFL) << (8 * i);
      }
      long needed = Math.min(size, footer + 10);
      if (needed > tail) {
        bytes += readMerged(List.<long[]>of(new long[] {size - needed, needed - tail}), 0);
      }
    }
    image.filled(-1, bytes);
    FileLayout layout = image.open(columns, validateValues);
    if (layout.fileFormat() && layout.numDictionaries() > 0) {
      List<long[]> dictionaries = new ArrayList<>();
      for (int i = 0; i < layout.numDictionaries(); i++) {
        dictionaries.add(new long[] {layout.dictionaryOffset(i), layout.dictionaryBytes(i)});
      }
      image.filled(-1, readMerged(dictionaries, MERGE_GAP_BYTES));
    }
    return layout;
  }

  /** The byte at {@code offset} among ranges already fetched. */
  private static byte byteAt(List<FileRange> ranges, long offset) {
    for (FileRange range : ranges) {
      if (offset >= range.getOffset() && offset < range.getOffset() + range.getLength()) {
        ByteBuffer data = range.getData().join(); // complete: fetch waited for it
        return data.get(data.position() + (int) (offset - range.getOffset()));
      }
    }
    throw new IllegalStateException("byte " + offset + " was not read");
  }

  /** Reads the whole file in order, in slices of at most 8 MiB. */
  private long readAll(long size) {
    long bytes = 0;
    for (long at = 0; at < size; at += 8 << 20) {
      bytes += readMerged(List.<long[]>of(new long[] {at, Math.min(8 << 20, size - at)}), 0);
    }
    return bytes;
  }

  /**
   * Reads {@code ranges} ({offset, length}, sorted or not), merged where closer than {@code gap},
   * into the image. Returns the bytes read (with the gaps), for the image's accounting.
   */
  long readMerged(List<long[]> ranges, long gap) {
    return direct ? readDirect(merge(ranges, gap)) : store(fetch(ranges, gap));
  }

  /** Positioned reads straight into the image, range by range. */
  private long readDirect(List<FileRange> ranges) {
    long bytes = 0;
    for (FileRange range : ranges) {
      ByteBuffer target = image.beginWrite(range.getOffset(), range.getLength());
      if (target == null) {
        throw failure(ranges, new InterruptedIOException("the scan was closed"));
      }
      try {
        in.readFully(range.getOffset(), target);
      } catch (IOException | RuntimeException e) {
        throw failure(List.of(range), e);
      } finally {
        image.endWrite();
      }
      bytes += range.getLength();
    }
    return bytes;
  }

  /** Reads the merged ranges with readVectored and waits for every one. */
  private List<FileRange> fetch(List<long[]> ranges, long gap) {
    List<FileRange> merged = merge(ranges, gap);
    try {
      in.readVectored(merged, ByteBuffer::allocate);
      for (FileRange range : merged) {
        ByteBuffer data = FutureIO.awaitFuture(range.getData());
        if (data.remaining() != range.getLength()) {
          throw new EOFException(
              "read "
                  + data.remaining()
                  + " of "
                  + range.getLength()
                  + " bytes at "
                  + range.getOffset());
        }
      }
      return merged;
    } catch (IOException | RuntimeException e) {
      throw failure(merged, e);
    }
  }

  /** Copies fetched ranges into the image; returns their bytes. */
  private long store(List<FileRange> ranges) {
    long bytes = 0;
    for (FileRange range : ranges) {
      ByteBuffer data = range.getData().join();
      if (!image.write(range.getOffset(), data)) {
        throw failure(ranges, new InterruptedIOException("the scan was closed"));
      }
      bytes += range.getLength();
    }
    return bytes;
  }

  private static List<FileRange> merge(List<long[]> ranges, long gap) {
    List<long[]> sorted = new ArrayList<>(ranges);
    sorted.removeIf(r -> r[1] <= 0);
    sorted.sort((a, b) -> Long.compare(a[0], b[0]));
    List<FileRange> merged = new ArrayList<>();
    long start = -1;
    long end = -1;
    for (long[] range : sorted) {
      if (start >= 0 && range[0] <= end + gap) {
        end = Math.max(end, range[0] + range[1]);
        continue;
      }
      if (start >= 0) {
        merged.add(FileRange.createFileRange(start, (int) (end - start)));
      }
      start = range[0];
      end = range[0] + range[1];
    }
    if (start >= 0) {
      merged.add(FileRange.createFileRange(start, (int) (end - start)));
    }
    return merged;
  }

  private RowbridgeException failure(List<FileRange> ranges, Exception e) {
    long from = ranges.isEmpty() ? 0 : ranges.get(0).getOffset();
    FileRange last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
    long to = last == null ? 0 : last.getOffset() + last.getLength();
    if (e instanceof RowbridgeException r && r.getMessage().contains(path.toString())) {
      return r;
    }
    String what =
        e instanceof FileNotFoundException
            ? "no such file (it existed when the scan " + "was planned): "
            : "";
    RowbridgeException failure =
        new RowbridgeException(
            "rowbridge: cannot read " + path + " (bytes " + from + "-" + to + "): " + what + e,
            RowbridgeException.EIO);
    failure.initCause(e);
    return failure;
  }

  @Override
  public void close() {
    image.close();
    try {
      in.close();
    } catch (IOException e) {
      // Nothing was lost: every byte the scan needed was read or its failure reported.
    }
  }
}
