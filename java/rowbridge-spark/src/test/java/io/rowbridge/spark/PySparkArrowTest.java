package io.rowbridge.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The PySpark helper (python/rowbridge_pyspark) against Spark's own DataFrame.toArrow, run by
 * python/tests/test_to_arrow.py with the pinned pyspark of {@code make deps} (build/venv), whose
 * driver JVM gets rowbridge's classes (and the native library among their resources) from this
 * build.
 */
class PySparkArrowTest {
  @Test
  void toArrowEqualsSparksOwn() throws Exception {
    // Surefire runs in java/rowbridge-spark: the repository is two levels up.
    Path root = Path.of("").toAbsolutePath().getParent().getParent();
    String python = root.resolve("build/venv/bin/python3").toString();
    List<String> classpath = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (entry.contains("rowbridge-core") || entry.contains("rowbridge-spark")) {
        classpath.add(entry);
      }
    }
    assertTrue(classpath.size() >= 2, "rowbridge's classes on the class path: " + classpath);
    ProcessBuilder builder =
        new ProcessBuilder(python, root.resolve("python/tests/test_to_arrow.py").toString())
            .redirectErrorStream(true);
    builder.environment().put("ROWBRIDGE_CLASSPATH", String.join(File.pathSeparator, classpath));
    builder.environment().remove("SPARK_HOME");
    Process process = builder.start();
    String log = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), "the PySpark test failed:\n" + log);
    for (String query : new String[] {"flat", "nested", "empty", "one partition of many"}) {
      assertTrue(log.contains(query + ": "), log);
    }
  }
}
