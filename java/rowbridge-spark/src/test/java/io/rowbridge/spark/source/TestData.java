package io.rowbridge.spark.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Datasets the Spark suites of other packages share, written with {@link TestFiles}. */
public final class TestData {
  /**
   * Hive-style partition directories under the root, each with one file of {@link
   * TestFiles#schema()} (ids from 1000 × its index, 1 or 2 batches of 400 rows): 2400 rows in all,
   * one partition with a null {@code day}.
   */
  public static final String[] PARTITIONS = {
    "day=2026-12-01/kind=a",
    "day=2026-12-01/kind=b",
    "day=2026-12-02/kind=a",
    "day=__HIVE_DEFAULT_PARTITION__/kind=c"
  };

  private TestData() {}

  /** Writes {@link #PARTITIONS} under {@code root}; returns each file's path, in order. */
  public static Path[] writePartitioned(Path root) throws IOException {
    Path[] files = new Path[PARTITIONS.length];
    for (int p = 0; p < PARTITIONS.length; p++) {
      files[p] = Files.createDirectories(root.resolve(PARTITIONS[p])).resolve("part-0.arrow");
      TestFiles.write(files[p], 1000L * p, 1 + p % 2, 400);
    }
    Files.writeString(root.resolve("_SUCCESS"), "");
    return files;
  }

  /**
   * {@code files} files of {@code batches} batches of 1000 rows each (ids 0 on, in order) under
   * {@code dir}, for jobs that last a while.
   */
  public static void writeLarge(Path dir, int files, int batches) throws IOException {
    Files.createDirectories(dir);
    for (int f = 0; f < files; f++) {
      TestFiles.write(dir.resolve("part-" + f + ".arrow"), 1000L * batches * f, batches, 1000);
    }
  }

  public static void deleteTree(Path dir) throws IOException {
    TestFiles.deleteTree(dir);
  }
}
