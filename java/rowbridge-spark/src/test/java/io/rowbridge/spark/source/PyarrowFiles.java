package io.rowbridge.spark.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The pyarrow-written inputs of the source's tests ({@code src/test/python/make_source_files.py},
 * with the Python of {@code make deps}): each NAME.arrow with its NAME.readable.arrow twin in
 * types Spark reads.
 */
public final class PyarrowFiles {
  private PyarrowFiles() {}

  /** Writes the files into {@code out}; returns the script's output. */
  public static String write(Path out) throws IOException, InterruptedException {
    String python = System.getProperty("rowbridge.test.python", "build/venv/bin/python3");
    Path script = Path.of(System.getProperty("rowbridge.test.pythonScripts",
        "src/test/python")).resolve("make_source_files.py");
    Process process = new ProcessBuilder(python, script.toString(), out.toString())
        .redirectErrorStream(true).start();
    String log = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), "pyarrow (make deps installs it into build/venv): "
        + python + " " + script + "\n" + log);
    return log;
  }
}
