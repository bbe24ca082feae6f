package io.rowbridge.spark.source;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The Arrow IPC files of a scan: {@code load(path)} or {@code load(path, ...)}. A path is a file
 * (read whatever its name) or a directory, whose regular files named {@code *.arrow},
 * {@code *.arrows} (the IPC stream format), {@code *.feather} or {@code *.ipc} are read in name
 * order (hidden files and names starting
 * with {@code _} or {@code .} are skipped). Paths are local: {@code file:} URIs or plain paths,
 * which every executor must see at the same place (the native scan memory-maps them).
 */
final class SourceFiles {
  private SourceFiles() {}

  static List<String> resolve(CaseInsensitiveStringMap options) {
    List<String> given = new ArrayList<>();
    String paths = options.get("paths");
    if (paths != null) {
      try {
        for (String path : new ObjectMapper().readValue(paths, String[].class)) {
          given.add(path);
        }
      } catch (IOException e) {
        throw new IllegalArgumentException("rowbridge: unreadable paths option " + paths, e);
      }
    }
    String path = options.get("path");
    if (path != null) {
      given.add(path);
    }
    if (given.isEmpty()) {
      throw new IllegalArgumentException(
          "rowbridge: no path given (spark.read.format(\"rowbridge\").load(path))");
    }
    List<String> files = new ArrayList<>();
    for (String entry : given) {
      Path local = toLocal(entry);
      if (Files.isDirectory(local)) {
        files.addAll(listDirectory(local));
      } else if (Files.isRegularFile(local)) {
        files.add(local.toAbsolutePath().toString());
      } else {
        throw new IllegalArgumentException("rowbridge: no such file or directory: " + entry);
      }
    }
    return files;
  }

  static Path toLocal(String path) {
    if (path.startsWith("file:")) {
      return Path.of(URI.create(path));
    }
    if (path.matches("^[a-zA-Z][a-zA-Z0-9+.-]*://.*")) {
      throw new IllegalArgumentException("rowbridge reads local files (or file: URIs) only: "
          + path);
    }
    return Path.of(path);
  }

  private static List<String> listDirectory(Path directory) {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.filter(Files::isRegularFile)
          .filter(p -> {
            String name = p.getFileName().toString();
            String lower = name.toLowerCase(Locale.ROOT);
            return !name.startsWith(".") && !name.startsWith("_") && (lower.endsWith(".arrow")
                || lower.endsWith(".arrows") || lower.endsWith(".feather")
                || lower.endsWith(".ipc"));
          })
          .map(p -> p.toAbsolutePath().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("rowbridge: cannot list " + directory, e);
    }
  }
}
