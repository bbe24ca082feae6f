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
 * Comet's native columnar-to-row converter, driven outside a Comet session. The comet-spark jar
 * bundles its own build of arrow-c-data's {@code org.apache.arrow.c} classes compiled against its
 * shaded Arrow Java, which clash with the plain arrow-c-data the ffi_export case uses; so Comet and
 * the driver ({@code io.rowbridge.jmh.comet.CometDriver}) are loaded child-first by their own class
 * loader, sharing Spark and Scala with this one. The jar's path comes from the system property
 * {@value #JAR_PROPERTY} (java/rowbridge-jmh/bench.sh sets it).
 */
public interface CometCase extends AutoCloseable {
  String JAR_PROPERTY = "rowbridge.comet.jar";

  /** Converts batch {@code index} and consumes its rows; returns the consumer's sum. */
  long batch(int index);

  @Override
  void close();

  static CometCase load(String schema, int batchRows, boolean seedConsumer) throws Exception {
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
            .getConstructor(String.class, int.class, boolean.class)
            .newInstance(schema, batchRows, seedConsumer);
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
