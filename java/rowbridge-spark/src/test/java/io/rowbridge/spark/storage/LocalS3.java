package io.rowbridge.spark.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * An S3-compatible server on a loopback port, read through Hadoop's {@code s3a://} (hadoop-aws and
 * the AWS SDK v2 modules it loads). The server is S3Proxy, run from its self-contained jar in a JVM
 * of its own (Maven copies the jar to {@code target/s3proxy/}; the system property {@code
 * rowbridge.test.s3proxy.jar} names it): its dependencies (Jetty 12, logback, another AWS SDK)
 * never meet Spark's on the test class path, and a test can kill it ({@link #stop()}), start it
 * again on the same port with the same objects ({@link #start()}), or freeze it ({@link #pause()})
 * to see a read time out. Objects live in a directory under {@code target/storage/}, deleted at
 * {@link #close()}.
 *
 * <p>Each instance has a bucket of its own, and its S3A settings are per-bucket ({@code
 * fs.s3a.bucket.NAME.*}), so several instances and Hadoop's cache of file systems (keyed by bucket)
 * never mix. Retries are few and timeouts S3A's shortest: a read from a stopped server fails at
 * once, from a frozen one in about 15 s, within {@link #FAILURE_BOUND_SECONDS} seconds either way.
 *
 * <pre>{@code
 * try (LocalS3 s3 = LocalS3.launch()) {
 *   s3.put(localFile, "data/part-0.arrow");
 *   // a SparkSession built with s3.sparkConf()
 *   spark.read().format("rowbridge").load(s3.uri() + "data");
 * }
 * }</pre>
 */
public final class LocalS3 implements AutoCloseable {
  public static final String ACCESS_KEY = "rowbridge-access";
  public static final String SECRET_KEY = "rowbridge-secret";
  public static final String REGION = "us-east-1";

  /** A read from a stopped or frozen server fails within this many seconds. */
  public static final int FAILURE_BOUND_SECONDS = 30;

  private static final long START_TIMEOUT_MILLIS = 60_000;

  private final Path dir;
  private final int port;
  private final String bucket;

  /** Kills the server if the test JVM exits without {@link #close()}. */
  private final Thread exitHook = new Thread(this::stop, "LocalS3 exit");

  private Process server;
  private FileSystem fileSystem;

  private LocalS3(Path dir, int port, String bucket) {
    this.dir = dir;
    this.port = port;
    this.bucket = bucket;
    Runtime.getRuntime().addShutdownHook(exitHook);
  }

  /** Starts a server on a free loopback port with one empty bucket; returns once it answers. */
  public static LocalS3 launch() throws IOException {
    Path dir =
        Files.createDirectories(
            Path.of("target", "storage", "s3-" + UUID.randomUUID()).toAbsolutePath());
    String bucket = "rowbridge-" + UUID.randomUUID().toString().substring(0, 8);
    // The filesystem store holds a bucket per directory of its base directory.
    Files.createDirectories(dir.resolve("store").resolve(bucket));
    LocalS3 s3 = new LocalS3(dir, freePort(), bucket);
    try {
      s3.start();
      return s3;
    } catch (IOException | RuntimeException e) {
      s3.close();
      throw e;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** {@code s3a://BUCKET/}: keys appended to it are object paths. */
  public URI uri() {
    return URI.create("s3a://" + bucket + "/");
  }

  public String bucket() {
    return bucket;
  }

  /** {@code http://127.0.0.1:PORT}, the server's address; the same after a restart. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /**
   * The S3A settings that reach this server, all per-bucket: endpoint, path-style requests, plain
   * HTTP, region, the fixed credentials (and no other credential source, so nothing looks for cloud
   * metadata services), and retries and timeouts that keep a failure within {@link
   * #FAILURE_BOUND_SECONDS}.
   */
  public Map<String, String> settings() {
    String prefix = "fs.s3a.bucket." + bucket + ".";
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(prefix + "endpoint", endpoint().toString());
    settings.put(prefix + "endpoint.region", REGION);
    settings.put(prefix + "path.style.access", "true");
    settings.put(prefix + "connection.ssl.enabled", "false");
    settings.put(
        prefix + "aws.credentials.provider",
        "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    settings.put(prefix + "access.key", ACCESS_KEY);
    settings.put(prefix + "secret.key", SECRET_KEY);
    // Uploads buffer in memory, not under hadoop.tmp.dir.
    settings.put(prefix + "fast.upload.buffer", "array");
    // Failures. S3A 3.4.2 raises every network timeout below 15 s to 15 s (its
    // MINIMUM_NETWORK_OPERATION_DURATION), so one hung request costs 15 s: S3A itself does not
    // retry (a second try would pass the bound), while the SDK tries a refused or reset
    // connection once more within the same 15 s call. A stopped server fails at once, a frozen
    // one in about 15 s, in any JVM (Spark executors of a local cluster too).
    settings.put(prefix + "retry.limit", "0");
    settings.put(prefix + "retry.throttle.limit", "0");
    settings.put(prefix + "attempts.maximum", "1");
    settings.put(prefix + "connection.establish.timeout", "15s");
    settings.put(prefix + "connection.timeout", "15s");
    settings.put(prefix + "connection.request.timeout", "15s");
    settings.put(prefix + "connection.acquisition.timeout", "15s");
    return settings;
  }

  /** A new Hadoop configuration with {@link #settings()}. */
  public Configuration configuration() {
    Configuration conf = new Configuration();
    settings().forEach(conf::set);
    return conf;
  }

  /** {@link #settings()} as SparkSession builder entries ({@code spark.hadoop.*}). */
  public Map<String, String> sparkConf() {
    Map<String, String> conf = new LinkedHashMap<>();
    settings().forEach((key, value) -> conf.put("spark.hadoop." + key, value));
    return conf;
  }

  /** A client of the bucket that {@link #close()} closes (not Hadoop's cached one). */
  public synchronized FileSystem fileSystem() throws IOException {
    if (fileSystem == null) {
      fileSystem = FileSystem.newInstance(uri(), configuration());
    }
    return fileSystem;
  }

  /** Uploads the local file as object {@code key} (no leading slash); returns its s3a path. */
  public org.apache.hadoop.fs.Path put(Path localFile, String key) throws IOException {
    org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(uri().toString() + key);
    try (InputStream in = Files.newInputStream(localFile);
        OutputStream out = fileSystem().create(target, true)) {
      in.transferTo(out);
    }
    return target;
  }

  /**
   * Starts the server (again, after {@link #stop()}): same port, same objects. Returns once it
   * answers HTTP.
   */
  public synchronized void start() throws IOException {
    if (server != null && server.isAlive()) {
      return;
    }
    Path properties = dir.resolve("s3proxy.properties");
    Files.writeString(
        properties,
        String.join(
            "\n",
            "s3proxy.endpoint=" + endpoint(),
            "s3proxy.authorization=aws-v2-or-v4",
            "s3proxy.identity=" + ACCESS_KEY,
            "s3proxy.credential=" + SECRET_KEY,
            "jclouds.provider=filesystem-nio2",
            "jclouds.filesystem.basedir=" + dir.resolve("store"),
            ""));
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // A short-lived server: the quick JIT and a small serial heap start fastest.
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Xmx512m",
                "-Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener",
                "-jar",
                serverJar().toString(),
                "--properties",
                properties.toString()));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("s3proxy.log").toFile()));
    builder.environment().put("LOG_LEVEL", "warn");
    server = builder.start();
    awaitAnswer();
  }

  private static Path serverJar() {
    String jar = System.getProperty("rowbridge.test.s3proxy.jar");
    if (jar == null || !Files.isRegularFile(Path.of(jar))) {
      throw new IllegalStateException(
          "rowbridge.test.s3proxy.jar names no file ("
              + jar
              + "): Maven's generate-test-resources phase copies S3Proxy's jar to target/s3proxy/");
    }
    return Path.of(jar);
  }

  /** Waits until the server answers any HTTP request (S3Proxy refuses an unsigned one). */
  private void awaitAnswer() throws IOException {
    long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
    while (true) {
      if (!server.isAlive()) {
        throw new IOException(
            "S3Proxy exited with status " + server.exitValue() + ": " + logTail());
      }
      try {
        HttpURLConnection connection =
            (HttpURLConnection) endpoint().resolve("/").toURL().openConnection();
        connection.setConnectTimeout(1000);
        connection.setReadTimeout(1000);
        connection.getResponseCode();
        connection.disconnect();
        return;
      } catch (IOException notYet) {
        if (System.currentTimeMillis() > deadline) {
          server.destroyForcibly();
          throw new IOException(
              "S3Proxy did not answer on "
                  + endpoint()
                  + " within "
                  + START_TIMEOUT_MILLIS
                  + " ms: "
                  + logTail(),
              notYet);
        }
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while S3Proxy starts", e);
      }
    }
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(dir.resolve("s3proxy.log"), StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /**
   * Kills the server (SIGKILL, as a crash): open connections break and new ones are refused until
   * {@link #start()}. Objects stay.
   */
  public synchronized void stop() {
    if (server == null) {
      return;
    }
    server.destroyForcibly();
    try {
      server.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    server = null;
  }

  /**
   * Freezes the server (SIGSTOP): connections open and requests are sent but never answered, as a
   * server that hangs. {@link #resume()} thaws it.
   */
  public void pause() throws IOException {
    signal("STOP");
  }

  public void resume() throws IOException {
    signal("CONT");
  }

  private synchronized void signal(String name) throws IOException {
    if (server == null || !server.isAlive()) {
      throw new IllegalStateException("S3Proxy is not running");
    }
    try {
      // The shell's own kill: no procps package needed.
      int status =
          new ProcessBuilder("/bin/sh", "-c", "kill -" + name + " " + server.pid())
              .inheritIO()
              .start()
              .waitFor();
      if (status != 0) {
        throw new IOException("kill -" + name + " " + server.pid() + " exited with " + status);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted signalling S3Proxy", e);
    }
  }

  public synchronized boolean isRunning() {
    return server != null && server.isAlive();
  }

  /** Closes {@link #fileSystem()}, kills the server and deletes its objects. */
  @Override
  public synchronized void close() throws IOException {
    try {
      if (server != null && server.isAlive()) {
        signal("CONT");
      }
      if (fileSystem != null) {
        fileSystem.close();
      }
    } finally {
      stop();
      try {
        Runtime.getRuntime().removeShutdownHook(exitHook);
      } catch (IllegalStateException exiting) {
        // Closed while the JVM exits: the hook runs anyway and finds the server stopped.
      }
      try (Stream<Path> paths = Files.walk(dir)) {
        for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(path);
        }
      }
    }
  }
}
