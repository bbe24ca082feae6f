package io.rowbridge.spark.write;

import io.rowbridge.ArrowSchemas;
import io.rowbridge.NativeIpcWriter;
import io.rowbridge.spark.arrow.StagedBatches;
import io.rowbridge.spark.memory.TaskMemoryAccounting;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.datasources.OutputWriter;
import org.apache.spark.sql.types.StructType;

/**
 * Writes one Arrow IPC file of a task: rows are staged in native memory (one bulk copy per
 * UnsafeRow), and each full batch is handed to the native encoders, which decode it to Arrow and
 * encode it as a record batch while the task stages the next; the task writes the encoded batches
 * to the file in order. At most {@code inFlight} batches are with the encoders at once (K + 1
 * staging buffers in all), whatever the core count; the staging and the encoded batches waiting for
 * the task are accounted to the task's memory manager. The file is created through Hadoop's
 * FileSystem in the commit protocol's task attempt directory, so a failed or killed attempt leaves
 * nothing visible.
 */
final class RowbridgeOutputWriter extends OutputWriter {
  private final String path;
  private final OutputStream out;
  private final StagedBatches batches;
  private final NativeIpcWriter writer;

  /** The encoded batches waiting for the task, sampled after each hand-over; null off Spark. */
  private final TaskMemoryAccounting encoded;

  private boolean failed;
  private boolean closed;

  RowbridgeOutputWriter(
      String path, StructType dataSchema, TaskAttemptContext context, WriteConf conf) {
    this.path = path;
    Schema arrowSchema = ArrowSchemas.of(dataSchema, conf.timeZoneId());
    batches =
        new StagedBatches(
            dataSchema,
            conf.maxRows(),
            conf.maxBytes(),
            conf.inFlight(),
            "a rowbridge write's row staging",
            "lower " + WriteConf.MAX_BYTES + " (" + conf.maxBytes() + " bytes)",
            () ->
                NativeIpcWriter.create(
                    arrowSchema,
                    NativeIpcWriter.Codec.of(conf.compression()),
                    conf.zstdLevel(),
                    conf.inFlight()));
    writer = batches.writer();
    try {
      Path file = new Path(path);
      out = file.getFileSystem(context.getConfiguration()).create(file, false);
    } catch (IOException e) {
      batches.close();
      throw new UncheckedIOException("rowbridge: cannot create " + path, e);
    } catch (RuntimeException | Error e) {
      batches.close();
      throw e;
    }
    TaskContext task = TaskContext.get();
    this.encoded =
        task == null
            ? null
            : new TaskMemoryAccounting(
                task.taskMemoryManager(),
                "a rowbridge write's encoded batches",
                "lower "
                    + WriteConf.IN_FLIGHT
                    + " ("
                    + conf.inFlight()
                    + ") or "
                    + WriteConf.MAX_BYTES
                    + " ("
                    + conf.maxBytes()
                    + " bytes)");
  }

  @Override
  public void write(InternalRow row) {
    try {
      if (!batches.current().add(row)) {
        submit();
        batches.current().add(row); // an empty batch takes any one row
      }
    } catch (RuntimeException | Error e) {
      failed = true;
      throw e;
    }
  }

  /** Hands the current batch to the encoders and writes what they have finished. */
  private void submit() {
    try {
      batches.submit(() -> writer.drainTo(out, true));
      writer.drainTo(out, false);
      if (encoded != null) {
        encoded.hold(writer.bytesHeld());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("rowbridge: writing " + path, e);
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (!failed) {
        submit();
        writer.finish(out);
      }
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException("rowbridge: writing " + path, e);
    } finally {
      batches.close();
      if (encoded != null) {
        encoded.releaseAll();
      }
    }
  }

  @Override
  public String path() {
    return path;
  }
}
