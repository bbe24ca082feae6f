package io.rowbridge.jmh;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.zip.ZipFile;

/**
 * Apache Comet's columnar-to-row transitions, and rowbridge reading Comet's vectors, driven outside
 * a Comet query over the same batches of {@code CometPlainVector}s. The path is the benchmark's
 * {@code impl}:
 *
 * <ul>
 *   <li>{@code comet}: Comet's native {@code NativeColumnarToRowConverter};
 *   <li>{@code comet_jvm} (and its A/A twin {@code comet_jvm_aa}): what {@code
 *       CometColumnarToRowExec.doExecute} does by default, an {@code UnsafeProjection} applied to
 *       each row of {@code batch.rowIterator()};
 *   <li>{@code comet_direct}: Comet's experimental {@code DirectColumnarToRowConverter} ({@code
 *       setBatch}, then {@code convertRow(i)} per row);
 *   <li>{@code rowbridge_comet}: rowbridge's {@code CometColumns} and converter (its rows of the
 *       first batch are checked against {@code comet_jvm}'s, byte for byte, when loaded).
 * </ul>
 *
 * <p>The comet-spark jar bundles its own build of arrow-c-data's {@code org.apache.arrow.c} classes
 * compiled against its shaded Arrow Java, which clash with the plain arrow-c-data the ffi_export
 * case uses; so Comet and the driver ({@code io.rowbridge.jmh.comet.CometDriver}) are loaded
 * child-first by their own class loader, sharing Spark, Scala and rowbridge with this one
 * (rowbridge's CometColumns resolves Comet's classes from each vector's runtime class, so it reads
 * the child's vectors). The jar's path comes from the system property {@value #JAR_PROPERTY}
 * (java/rowbridge-jmh/bench.sh sets it).
 */
public interface CometCase extends AutoCloseable {
  String JAR_PROPERTY = "rowbridge.comet.jar";

  /** The paths {@link #load} drives: the benchmark's {@code impl} values for Comet's vectors. */
  java.util.List<String> IMPLS =
      java.util.List.of("comet", "comet_jvm", "comet_jvm_aa", "comet_direct", "rowbridge_comet");

  /** Converts batch {@code index} and consumes its rows; returns the consumer's sum. */
  long batch(int index);

  @Override
  void close();

  /**
   * Builds the batches of {@code schema} ("record" or "wide_strings") at {@code batchRows} rows and
   * the path {@code impl} (one of {@link #IMPLS}) in a class loader of their own.
   */
  static CometCase load(String impl, String schema, int batchRows, boolean seedConsumer)
      throws Exception {
    if (!IMPLS.contains(impl)) {
      throw new IllegalArgumentException("not a Comet path: " + impl);
    }
    String jar = System.getProperty(JAR_PROPERTY, "");
    if (jar.isEmpty() || !Files.isRegularFile(Path.of(jar))) {
      throw new IllegalStateException(
          "the comet case needs -D"
              + JAR_PROPERTY
              + "=/path/to/comet-spark-spark4.1_2.13-1.2.0.jar (not found: '"
              + jar
              + "')");
    }
    URL driverClasses = CometCase.class.getProtectionDomain().getCodeSource().getLocation();
    ClassLoader loader =
        new ChildFirstLoader(
            new URL[] {Path.of(jar).toUri().toURL(), driverClasses},
            CometCase.class.getClassLoader(),
            Path.of(jar));
    Class<?> driver = Class.forName("io.rowbridge.jmh.comet.CometDriver", true, loader);
    return (CometCase)
        driver
            .getConstructor(String.class, String.class, int.class, boolean.class)
            .newInstance(impl, schema, batchRows, seedConsumer);
  }

  /** Loads the comet jar's classes and resources, and the driver's package, before the parent. */
  final class ChildFirstLoader extends URLClassLoader {
    private final java.util.Set<String> cometEntries = new java.util.HashSet<>();

    ChildFirstLoader(URL[] urls, ClassLoader parent, Path cometJar) throws IOException {
      super(urls, parent);
      try (ZipFile zip = new ZipFile(cometJar.toFile())) {
        zip.stream().forEach(entry -> cometEntries.add(entry.getName()));
      }
    }

    private boolean childFirst(String resource) {
      return cometEntries.contains(resource) || resource.startsWith("io/rowbridge/jmh/comet/");
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(name)) {
        Class<?> loaded = findLoadedClass(name);
        if (loaded == null && childFirst(name.replace('.', '/') + ".class")) {
          loaded = findClass(name);
        }
        if (loaded == null) {
          return super.loadClass(name, resolve);
        }
        if (resolve) {
          resolveClass(loaded);
        }
        return loaded;
      }
    }

    @Override
    public URL getResource(String name) {
      if (childFirst(name)) {
        URL url = findResource(name);
        if (url != null) {
          return url;
        }
      }
      return super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
      return childFirst(name) ? findResources(name) : super.getResources(name);
    }

    @Override
    public InputStream getResourceAsStream(String name) {
      URL url = getResource(name);
      try {
        return url == null ? null : url.openStream();
      } catch (IOException e) {
        return null;
      }
    }
  }
}
