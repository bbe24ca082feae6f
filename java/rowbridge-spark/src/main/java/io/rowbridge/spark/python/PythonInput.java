package io.rowbridge.spark.python;

import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * A task's input on its way to a Python worker, written batch by batch into the worker's stream by
 * rowbridge in place of Spark's {@code ArrowWriter}: rows ({@link ArrowRowsToPython}) or
 * Arrow-backed columnar batches ({@link ArrowBatchesToPython}). One thread at a time.
 */
public interface PythonInput extends AutoCloseable {
  /**
   * Writes the next record batch message to {@code out}; returns false once everything has been
   * written, or {@link #handedOver}.
   */
  boolean writeNext(DataOutputStream out) throws IOException;

  /** Whether the rows travel as one struct column. */
  boolean inOneColumn();

  /** Whether the rest of the input is left to Spark's own writer ({@link #remainingRows}). */
  boolean handedOver();

  /** The rows not written here, once {@link #handedOver}, in order. */
  Iterator<InternalRow> remainingRows();

  /** Frees what the input holds; idempotent. */
  @Override
  void close();
}
