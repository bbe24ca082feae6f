package io.rowbridge.spark.source;

import io.rowbridge.RowbridgeException;
import io.rowbridge.scan.IpcFileInfo;
import io.rowbridge.scan.NativeScan;
import java.io.File;
import java.net.URI;
import org.apache.hadoop.fs.Path;

/**
 * The files the native library maps itself (local ones), and their footers. In Java, so that the
 * module's Java compiles before its Scala, which uses it (Scala 2.12 cannot read Java records, so
 * scalac never reads this module's Java sources).
 */
final class LocalFiles {
  private LocalFiles() {}

  /**
   * True for a file the native library maps itself: a {@code file:} URI or a path without a scheme.
   */
  static boolean isLocal(Path path) {
    String scheme = path.toUri().getScheme();
    return scheme == null || scheme.equals("file");
  }

  /** The local path of a file for which {@link #isLocal} holds. */
  static String localPath(Path path) {
    URI uri = path.toUri();
    if (uri.getScheme() == null) {
      return uri.getPath();
    } else if (uri.getScheme().equals("file")) {
      return new File(uri).getPath();
    }
    throw new IllegalArgumentException("rowbridge: not a local file: " + path);
  }

  /** The footer of {@code file}; a file rowbridge cannot read is an error naming it. */
  static IpcFileInfo inspect(String file) {
    try {
      return NativeScan.inspect(file);
    } catch (RowbridgeException e) {
      throw new RowbridgeException(SourceErrors.describe(file, -1, 0, e), e.code());
    }
  }
}
