package io.rowbridge.spark.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.SortedAnswer;
import io.rowbridge.spark.source.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * rowbridge shipped to executors by {@code spark.jars}, as a user deploys it: after {@code
 * package}, without {@code spark.testing}, Spark's {@code local-cluster} mode forks an executor
 * whose class path is only the jars of a Spark home under {@code target/} (Spark's own jars and a
 * RELEASE file, which Maven's dependency plugin and this test lay out). The rowbridge jars and
 * Arrow's {@code arrow-c-data} reach it through {@code spark.jars}. The answers must be local
 * mode's, computed first in this JVM under the same setting.
 */
class SparkJarsIT {
  private static final String QUERY = "SELECT a, d, e, day, kind FROM t WHERE a % 5 = 1";

  @Test
  void executorsRunRowbridgeFromTheJarsSparkShipsThem() throws IOException {
    assertFalse(Boolean.getBoolean("spark.testing"), "a deployment, not a Spark test");
    assertNull(System.getenv("SPARK_TESTING"));
    Path home = Path.of(System.getenv("SPARK_HOME"));
    try (Stream<Path> jars = Files.list(home.resolve("jars"))) {
      List<String> names = jars.map(p -> p.getFileName().toString()).toList();
      assertTrue(names.stream().anyMatch(n -> n.startsWith("spark-core_")), names.toString());
      assertTrue(
          names.stream().noneMatch(n -> n.startsWith("rowbridge") || n.startsWith("arrow-c-data")),
          names.toString());
    }
    Files.writeString(home.resolve("RELEASE"), "Spark's jars only, for rowbridge's tests\n");
    List<String> shipped = new ArrayList<>();
    try (Stream<Path> jars = Files.list(Path.of(System.getProperty("rowbridge.test.shipped")))) {
      jars.forEach(jar -> shipped.add(jar.toString()));
    }
    shipped.add(System.getProperty("rowbridge.test.jar"));
    assertEquals(3, shipped.size(), "rowbridge-core, arrow-c-data, rowbridge-spark: " + shipped);

    Path dir = Files.createTempDirectory("rowbridge-spark-jars-test");
    try {
      TestData.writePartitioned(dir.resolve("parted"));
      SparkSession spark = session("local[2]", dir, "");
      List<String> local = SortedAnswer.of(spark.sql(QUERY));
      spark.stop();
      spark = session("local-cluster[1,1,1024]", dir, String.join(",", shipped));
      try {
        assertEquals(local, SortedAnswer.of(spark.sql(QUERY)));
        List<Row> classPath =
            spark
                .sql(
                    "SELECT DISTINCT java_method('java.lang.System', "
                        + "'getProperty', 'java.class.path') FROM t")
                .collectAsList();
        assertEquals(1, classPath.size());
        String executorClassPath = classPath.get(0).getString(0);
        assertTrue(executorClassPath.contains(home.resolve("jars").toString()), executorClassPath);
        for (String entry : executorClassPath.split(java.io.File.pathSeparator)) {
          String name = Path.of(entry).getFileName().toString();
          assertFalse(
              name.startsWith("rowbridge")
                  || name.startsWith("arrow-c-data")
                  || !entry.startsWith(home.toString()),
              "on the executor's class path: " + entry);
        }
      } finally {
        spark.stop();
      }
    } finally {
      TestData.deleteTree(dir);
    }
  }

  private static SparkSession session(String master, Path dir, String jars) {
    SparkSession spark =
        SparkSession.builder()
            .master(master)
            .appName("rowbridge-spark-jars")
            .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
            .config("spark.jars", jars)
            .config("spark.ui.enabled", "false")
            .config("spark.executor.memory", "768m")
            .config("spark.executor.extraJavaOptions", System.getProperty("rowbridge.test.opens"))
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate();
    spark
        .read()
        .format("rowbridge")
        .load(dir.resolve("parted").toString())
        .createOrReplaceTempView("t");
    return spark;
  }
}
