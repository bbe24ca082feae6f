package io.rowbridge.spark.storage;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * An HDFS of one NameNode and a few DataNodes inside the test JVM (Hadoop's {@code MiniDFSCluster},
 * from {@code hadoop-client-minicluster}), on loopback ports the system picks. Blocks are small (1
 * MiB unless asked otherwise) so that a file of a few MiB spans several blocks on several
 * DataNodes, as a real file's splits do. Its storage lives under {@code target/storage/} and is
 * deleted at {@link #close()}.
 *
 * <pre>{@code
 * try (MiniHdfs hdfs = MiniHdfs.start()) {
 *   hdfs.put(localFile, "/data/part-0.arrow");
 *   spark.read().format("rowbridge").load(hdfs.uri() + "/data");
 * }
 * }</pre>
 */
public final class MiniHdfs implements AutoCloseable {
  /** The default block size: a 4 MiB file has 4 blocks. */
  public static final long DEFAULT_BLOCK_SIZE = 1L << 20;

  private final MiniDFSCluster cluster;
  private final URI uri;
  private final long blockSize;
  private final FileSystem fileSystem;

  private MiniHdfs(MiniDFSCluster cluster, long blockSize) throws IOException {
    this.cluster = cluster;
    this.uri = URI.create("hdfs://127.0.0.1:" + cluster.getNameNodePort());
    this.blockSize = blockSize;
    this.fileSystem = FileSystem.newInstance(uri, configuration());
  }

  /** Starts a NameNode and 2 DataNodes, blocks of {@link #DEFAULT_BLOCK_SIZE}, replication 1. */
  public static MiniHdfs start() throws IOException {
    return start(2, DEFAULT_BLOCK_SIZE, 1);
  }

  /**
   * Starts a NameNode and {@code dataNodes} DataNodes; files are written in blocks of {@code
   * blockSize} bytes (a multiple of 512), each block on {@code replication} DataNodes. Returns once
   * every DataNode has registered.
   */
  public static MiniHdfs start(int dataNodes, long blockSize, int replication) throws IOException {
    Path baseDir =
        Files.createDirectories(
            Path.of("target", "storage", "hdfs-" + UUID.randomUUID()).toAbsolutePath());
    Configuration conf = new Configuration();
    conf.setLong("dfs.blocksize", blockSize);
    // The NameNode refuses blocks under 1 MiB unless told otherwise.
    conf.setLong("dfs.namenode.fs-limits.min-block-size", Math.min(blockSize, 1L << 20));
    conf.setInt("dfs.replication", replication);
    // Every server binds loopback only: no other address is used by the tests.
    conf.set("dfs.namenode.rpc-bind-host", "127.0.0.1");
    MiniDFSCluster cluster =
        new MiniDFSCluster.Builder(conf, baseDir.toFile())
            .numDataNodes(dataNodes)
            .format(true)
            .build();
    try {
      cluster.waitActive();
      return new MiniHdfs(cluster, blockSize);
    } catch (IOException | RuntimeException e) {
      cluster.shutdown(true);
      throw e;
    }
  }

  /** {@code hdfs://127.0.0.1:<NameNode port>}: paths under it reach this cluster. */
  public URI uri() {
    return uri;
  }

  /** The block size files are written with. */
  public long blockSize() {
    return blockSize;
  }

  /** A new client configuration whose default file system is this cluster. */
  public Configuration configuration() {
    Configuration conf = new Configuration(cluster.getConfiguration(0));
    conf.set("fs.defaultFS", uri.toString());
    return conf;
  }

  /**
   * Entries for a SparkSession's builder ({@code spark.hadoop.*}): the block size, so that files
   * Spark writes here span blocks as {@link #put} does. Paths need the full {@link #uri()}.
   */
  public Map<String, String> sparkConf() {
    return Map.of(
        "spark.hadoop.dfs.blocksize",
        Long.toString(blockSize),
        "spark.hadoop.dfs.replication",
        cluster.getConfiguration(0).get("dfs.replication"));
  }

  /** A client of this cluster that {@link #close()} closes (not Hadoop's cached one). */
  public FileSystem fileSystem() {
    return fileSystem;
  }

  /**
   * Copies the local file to {@code hdfsPath} (absolute, e.g. {@code /data/a.arrow}; parent
   * directories are created), replacing a file there; returns its full path.
   */
  public org.apache.hadoop.fs.Path put(Path localFile, String hdfsPath) throws IOException {
    org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(uri.toString() + hdfsPath);
    fileSystem.copyFromLocalFile(
        false, true, new org.apache.hadoop.fs.Path(localFile.toAbsolutePath().toUri()), target);
    return target;
  }

  /** The running cluster, for what this class does not offer (stopping a DataNode, ...). */
  public MiniDFSCluster cluster() {
    return cluster;
  }

  /**
   * Closes {@link #fileSystem()}, stops every server and deletes the cluster's storage. Clients
   * that Hadoop cached for {@link #uri()} (Spark's) stay cached, and fail if used again.
   */
  @Override
  public void close() throws IOException {
    try {
      fileSystem.close();
    } finally {
      cluster.shutdown(true);
    }
  }
}
