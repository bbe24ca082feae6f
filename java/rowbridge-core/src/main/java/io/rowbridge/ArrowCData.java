package io.rowbridge;

import java.security.CodeSource;

/**
 * Checks that the {@code org.apache.arrow.c} classes on the class path are Arrow Java's C Data
 * module (arrow-c-data), built against the Arrow Java Spark uses. Apache Comet's jar carries a copy
 * of those classes built against its relocated Arrow ({@code org.apache.comet.shaded.arrow}); with
 * it first on the class path, every call into them fails with a NoSuchMethodError. The paths that
 * need the C Data module (the data source's scan, the converter's C Data input) call {@link
 * #require} first and get a {@link RowbridgeException} that says what to do instead.
 */
public final class ArrowCData {
  private ArrowCData() {}

  /** Null when the module is usable, else why not (computed once). */
  private static final String PROBLEM = probe();

  /**
   * Throws a {@link RowbridgeException} (ENOTSUP) naming {@code use} when Arrow Java's C Data
   * module is missing or is another build's copy.
   */
  public static void require(String use) {
    if (PROBLEM != null) {
      throw new RowbridgeException(
          "rowbridge: " + use + " needs Arrow Java's C Data module (arrow-c-data), but " + PROBLEM,
          RowbridgeException.ENOTSUP);
    }
  }

  private static String probe() {
    ClassLoader loader = ArrowCData.class.getClassLoader();
    Class<?> data;
    try {
      data = Class.forName("org.apache.arrow.c.Data", false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      return "it is not on the class path (add the arrow-c-data jar of the Arrow version Spark"
          + " ships)";
    }
    try {
      Class<?> allocator = Class.forName("org.apache.arrow.memory.BufferAllocator", false, loader);
      Class<?> schema = Class.forName("org.apache.arrow.c.ArrowSchema", false, loader);
      Class<?> dictionaries =
          Class.forName("org.apache.arrow.c.CDataDictionaryProvider", false, loader);
      data.getMethod("importSchema", allocator, schema, dictionaries);
      return null;
    } catch (ReflectiveOperationException | LinkageError e) {
      return "the org.apache.arrow.c classes on the class path (from "
          + origin(data)
          + ") are built against another Arrow Java (Apache Comet's jar carries such a copy,"
          + " built against its relocated Arrow; java/README.md, \"With Apache Comet\")";
    }
  }

  private static String origin(Class<?> type) {
    CodeSource source =
        type.getProtectionDomain() == null ? null : type.getProtectionDomain().getCodeSource();
    return source == null || source.getLocation() == null
        ? "an unknown location"
        : source.getLocation().toString();
  }
}
