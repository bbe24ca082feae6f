package io.rowbridge.spark;

import io.rowbridge.ArrowSchemas;
import io.rowbridge.NativeIpcWriter;
import io.rowbridge.RowStaging;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;

import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;

/**
 * One partition's rows as Arrow IPC record batch messages (stream framing, uncompressed): rows
 * are staged in native memory, and each full batch is decoded and encoded by the native workers
 * while the task stages the next, at most {@code inFlight} batches ahead. Messages come out in row
 * order. Native memory is released when the iterator ends, and at the end of the task otherwise.
 */
final class ArrowBatchIterator implements Iterator<byte[]>, AutoCloseable {
  private final Iterator<InternalRow> rows;
  private final int inFlight;
  private final RowStaging[] stagings;
  private final NativeIpcWriter writer;
  private final ArrayDeque<byte[]> ready = new ArrayDeque<>();
  private InternalRow carried;
  private long submitted;
  private boolean inputDone;
  private boolean closed;

  ArrowBatchIterator(Iterator<InternalRow> rows, StructType schema, String timeZoneId,
      int maxRows, long maxBytes, int inFlight) {
    this.rows = rows;
    this.inFlight = inFlight;
    TaskContext task = TaskContext.get();
    stagings = new RowStaging[inFlight + 1];
    NativeIpcWriter created = null;
    try {
      for (int i = 0; i < stagings.length; i++) {
        stagings[i] = new RowStaging(schema, maxRows, maxBytes, task == null ? null
            : new TaskMemoryAccounting(task.taskMemoryManager(),
                "rowbridge's Arrow batches' row staging", "lower "
                + "spark.sql.execution.arrow.maxRecordsPerBatch"));
      }
      created = NativeIpcWriter.createStream(ArrowSchemas.of(schema, timeZoneId),
          NativeIpcWriter.Codec.NONE, 0, inFlight);
      if (task != null) {
        created.withInterrupted(task::isInterrupted);
      }
    } catch (RuntimeException | Error e) {
      release(created, stagings);
      throw e;
    }
    writer = created;
    if (task != null) {
      task.addTaskCompletionListener((TaskContext context) -> close());
    }
  }

  @Override
  public boolean hasNext() {
    if (closed) {
      return false;
    }
    while (ready.isEmpty()) {
      if (!inputDone) {
        stageAndSubmit();
      } else if (writer.pending() > 0) {
        ready.add(writer.takeMessage(true));
      } else {
        close();
        return false;
      }
    }
    return true;
  }

  @Override
  public byte[] next() {
    if (!hasNext()) {
      throw new NoSuchElementException("rowbridge: no more Arrow batches");
    }
    return ready.poll();
  }

  /** Stages the next batch of rows and hands it to the encoders; keeps what is ready. */
  private void stageAndSubmit() {
    RowStaging staging = stagings[(int) (submitted % stagings.length)];
    staging.clear();
    if (carried != null) {
      staging.add(carried);  // an empty batch takes any one row
      carried = null;
    }
    while (!staging.isFull() && rows.hasNext()) {
      InternalRow row = rows.next();
      if (!staging.add(row)) {
        carried = row;  // over the byte cap: the next batch's first row (read before next())
        break;
      }
    }
    inputDone = carried == null && !rows.hasNext();
    if (staging.numRows() == 0) {
      return;
    }
    while (writer.pending() >= inFlight) {
      ready.add(writer.takeMessage(true));
    }
    writer.submit(staging.dataAddress(), staging.offsetsAddress(), staging.numRows());
    submitted++;
    for (byte[] message = writer.takeMessage(false); message != null;
        message = writer.takeMessage(false)) {
      ready.add(message);
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    release(writer, stagings);
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
