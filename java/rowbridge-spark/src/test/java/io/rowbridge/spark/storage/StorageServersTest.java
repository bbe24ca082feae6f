package io.rowbridge.spark.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.spark.SortedAnswer;
import io.rowbridge.spark.source.TestData;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The storage servers of the remote-file tests, checked with Hadoop's own clients only: bytes
 * written to {@link MiniHdfs} and {@link LocalS3} read back by position and vectored, HDFS block
 * locations, a read from a stopped or frozen S3 server failing within the bound, and Spark's
 * Parquet reader over hdfs:// and s3a:// paths (the class path Spark needs for both).
 */
class StorageServersTest {
  /** Four and a half blocks of 1 MiB, and a tail: five HDFS blocks. */
  private static final int SIZE = (9 << 19) + 4321;

  private static MiniHdfs hdfs;
  private static LocalS3 s3;
  private static SparkSession spark;
  private static Path dir;
  private static Path local;
  private static byte[] data;

  @BeforeAll
  static void start() throws IOException {
    dir = Files.createTempDirectory("rowbridge-storage-test");
    data = new byte[SIZE];
    new Random(42).nextBytes(data);
    local = Files.write(dir.resolve("random.bin"), data);
    hdfs = MiniHdfs.start();
    s3 = LocalS3.launch();
    spark =
        StorageSessions.builder("local[2]", "rowbridge-storage-servers-test", hdfs, s3)
            .getOrCreate();
  }

  @AfterAll
  static void stop() throws IOException {
    try {
      StorageSessions.stopAll(spark, s3, hdfs);
    } finally {
      TestData.deleteTree(dir);
    }
  }

  /** Ranges in order, not overlapping: the start, across block boundaries, the last bytes. */
  private static List<FileRange> ranges() {
    return List.of(
        FileRange.createFileRange(0, 100),
        FileRange.createFileRange((1 << 20) - 1000, 5000),
        FileRange.createFileRange(3 << 20, (1 << 20) + 17),
        FileRange.createFileRange(SIZE - 321, 321));
  }

  /** Checks the listing, positioned reads and a vectored read of {@code path}. */
  private static void checkReads(FileSystem fs, org.apache.hadoop.fs.Path path) throws Exception {
    FileStatus[] listed = fs.listStatus(path.getParent());
    assertEquals(1, listed.length);
    assertEquals(path.getName(), listed[0].getPath().getName());
    assertEquals(SIZE, listed[0].getLen());
    try (FSDataInputStream in = fs.open(path)) {
      for (FileRange range : ranges()) {
        byte[] bytes = new byte[range.getLength()];
        in.readFully(range.getOffset(), bytes);
        assertArrayEquals(expected(range), bytes, "readFully at " + range.getOffset());
      }
      List<FileRange> ranges = ranges();
      in.readVectored(ranges, ByteBuffer::allocate);
      for (FileRange range : ranges) {
        ByteBuffer buffer = range.getData().get();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        assertArrayEquals(expected(range), bytes, "readVectored at " + range.getOffset());
      }
    }
  }

  private static byte[] expected(FileRange range) {
    return Arrays.copyOfRange(
        data, (int) range.getOffset(), (int) range.getOffset() + range.getLength());
  }

  @Test
  void hdfsReadsRangesOfAFileOfSeveralBlocks() throws Exception {
    org.apache.hadoop.fs.Path path = hdfs.put(local, "/ranges/random.bin");
    checkReads(hdfs.fileSystem(), path);
    BlockLocation[] blocks = hdfs.fileSystem().getFileBlockLocations(path, 0, SIZE);
    assertEquals(5, blocks.length);
    long offset = 0;
    for (BlockLocation block : blocks) {
      assertEquals(offset, block.getOffset());
      assertTrue(block.getLength() <= hdfs.blockSize());
      assertTrue(block.getHosts().length > 0, "hosts of block at " + offset);
      offset += block.getLength();
    }
    assertEquals(SIZE, offset);
  }

  @Test
  void s3ReadsRanges() throws Exception {
    org.apache.hadoop.fs.Path path = s3.put(local, "ranges/random.bin");
    checkReads(s3.fileSystem(), path);
  }

  /** Reads from position 0 after a later position, so the stream must send a new request. */
  private static Duration timeFailedRead(FSDataInputStream in) {
    long start = System.nanoTime();
    assertThrows(IOException.class, () -> in.readFully(0, new byte[1000]));
    return Duration.ofNanos(System.nanoTime() - start);
  }

  @Test
  void s3ReadFailsSoonOnceTheServerIsStoppedAndWorksAfterARestart() throws Exception {
    org.apache.hadoop.fs.Path path = s3.put(local, "stopped/random.bin");
    FileSystem fs = s3.fileSystem();
    try (FSDataInputStream in = fs.open(path)) {
      in.readFully(SIZE - 1000, new byte[1000]);
      s3.stop();
      Duration failed = timeFailedRead(in);
      assertTrue(failed.getSeconds() < LocalS3.FAILURE_BOUND_SECONDS, "failed after " + failed);
    } finally {
      s3.start();
    }
    // Same port, same objects: a new stream reads again.
    try (FSDataInputStream in = fs.open(path)) {
      byte[] bytes = new byte[1000];
      in.readFully(5000, bytes);
      assertArrayEquals(Arrays.copyOfRange(data, 5000, 6000), bytes);
    }
  }

  @Test
  void s3ReadFailsWithinTheBoundWhenTheServerHangs() throws Exception {
    org.apache.hadoop.fs.Path path = s3.put(local, "frozen/random.bin");
    try (FSDataInputStream in = s3.fileSystem().open(path)) {
      in.readFully(SIZE - 1000, new byte[1000]);
      s3.pause();
      try {
        Duration failed = timeFailedRead(in);
        assertTrue(failed.getSeconds() < LocalS3.FAILURE_BOUND_SECONDS, "failed after " + failed);
      } finally {
        s3.resume();
      }
    }
  }

  @Test
  void sparkReadsParquetFromHdfsAndS3() throws IOException {
    Path parquet = dir.resolve("parquet");
    spark
        .range(0, 20_000, 1, 2)
        .selectExpr("id", "id % 7 AS k", "CAST(id * 31 AS STRING) AS s")
        .write()
        .parquet(parquet.toString());
    try (DirectoryStream<Path> parts = Files.newDirectoryStream(parquet, "part-*.parquet")) {
      for (Path part : parts) {
        hdfs.put(part, "/parquet/" + part.getFileName());
        s3.put(part, "parquet/" + part.getFileName());
      }
    }
    String query = "count(*) AS n, sum(id) AS ids, sum(k) AS ks, sum(length(s)) AS chars";
    List<String> expected =
        SortedAnswer.of(spark.read().parquet(parquet.toString()).selectExpr(query.split(", ")));
    for (String root : List.of(hdfs.uri() + "/parquet", s3.uri() + "parquet")) {
      Dataset<Row> frame = spark.read().parquet(root).selectExpr(query.split(", "));
      assertEquals(expected, SortedAnswer.of(frame), root);
    }
  }
}
