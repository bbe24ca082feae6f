package io.rowbridge.jmh;

import io.rowbridge.RowStaging;
import java.util.Arrays;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.Platform;

/**
 * Rows staged once in native memory, one after another, with each batch's {@code batchRows + 1}
 * offsets (from 0, relative to the batch's first row) in one table: batch k decodes from {@link
 * #data}(k) with its offsets at {@link #offsets}(k). Owns its native memory until {@link #close}.
 */
final class StagedRows implements AutoCloseable {
  private final RowStaging staging;
  private final int batchRows;
  private final long table;

  StagedRows(StructType sparkSchema, UnsafeRow[] rows, int batchRows) {
    this.batchRows = batchRows;
    int numBatches = rows.length / batchRows;
    staging = new RowStaging(sparkSchema, rows.length, Long.MAX_VALUE, null);
    for (UnsafeRow row : rows) {
      if (!staging.add(row)) {
        throw new IllegalStateException("the staging refused a row");
      }
    }
    long all = staging.offsetsAddress();
    table = Platform.allocateMemory(8L * (batchRows + 1) * numBatches);
    for (int k = 0; k < numBatches; k++) {
      long base = Platform.getLong(null, all + 8L * k * batchRows);
      long to = offsets(k);
      for (int r = 0; r <= batchRows; r++) {
        Platform.putLong(
            null, to + 8L * r, Platform.getLong(null, all + 8L * (k * batchRows + r)) - base);
      }
    }
  }

  /** Every row of the dataset as Spark's UnsafeProjection writes it, each copied (on the heap). */
  static UnsafeRow[] unsafeRows(BenchData data) {
    UnsafeProjection projection = UnsafeProjection.create(data.sparkSchema);
    UnsafeRow[] out = new UnsafeRow[data.totalRows];
    int n = 0;
    for (ColumnarBatch batch : data.batches) {
      Iterator<InternalRow> it = batch.rowIterator();
      while (it.hasNext()) {
        out[n++] = projection.apply(it.next()).copy();
      }
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  /** The address of batch {@code k}'s first row. */
  long data(int k) {
    return staging.dataAddress()
        + Platform.getLong(null, staging.offsetsAddress() + 8L * k * batchRows);
  }

  /** The address of batch {@code k}'s offsets. */
  long offsets(int k) {
    return table + 8L * (batchRows + 1) * k;
  }

  @Override
  public void close() {
    staging.close();
    Platform.freeMemory(table);
  }
}
