package io.rowbridge.spark.write;

import io.rowbridge.ArrowSchemas;
import io.rowbridge.RowStaging;
import io.rowbridge.spark.TaskMemoryAccounting;
import io.rowbridge.NativeIpcWriter;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.datasources.OutputWriter;
import org.apache.spark.sql.types.StructType;

/**
 * Writes one Arrow IPC file of a task: rows are staged in native memory (one bulk copy per
 * UnsafeRow), and each full batch is handed to the native encoders, which decode it to Arrow and
 * encode it as a record batch while the task stages the next; the task writes the encoded
 * batches to the file in order. At most {@code inFlight} batches are with the encoders at once
 * (K + 1 staging buffers in all), whatever the core count; the staging and the encoded
 * batches waiting for the task are accounted to the task's memory manager. The file is created
 * through Hadoop's FileSystem in the commit protocol's task attempt directory, so a failed or
 * killed attempt leaves nothing visible.
 */
final class RowbridgeOutputWriter extends OutputWriter {
  private final String path;
  private final int inFlight;
  private final OutputStream out;
  private final RowStaging[] stagings;
  private final NativeIpcWriter writer;
  /** The encoded batches waiting for the task, sampled after each hand-over; null off Spark. */
  private final TaskMemoryAccounting encoded;
  private RowStaging current;
  private long submitted;
  private long written;
  private boolean failed;
  private boolean closed;

  RowbridgeOutputWriter(String path, StructType dataSchema, TaskAttemptContext context,
      WriteConf conf) {
    this.path = path;
    this.inFlight = conf.inFlight();
    Schema arrowSchema = ArrowSchemas.of(dataSchema, conf.timeZoneId());
    TaskContext task = TaskContext.get();
    stagings = new RowStaging[inFlight + 1];
    NativeIpcWriter created = null;
    OutputStream stream = null;
    try {
      for (int i = 0; i < stagings.length; i++) {
        stagings[i] = new RowStaging(dataSchema, conf.maxRows(), conf.maxBytes(),
            task == null ? null : new TaskMemoryAccounting(task.taskMemoryManager(),
                "a rowbridge write's row staging", "lower " + WriteConf.MAX_BYTES + " ("
                + conf.maxBytes() + " bytes)"));
      }
      created = NativeIpcWriter.create(arrowSchema, NativeIpcWriter.Codec.of(conf.compression()),
          conf.zstdLevel(), inFlight);
      if (task != null) {
        created.withInterrupted(task::isInterrupted);  // a killed task stops waiting
      }
      Path file = new Path(path);
      FileSystem fs = file.getFileSystem(context.getConfiguration());
      stream = fs.create(file, false);
    } catch (IOException e) {
      release(created, stagings);
      throw new UncheckedIOException("rowbridge: cannot create " + path, e);
    } catch (RuntimeException | Error e) {
      release(created, stagings);
      throw e;
    }
    this.writer = created;
    this.out = stream;
    this.encoded = task == null ? null : new TaskMemoryAccounting(task.taskMemoryManager(),
        "a rowbridge write's encoded batches", "lower " + WriteConf.IN_FLIGHT + " ("
        + inFlight + ") or " + WriteConf.MAX_BYTES + " (" + conf.maxBytes() + " bytes)");
    this.current = stagings[0];
  }

  @Override
  public void write(InternalRow row) {
    try {
      if (!current.add(row)) {
        submit();
        current.add(row);  // an empty batch takes any one row
      }
    } catch (RuntimeException | Error e) {
      failed = true;
      throw e;
    }
  }

  /** Hands the current batch to the encoders, first writing batches until fewer than K wait. */
  private void submit() {
    try {
      while (submitted - written >= inFlight) {
        written += writer.drainTo(out, true);
      }
      writer.submit(current.dataAddress(), current.offsetsAddress(), current.numRows());
      submitted++;
      written += writer.drainTo(out, false);
      if (encoded != null) {
        encoded.hold(writer.bytesHeld());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("rowbridge: writing " + path, e);
    }
    current = stagings[(int) (submitted % stagings.length)];
    current.clear();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (!failed) {
        if (current.numRows() > 0) {
          submit();
        }
        writer.finish(out);
      }
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException("rowbridge: writing " + path, e);
    } finally {
      release(writer, stagings);
      if (encoded != null) {
        encoded.releaseAll();
      }
    }
  }

  @Override
  public String path() {
    return path;
  }

  private static void release(NativeIpcWriter writer, RowStaging[] stagings) {
    if (writer != null) {
      writer.close();
    }
    for (RowStaging staging : stagings) {
      if (staging != null) {
        staging.close();
      }
    }
  }
}
