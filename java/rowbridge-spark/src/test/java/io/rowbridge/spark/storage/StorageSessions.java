package io.rowbridge.spark.storage;

import java.io.IOException;
import org.apache.spark.sql.SparkSession;

/**
 * What the storage suites share: a Spark session that reaches both test servers, stopping it and
 * the servers, and the messages of a failure's causes (where a storage error names its file).
 */
public final class StorageSessions {
  private StorageSessions() {}

  /**
   * A session builder for {@code master} with the servers' Hadoop settings, Spark's UI off, UTC and
   * 2 shuffle partitions without adaptive execution (stable plans to compare).
   */
  public static SparkSession.Builder builder(String master, String app, MiniHdfs hdfs, LocalS3 s3) {
    SparkSession.Builder builder =
        SparkSession.builder()
            .master(master)
            .appName(app)
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.sql.session.timeZone", "UTC");
    hdfs.sparkConf().forEach(builder::config);
    s3.sparkConf().forEach(builder::config);
    return builder;
  }

  /** Stops the session, then the servers (each may be null). */
  public static void stopAll(SparkSession spark, LocalS3 s3, MiniHdfs hdfs) throws IOException {
    if (spark != null) {
      spark.stop();
    }
    if (s3 != null) {
      s3.close();
    }
    if (hdfs != null) {
      hdfs.close();
    }
  }

  /** The messages of {@code e} and its causes, one per line. */
  public static String messages(Throwable e) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      text.append(t.getMessage()).append('\n');
    }
    return text.toString();
  }
}
