package io.rowbridge.spark.arrow;

import io.rowbridge.NativeIpcWriter;
import io.rowbridge.RowStaging;
import io.rowbridge.spark.memory.TaskMemoryAccounting;
import java.io.IOException;
import java.util.function.Supplier;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.types.StructType;

/**
 * K + 1 native row stagings in front of one {@link NativeIpcWriter}: rows are staged in the current
 * staging, and each full batch goes to the writer once fewer than K batches are with its encoders,
 * so a staging is filled again only after its batch's message was taken. In a Spark task, the
 * stagings are accounted to the task's memory manager and a killed task stops waiting for the
 * encoders. Closing frees the writer first (its workers then let go of the rows), then the
 * stagings. One thread at a time.
 */
public final class StagedBatches implements AutoCloseable {
  /** Takes at least one encoded message from the writer, waiting for it. */
  public interface Taker {
    void takeOne() throws IOException;
  }

  private final RowStaging[] stagings;
  private final NativeIpcWriter writer;
  private long submitted;

  /**
   * Stagings for rows of {@code schema} with the batch caps {@code maxRows} and {@code maxBytes} in
   * front of the writer {@code makeWriter} returns (owned from then on), at most {@code inFlight}
   * batches ahead; {@code remedy} is what a memory refusal names to lower.
   */
  public StagedBatches(
      StructType schema,
      int maxRows,
      long maxBytes,
      int inFlight,
      String holder,
      String remedy,
      Supplier<NativeIpcWriter> makeWriter) {
    TaskContext task = TaskContext.get();
    stagings = new RowStaging[inFlight + 1];
    NativeIpcWriter created = null;
    try {
      for (int i = 0; i < stagings.length; i++) {
        stagings[i] =
            new RowStaging(
                schema,
                maxRows,
                maxBytes,
                task == null
                    ? null
                    : new TaskMemoryAccounting(task.taskMemoryManager(), holder, remedy));
      }
      created = makeWriter.get();
      if (task != null) {
        created.interrupted(task::isInterrupted);
      }
    } catch (RuntimeException | Error e) {
      release(created, stagings);
      throw e;
    }
    writer = created;
  }

  public NativeIpcWriter writer() {
    return writer;
  }

  /** The staging rows are added to now. */
  public RowStaging current() {
    return stagings[(int) (submitted % stagings.length)];
  }

  /**
   * Hands the current batch to the writer, first calling {@code taker} while K batches are pending,
   * and moves to the next staging, emptied. An empty batch is not handed over.
   */
  public void submit(Taker taker) throws IOException {
    RowStaging staging = current();
    if (staging.numRows() == 0) {
      return;
    }
    while (writer.pending() >= stagings.length - 1) {
      taker.takeOne();
    }
    writer.submit(staging.dataAddress(), staging.offsetsAddress(), staging.numRows());
    submitted++;
    current().clear();
  }

  @Override
  public void close() {
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
