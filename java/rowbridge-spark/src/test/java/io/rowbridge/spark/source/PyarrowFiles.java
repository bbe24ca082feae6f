package io.rowbridge.spark.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rowbridge.NewerLayouts;
import io.rowbridge.spark.ArrowJavaCData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The pyarrow-written inputs of the source's tests ({@code src/test/python/make_source_files.py},
 * with the Python of {@code make deps}): each NAME.arrow with its NAME.readable.arrow twin in types
 * Spark reads.
 */
public final class PyarrowFiles {
  private PyarrowFiles() {}

  /**
   * Writes the files into {@code out}, without the columns whose schema the Arrow Java on the class
   * path cannot import ({@link #unimportable}); returns the script's output.
   */
  public static String write(Path out) throws IOException, InterruptedException {
    return write(out, unimportable());
  }

  /**
   * The kinds of column make_source_files.py writes whose schema this Arrow Java cannot import:
   * Arrow Java 12 (Spark 3.5) has no views, list views, run-end encoding or month_day_nano
   * intervals in its C Data module, 18.1.0 (Spark 4.0) no run-end encoding.
   */
  public static List<String> unimportable() {
    if (!NewerLayouts.available()) {
      return List.of("views", "list_views", "run_end", "month_day_nano");
    }
    return ArrowJavaCData.importsRunEnds() ? List.of() : List.of("run_end");
  }

  /** Writes the files into {@code out}, without the columns of the kinds {@code leaveOut}. */
  public static String write(Path out, List<String> leaveOut)
      throws IOException, InterruptedException {
    String python = System.getProperty("rowbridge.test.python", "build/venv/bin/python3");
    Path script =
        Path.of(System.getProperty("rowbridge.test.pythonScripts", "src/test/python"))
            .resolve("make_source_files.py");
    List<String> command = new ArrayList<>(List.of(python, script.toString(), out.toString()));
    if (!leaveOut.isEmpty()) {
      command.add("--leave-out=" + String.join(",", leaveOut));
    }
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String log = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(
        0,
        process.waitFor(),
        "pyarrow (make deps installs it into build/venv): " + python + " " + script + "\n" + log);
    return log;
  }
}
