package io.rowbridge;

import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The rows of a converter's current batch as an Iterator: {@link RowbridgeConverter#next} and
 * {@link RowbridgeConverter#row} behind {@code hasNext}/{@code next}. One per converter, allocated
 * with it and reused for every batch; it owns nothing, and its elements are the converter's rows
 * (reused, valid until the next row, as {@link RowbridgeConverter#row} says).
 */
final class RowIterator implements Iterator<InternalRow> {
  private final RowbridgeConverter converter;
  private boolean advanced;
  private boolean available;

  RowIterator(RowbridgeConverter converter) {
    this.converter = converter;
  }

  /** Forgets a row moved to by {@code hasNext}: the converter has a new chunk or batch. */
  void reset() {
    advanced = false;
  }

  @Override
  public boolean hasNext() {
    if (!advanced) {
      available = converter.next();
      advanced = true;
    }
    return available;
  }

  @Override
  public InternalRow next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    advanced = false;
    return converter.row();
  }
}
