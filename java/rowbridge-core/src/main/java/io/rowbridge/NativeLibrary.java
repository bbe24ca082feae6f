package io.rowbridge;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads librowbridge_jni.so once per class loader.
 *
 * <p>The library comes from the system property {@value #PATH_PROPERTY} when it is set (a file
 * path), otherwise from this jar's resource {@code
 * /io/rowbridge/native/<os>/<arch>/librowbridge_jni.so}, copied to a uniquely named temporary file,
 * loaded, and deleted at once (the loaded mapping stays valid). When neither exists the error names
 * the platform.
 */
public final class NativeLibrary {
  /** System property: the path of librowbridge_jni.so to load instead of the jar's copy. */
  public static final String PATH_PROPERTY = "rowbridge.native.library";

  static final String LIBRARY_FILE = "librowbridge_jni.so";

  private static boolean loaded;

  private NativeLibrary() {}

  /**
   * Loads the library if this class loader has not yet; throws UnsatisfiedLinkError if none fits.
   */
  public static synchronized void load() {
    if (loaded) {
      return;
    }
    String override = System.getProperty(PATH_PROPERTY);
    if (override != null && !override.isEmpty()) {
      System.load(Path.of(override).toAbsolutePath().toString());
    } else {
      loadResource(resourcePath(os(), arch()));
    }
    loaded = true;
  }

  /** The jar resource of the library for a platform, e.g. io/rowbridge/native/linux/x86_64/... */
  static String resourcePath(String os, String arch) {
    return "io/rowbridge/native/" + os + "/" + arch + "/" + LIBRARY_FILE;
  }

  static String os() {
    String name = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT);
    if (name.startsWith("linux")) {
      return "linux";
    }
    if (name.startsWith("mac") || name.startsWith("darwin")) {
      return "osx";
    }
    if (name.startsWith("windows")) {
      return "windows";
    }
    return name.replaceAll("[^a-z0-9]", "");
  }

  static String arch() {
    return arch(System.getProperty("os.arch", "unknown"));
  }

  /** The jar's architecture directory for a value of os.arch (x86_64, aarch64, ...). */
  static String arch(String osArch) {
    String arch = osArch.toLowerCase(Locale.ROOT);
    switch (arch) {
      case "amd64":
      case "x86_64":
      case "x86-64":
        return "x86_64";
      case "aarch64":
      case "arm64":
        return "aarch64";
      default:
        return arch.replaceAll("[^a-z0-9_]", "");
    }
  }

  static void loadResource(String resource) {
    ClassLoader loader = NativeLibrary.class.getClassLoader();
    try (InputStream in =
        loader == null
            ? ClassLoader.getSystemResourceAsStream(resource)
            : loader.getResourceAsStream(resource)) {
      if (in == null) {
        throw new UnsatisfiedLinkError(
            "rowbridge: no native library for this platform, "
                + os()
                + "/"
                + arch()
                + " (os.name="
                + System.getProperty("os.name")
                + ", os.arch="
                + System.getProperty("os.arch")
                + "): the jar has no "
                + resource
                + "; build one for this platform and set -D"
                + PATH_PROPERTY
                + "=/path/to/"
                + LIBRARY_FILE);
      }
      Path file = Files.createTempFile("rowbridge_jni-", ".so");
      try {
        Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
        System.load(file.toAbsolutePath().toString());
      } finally {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      UnsatisfiedLinkError error =
          new UnsatisfiedLinkError(
              "rowbridge: could not extract " + resource + " to a temporary file: " + e);
      error.initCause(e);
      throw error;
    }
  }
}
