package io.rowbridge.spark.python;

import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A column vector that reads another's values and is not an ArrowColumnVector. Spark 4.2's
 * ArrowEvalPythonExec keeps the ArrowColumnVectors of its input batches until the worker's results
 * for them return, after the child has moved on; it copies the rows of any other vector first. A
 * vector rowbridge reuses ({@link io.rowbridge.spark.arrow.ReusedArrowColumnVector}) is shown to it
 * through this class.
 *
 * <p>Ownership: the delegate stays its owner's; {@link #close()} does nothing.
 */
public final class DelegatingColumnVector extends ColumnVector {
  private final ColumnVector delegate;

  public DelegatingColumnVector(ColumnVector delegate) {
    super(delegate.dataType());
    this.delegate = delegate;
  }

  /** `batch` with every column behind a DelegatingColumnVector; the batch is not copied. */
  public static ColumnarBatch wrap(ColumnarBatch batch) {
    ColumnVector[] columns = new ColumnVector[batch.numCols()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = new DelegatingColumnVector(batch.column(i));
    }
    return new ColumnarBatch(columns, batch.numRows());
  }

  @Override
  public void close() {}

  @Override
  public boolean hasNull() {
    return delegate.hasNull();
  }

  @Override
  public int numNulls() {
    return delegate.numNulls();
  }

  @Override
  public boolean isNullAt(int rowId) {
    return delegate.isNullAt(rowId);
  }

  @Override
  public boolean getBoolean(int rowId) {
    return delegate.getBoolean(rowId);
  }

  @Override
  public byte getByte(int rowId) {
    return delegate.getByte(rowId);
  }

  @Override
  public short getShort(int rowId) {
    return delegate.getShort(rowId);
  }

  @Override
  public int getInt(int rowId) {
    return delegate.getInt(rowId);
  }

  @Override
  public long getLong(int rowId) {
    return delegate.getLong(rowId);
  }

  @Override
  public float getFloat(int rowId) {
    return delegate.getFloat(rowId);
  }

  @Override
  public double getDouble(int rowId) {
    return delegate.getDouble(rowId);
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    return delegate.getArray(rowId);
  }

  @Override
  public ColumnarMap getMap(int rowId) {
    return delegate.getMap(rowId);
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    return delegate.getDecimal(rowId, precision, scale);
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    return delegate.getUTF8String(rowId);
  }

  @Override
  public byte[] getBinary(int rowId) {
    return delegate.getBinary(rowId);
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    return delegate.getChild(ordinal);
  }
}
