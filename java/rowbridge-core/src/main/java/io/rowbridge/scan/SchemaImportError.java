package io.rowbridge.scan;

import io.rowbridge.CStructs;
import io.rowbridge.RowbridgeException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.unsafe.Platform;

/**
 * Turns Arrow Java's refusal of a C Data schema ({@code Format X is not supported}: a type its
 * version cannot import, such as Arrow Java 12's views, list views, run-end encoding and
 * month_day_nano intervals, or 18.1.0's run-end encoding) into a {@link RowbridgeException} that
 * names the input, the column and the layout.
 */
final class SchemaImportError {
  private SchemaImportError() {}

  private static final int MAX_DEPTH = 64;

  /**
   * Imports the C Data schema {@code schema} read from {@code path} (Arrow Java releases it), with
   * its dictionaries into {@code dictionaries}. A type this Arrow Java cannot import is a {@link
   * RowbridgeException} naming {@code path}, the column and the layout.
   */
  static Schema importSchema(
      BufferAllocator allocator,
      ArrowSchema schema,
      CDataDictionaryProvider dictionaries,
      String path) {
    // Read before the import, which releases the schema whether or not it succeeds.
    List<String[]> fields = new ArrayList<>();
    collect(schema.memoryAddress(), "", 0, fields);
    try {
      return Data.importSchema(allocator, schema, dictionaries);
    } catch (UnsupportedOperationException refusal) {
      throw of(path, fields, refusal);
    }
  }

  /**
   * The error for {@code refusal}, raised while importing the schema of {@code path} whose fields
   * (dotted path and format, depth first) are {@code fields}.
   */
  private static RowbridgeException of(
      String path, List<String[]> fields, UnsupportedOperationException refusal) {
    String format = refusedFormat(refusal.getMessage());
    if (format == null) {
      return new RowbridgeException(
          "rowbridge: " + path + ": " + refusal.getMessage(), RowbridgeException.ENOTSUP);
    }
    String column = "?";
    for (String[] field : fields) {
      if (field[1].equals(format)) {
        column = "`" + field[0] + "`";
        break;
      }
    }
    return new RowbridgeException(
        "rowbridge: "
            + path
            + ": column "
            + column
            + " has Arrow format '"
            + format
            + "' ("
            + layoutName(format)
            + "), which the C Data"
            + " module of Arrow Java"
            + arrowJavaVersion()
            + " cannot import (java/README.md,"
            + " \"Spark versions\")",
        RowbridgeException.ENOTSUP);
  }

  private static String arrowJavaVersion() {
    Package arrowC = Data.class.getPackage();
    String version = arrowC == null ? null : arrowC.getImplementationVersion();
    return version == null ? "" : " " + version;
  }

  /** The format string of Arrow Java's "Format X is not supported", or null. */
  static String refusedFormat(String message) {
    String prefix = "Format ";
    String suffix = " is not supported";
    if (message == null || !message.startsWith(prefix) || !message.endsWith(suffix)) {
      return null;
    }
    return message.substring(prefix.length(), message.length() - suffix.length());
  }

  private static void collect(long schema, String parent, int depth, List<String[]> out) {
    if (schema == 0 || depth > MAX_DEPTH) {
      return;
    }
    long children = Platform.getLong(null, schema + CStructs.SCHEMA_CHILDREN);
    long count = Platform.getLong(null, schema + CStructs.SCHEMA_N_CHILDREN);
    for (long i = 0; children != 0 && i < count; i++) {
      long child = Platform.getLong(null, children + 8 * i);
      if (child == 0) {
        continue;
      }
      String name =
          CStructs.readCString(Platform.getLong(null, child + CStructs.SCHEMA_NAME), 4096);
      String path = parent.isEmpty() ? name : parent + "." + name;
      out.add(
          new String[] {
            path, CStructs.readCString(Platform.getLong(null, child + CStructs.SCHEMA_FORMAT), 4096)
          });
      collect(child, path, depth + 1, out);
    }
  }

  private static String layoutName(String format) {
    switch (format) {
      case "vu":
        return "utf8 view";
      case "vz":
        return "binary view";
      case "+vl":
        return "list view";
      case "+vL":
        return "large list view";
      case "+r":
        return "run-end encoded";
      case "tin":
        return "month_day_nano interval";
      default:
        return "a type this Arrow Java lacks";
    }
  }
}
