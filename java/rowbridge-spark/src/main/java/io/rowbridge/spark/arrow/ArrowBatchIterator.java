package io.rowbridge.spark.arrow;

import io.rowbridge.ArrowSchemas;
import io.rowbridge.NativeIpcWriter;
import io.rowbridge.RowStaging;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;

/**
 * One partition's rows as Arrow IPC record batch messages (stream framing, uncompressed): rows are
 * staged in native memory, and each full batch is decoded and encoded by the native workers while
 * the task stages the next, at most {@code inFlight} batches ahead. Messages come out in row order.
 * Native memory is released when the iterator ends, and at the end of the task otherwise.
 */
final class ArrowBatchIterator implements Iterator<byte[]>, AutoCloseable {
  private final Iterator<InternalRow> rows;
  private final StagedBatches batches;
  private final NativeIpcWriter writer;
  private final ArrayDeque<byte[]> ready = new ArrayDeque<>();
  private InternalRow carried;
  private boolean inputDone;
  private boolean closed;

  ArrowBatchIterator(
      Iterator<InternalRow> rows,
      StructType schema,
      String timeZoneId,
      int maxRows,
      long maxBytes,
      int inFlight) {
    this.rows = rows;
    batches =
        new StagedBatches(
            schema,
            maxRows,
            maxBytes,
            inFlight,
            "rowbridge's Arrow batches' row staging",
            "lower spark.sql.execution.arrow.maxRecordsPerBatch",
            () ->
                NativeIpcWriter.createStream(
                    ArrowSchemas.of(schema, timeZoneId), NativeIpcWriter.Codec.NONE, 0, inFlight));
    writer = batches.writer();
    TaskContext task = TaskContext.get();
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
    RowStaging staging = batches.current();
    if (carried != null) {
      staging.add(carried); // an empty batch takes any one row
      carried = null;
    }
    while (!staging.isFull() && rows.hasNext()) {
      InternalRow row = rows.next();
      if (!staging.add(row)) {
        carried = row; // over the byte cap: the next batch's first row (read before next())
        break;
      }
    }
    inputDone = carried == null && !rows.hasNext();
    try {
      batches.submit(() -> ready.add(writer.takeMessage(true)));
    } catch (IOException e) {
      throw new UncheckedIOException(e); // the taker does no I/O
    }
    for (byte[] message = writer.takeMessage(false);
        message != null;
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
    batches.close();
  }
}
