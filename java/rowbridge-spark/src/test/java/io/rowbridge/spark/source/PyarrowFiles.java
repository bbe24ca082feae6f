package io.rowbridge.spark.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.rowbridge.NewerLayouts;

/**
 * The pyarrow-written inputs of the source's tests ({@code src/test/python/make_source_files.py},
 * with the Python of {@code make deps}): each NAME.arrow with its NAME.readable.arrow twin in
 * types Spark reads.
 */
public final class PyarrowFiles {
  private PyarrowFiles() {}

  /**
   * Writes the files into {@code out}, without the columns whose schema the Arrow Java on the
   * class path cannot import (Arrow Java 12: views, list views, run-end encoding and
   * month_day_nano intervals); returns the script's output.
   */
  public static String write(Path out) throws IOException, InterruptedException {
    return write(out, !NewerLayouts.available());
  }

  /** Writes the files into {@code out}, every column unless {@code forArrowJava12}. */
  public static String write(Path out, boolean forArrowJava12)
      throws IOException, InterruptedException {
    String python = System.getProperty("rowbridge.test.python", "build/venv/bin/python3");
    Path script = Path.of(System.getProperty("rowbridge.test.pythonScripts",
        "src/test/python")).resolve("make_source_files.py");
    List<String> command = new ArrayList<>(List.of(python, script.toString(), out.toString()));
    if (forArrowJava12) {
      command.add("--for-arrow-java-12");
    }
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String log = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), "pyarrow (make deps installs it into build/venv): "
        + python + " " + script + "\n" + log);
    return log;
  }
}
