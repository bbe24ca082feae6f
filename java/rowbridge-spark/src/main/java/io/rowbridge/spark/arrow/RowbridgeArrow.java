package io.rowbridge.spark.arrow;

import io.rowbridge.ArrowSchemas;
import io.rowbridge.NativeIpcWriter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructType;

/**
 * Arrow out of Spark: any Dataset as Arrow IPC record batches, made natively on the executors
 * (rowbridge's row decoder and IPC encoder) in place of the JVM path of Spark's own {@code
 * ArrowConverters} that {@code toArrow} and {@code toPandas} take. The schema is Spark's Arrow
 * schema of the Dataset ({@code ArrowUtils.toArrowSchema}); batches hold at most {@code
 * spark.sql.execution.arrow.maxRecordsPerBatch} rows and are uncompressed.
 *
 * <p>A stream-format reader takes {@link #schemaMessage} followed by the batches and the
 * end-of-stream marker {@link #END_OF_STREAM}; {@link #collectToStream} writes exactly that.
 */
public final class RowbridgeArrow {
  /** The IPC end-of-stream marker: continuation token, then a zero metadata length. */
  public static final byte[] END_OF_STREAM = {-1, -1, -1, -1, 0, 0, 0, 0};

  private static final int IN_FLIGHT = 2;
  private static final long MAX_BATCH_BYTES = 64L << 20;

  private RowbridgeArrow() {}

  /**
   * The Arrow schema of {@code dataset}'s batches, its timestamps labelled with {@code timeZoneId}
   * (null: the session time zone, as Spark's JVM {@code ArrowUtils} does; PySpark's {@code toArrow}
   * labels them "UTC"). The values are UTC microseconds either way.
   */
  public static org.apache.arrow.vector.types.pojo.Schema arrowSchema(
      Dataset<?> dataset, String timeZoneId) {
    return ArrowSchemas.of(dataset.schema(), timeZone(dataset, timeZoneId));
  }

  /** The IPC schema message of {@code dataset}'s batches (stream framing). */
  public static byte[] schemaMessage(Dataset<?> dataset, String timeZoneId) {
    try (NativeIpcWriter writer =
        NativeIpcWriter.createStream(
            arrowSchema(dataset, timeZoneId), NativeIpcWriter.Codec.NONE, 0, 1)) {
      return writer.startBytes();
    }
  }

  /**
   * Each partition's rows as IPC record batch messages, in row order; an empty partition has none.
   * Runs the Dataset's plan when the RDD is computed. {@code timeZoneId} as in {@link
   * #arrowSchema}.
   */
  public static JavaRDD<byte[]> toArrowBatches(Dataset<?> dataset, String timeZoneId) {
    StructType schema = dataset.schema();
    String timeZone = timeZone(dataset, timeZoneId);
    SQLConf conf = dataset.sparkSession().sessionState().conf();
    int maxRows = Math.max(1, conf.arrowMaxRecordsPerBatch());
    JavaRDD<InternalRow> rows = dataset.queryExecution().toRdd().toJavaRDD();
    return rows.mapPartitions(
        input ->
            new ArrowBatchIterator(input, schema, timeZone, maxRows, MAX_BATCH_BYTES, IN_FLIGHT));
  }

  /**
   * Collects {@code dataset} to the driver as an Arrow IPC stream file at {@code path}: the schema
   * message, every batch in partition order, the end-of-stream marker. The batches pass through the
   * driver's memory, as Spark's own {@code toArrow} does. {@code timeZoneId} as in {@link
   * #arrowSchema}.
   */
  public static void collectToStream(Dataset<?> dataset, String path, String timeZoneId)
      throws IOException {
    byte[] schema = schemaMessage(dataset, timeZoneId);
    List<byte[]> batches = toArrowBatches(dataset, timeZoneId).collect();
    try (OutputStream out =
        new BufferedOutputStream(Files.newOutputStream(Path.of(path)), 1 << 20)) {
      out.write(schema);
      for (Iterator<byte[]> it = batches.iterator(); it.hasNext(); ) {
        out.write(it.next());
      }
      out.write(END_OF_STREAM);
    }
  }

  private static String timeZone(Dataset<?> dataset, String timeZoneId) {
    return timeZoneId != null
        ? timeZoneId
        : dataset.sparkSession().sessionState().conf().sessionLocalTimeZone();
  }
}
