package io.rowbridge.spark.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.SortedAnswer;
import io.rowbridge.spark.storage.LocalS3;
import io.rowbridge.spark.storage.MiniHdfs;
import io.rowbridge.spark.storage.StorageSessions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.SparkException;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.datasources.FilePartition;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * format("rowbridge") over real storage servers, read through Hadoop's FileSystem: an HDFS mini
 * cluster in this JVM (a NameNode, 2 DataNodes, 1 MiB blocks) and S3Proxy read through s3a://. The
 * oracle is the same query over the local copies of the files (memory-mapped): the same rows in
 * both modes, with column pruning, partition pruning, several partitions per file, and files
 * written by Arrow Java (plain and zstd) and by pyarrow (every type). Also: each partition reports
 * the hosts of its HDFS blocks, and storage failures are named errors.
 */
class StorageSourceTest {
  private static MiniHdfs hdfs;
  private static LocalS3 s3;
  private static SparkSession spark;
  private static Path dir;

  @BeforeAll
  static void start() throws Exception {
    dir = Files.createTempDirectory("rowbridge-storage-test");
    Path flat = Files.createDirectories(dir.resolve("flat"));
    TestFiles.write(flat.resolve("part-0.arrow"), 0, 12, 5000); // ~3 MiB: several blocks
    TestFiles.writeCompressed(flat.resolve("part-1.arrow"), 60_000, 5, 3000);
    TestFiles.writeStream(flat.resolve("part-2.arrows"), 75_000, 3, 1000);
    TestData.writePartitioned(dir.resolve("parted"));
    // 3000 one-row batches: a footer of 72 KB, larger than the 64 KiB first read of a file.
    TestFiles.write(Files.createDirectories(dir.resolve("tiny")).resolve("many.arrow"), 0, 3000, 1);
    PyarrowFiles.write(Files.createDirectories(dir.resolve("pyarrow")));
    hdfs = MiniHdfs.start();
    s3 = LocalS3.launch();
    hdfs.fileSystem()
        .copyFromLocalFile(
            false,
            true,
            new org.apache.hadoop.fs.Path(dir.toUri()),
            new org.apache.hadoop.fs.Path(hdfs.uri() + "/data"));
    try (var files = Files.walk(dir)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        s3.put(file, "data/" + dir.relativize(file));
      }
    }
    spark =
        StorageSessions.builder("local[2]", "rowbridge-storage-test", hdfs, s3)
            .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
            .getOrCreate();
  }

  @AfterAll
  static void stop() throws IOException {
    try {
      StorageSessions.stopAll(spark, s3, hdfs);
    } finally {
      TestFiles.deleteTree(dir);
    }
  }

  private static String local(String relative) {
    return dir.resolve(relative).toString();
  }

  private static String hdfsPath(String relative) {
    return hdfs.uri() + "/data/" + relative;
  }

  private static String s3Path(String relative) {
    return s3.uri() + "data/" + relative;
  }

  private static DataFrameReader read(String mode) {
    return spark.read().format("rowbridge").option("mode", mode).option("splitBytes", "256k");
  }

  /** The queries of the test, each over {@code root} (a directory holding the test's data). */
  private static void sameAsLocal(java.util.function.Function<String, String> where) {
    for (String mode : new String[] {"auto", "rows"}) {
      String flat = where.apply("flat");
      assertEquals(
          SortedAnswer.of(read(mode).load(local("flat"))),
          SortedAnswer.of(read(mode).load(flat)),
          mode + ": " + flat);
      assertEquals(
          SortedAnswer.of(read(mode).load(local("flat")).select("d", "a")),
          SortedAnswer.of(read(mode).load(flat).select("d", "a")),
          mode + ": pruned columns");
      Dataset<Row> parted = read(mode).load(where.apply("parted")).where("kind = 'a'");
      assertEquals(
          SortedAnswer.of(read(mode).load(local("parted")).where("kind = 'a'")),
          SortedAnswer.of(parted),
          mode + ": partitions");
      assertEquals(2 * 400, parted.count(), mode + ": two partitions of kind a, 400 rows each");
      for (String name : pyarrowInputs()) {
        assertEquals(
            SortedAnswer.of(read(mode).load(local("pyarrow/" + name))),
            SortedAnswer.of(read(mode).load(where.apply("pyarrow/" + name))),
            mode + ": " + name);
      }
    }
  }

  private static List<String> pyarrowInputs() {
    try (var files = Files.list(dir.resolve("pyarrow"))) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> !n.endsWith(".readable.arrow"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void hdfsReadsTheRowsOfTheLocalCopies() {
    sameAsLocal(StorageSourceTest::hdfsPath);
  }

  @Test
  void s3ReadsTheRowsOfTheLocalCopies() {
    sameAsLocal(StorageSourceTest::s3Path);
  }

  @Test
  void fetchingOnTheTaskThreadReadsTheSameRows() {
    for (java.util.function.Function<String, String> where :
        List.<java.util.function.Function<String, String>>of(
            StorageSourceTest::hdfsPath, StorageSourceTest::s3Path)) {
      assertEquals(
          SortedAnswer.of(read("auto").load(local("flat")).select("e", "b")),
          SortedAnswer.of(
              read("auto").option("fetch", "task").load(where.apply("flat")).select("e", "b")));
    }
  }

  @Test
  void aFooterLargerThanTheFirstReadIsReadWhole() {
    for (String path : new String[] {hdfsPath("tiny/many.arrow"), s3Path("tiny/many.arrow")}) {
      assertEquals(
          SortedAnswer.of(read("rows").load(local("tiny/many.arrow"))),
          SortedAnswer.of(read("rows").load(path)),
          path);
    }
  }

  /** HDFS bytes read by this JVM's clients so far. */
  private static long hdfsBytesRead() {
    return FileSystem.getGlobalStorageStatistics().get("hdfs") == null
        ? 0
        : FileSystem.getGlobalStorageStatistics().get("hdfs").getLong("bytesRead");
  }

  @Test
  void prunedColumnsAreNotRead() {
    String flat = hdfsPath("flat/part-0.arrow");
    long before = hdfsBytesRead();
    read("auto").load(flat).selectExpr("sum(a)").collect();
    long pruned = hdfsBytesRead() - before;
    before = hdfsBytesRead();
    read("auto")
        .load(flat)
        .selectExpr("sum(a)", "max(d)", "max(size(e))", "sum(b)", "sum(c)")
        .collect();
    long all = hdfsBytesRead() - before;
    System.out.println("StorageSourceTest: one column read " + pruned + " bytes, all " + all);
    assertTrue(pruned > 0 && pruned * 2 < all, "column a: " + pruned + " of " + all + " bytes");
  }

  /** The partitions of a scan's plan. */
  private static List<PartitionedFile> partitionsOf(Dataset<Row> frame) {
    BatchScanExec scan =
        (BatchScanExec)
            frame
                .queryExecution()
                .executedPlan()
                .collectFirst(
                    new scala.runtime.AbstractPartialFunction<
                        org.apache.spark.sql.execution.SparkPlan, BatchScanExec>() {
                      @Override
                      public boolean isDefinedAt(org.apache.spark.sql.execution.SparkPlan plan) {
                        return plan instanceof BatchScanExec;
                      }

                      @Override
                      public BatchScanExec apply(org.apache.spark.sql.execution.SparkPlan plan) {
                        return (BatchScanExec) plan;
                      }
                    })
                .get();
    List<PartitionedFile> files = new ArrayList<>();
    scala.collection.Iterator<?> partitions = scan.inputPartitions().iterator();
    while (partitions.hasNext()) {
      files.addAll(Arrays.asList(((FilePartition) partitions.next()).files()));
    }
    return files;
  }

  @Test
  void eachPartitionReportsTheHostsOfItsBlocks() throws IOException {
    Dataset<Row> frame = read("auto").load(hdfsPath("flat/part-0.arrow"));
    List<PartitionedFile> files = partitionsOf(frame);
    assertTrue(files.size() >= 4, "a 3 MiB file in 256 KiB splits: " + files.size());
    FileSystem fs = hdfs.fileSystem();
    int spanning = 0;
    for (PartitionedFile file : files) {
      BlockLocation[] blocks = fs.getFileBlockLocations(file.toPath(), file.start(), file.length());
      Set<String> hosts = new HashSet<>();
      for (BlockLocation block : blocks) {
        hosts.addAll(Arrays.asList(block.getHosts()));
      }
      spanning += blocks.length > 1 ? 1 : 0;
      assertFalse(hosts.isEmpty());
      assertEquals(
          hosts,
          new HashSet<>(Arrays.asList(file.locations())),
          "bytes " + file.start() + "+" + file.length());
    }
    assertEquals(
        SortedAnswer.of(read("auto").load(local("flat/part-0.arrow"))), SortedAnswer.of(frame));
    System.out.println(
        "StorageSourceTest: " + files.size() + " partitions, " + spanning + " spanning two blocks");
  }

  @Test
  void storageFailuresAreNamedErrors() throws IOException {
    // A corrupt file on HDFS: the footer's error names it.
    Path garbage = dir.resolve("garbage.arrow");
    Files.write(garbage, new byte[4096]);
    hdfs.put(garbage, "/bad/garbage.arrow");
    Exception corrupt =
        assertThrows(
            Exception.class, () -> read("auto").load(hdfs.uri() + "/bad/garbage.arrow").collect());
    String named = StorageSessions.messages(corrupt);
    assertTrue(named.contains(hdfs.uri() + "/bad/garbage.arrow"), named);
    // A file deleted from S3 between planning and reading: the task names it and its bytes.
    org.apache.hadoop.fs.Path doomed = s3.put(dir.resolve("flat/part-1.arrow"), "doomed/a.arrow");
    Dataset<Row> frame = read("auto").load(doomed.toString());
    frame.queryExecution().executedPlan(); // planned: footers read
    s3.fileSystem().delete(doomed, false);
    SparkException gone = assertThrows(SparkException.class, frame::collect);
    String text = StorageSessions.messages(gone);
    assertTrue(text.contains("rowbridge: cannot read " + doomed) && text.contains("(bytes "), text);
  }
}
