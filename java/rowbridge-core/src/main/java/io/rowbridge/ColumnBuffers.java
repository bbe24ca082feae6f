package io.rowbridge;

import org.apache.arrow.vector.types.Types.MinorType;

/**
 * One Arrow column given as primitives: its Arrow Java minor type, value count, null count and the
 * address and capacity of each buffer, and, for a struct, list or map, its child columns; for
 * vectors whose Arrow Java classes rowbridge cannot name (a relocated Arrow Java, as Apache
 * Comet's). Read by {@link RowbridgeConverter#convert(ColumnBuffers[], int)}.
 *
 * <p>A holder is mutable and meant to be reused for every batch, so that describing a batch
 * allocates nothing. Every address is borrowed: the memory belongs to the vector it was read from,
 * which must stay open and unchanged until the last row of the batch has been read. An address of 0
 * means the buffer is absent (its capacity must then be 0). Capacities are in bytes; the converter
 * checks each against the value count before any address reaches native code.
 *
 * <p>A dictionary-encoded column describes its indices (minor type INT) here and its values in
 * {@link #dictionary}.
 */
public final class ColumnBuffers {
  /** The Arrow Java minor type of the buffers' layout (of the indices when dictionary-encoded). */
  public MinorType minorType;

  /** A DECIMAL column's precision and scale (0 otherwise). */
  public int precision;

  public int scale;

  public int valueCount;

  /** The null count the vector reports; only 0 lets an absent validity buffer stand. */
  public int nullCount;

  public long validityAddress;
  public long validityCapacity;

  /** The offsets buffer of utf8 and binary columns (0 for fixed-width ones). */
  public long offsetsAddress;

  public long offsetsCapacity;
  public long dataAddress;
  public long dataCapacity;

  /** The dictionary's values when this column holds dictionary indices; null otherwise. */
  public ColumnBuffers dictionary;

  /**
   * The child columns of a STRUCT (one per field, with the struct's validity here and no other
   * buffer), of a LIST or LARGELIST (its element; offsets here), or of a MAP (its entries, a STRUCT
   * of the key and the value; offsets here); null for other columns. A child may be
   * dictionary-encoded.
   */
  public ColumnBuffers[] children;

  /** Sets the layout fields; returns this. */
  public ColumnBuffers layout(MinorType type, int valueCount, int nullCount) {
    this.minorType = type;
    this.valueCount = valueCount;
    this.nullCount = nullCount;
    this.precision = 0;
    this.scale = 0;
    return this;
  }

  /** Sets the three buffers (offsets 0 and 0 for fixed-width columns); returns this. */
  public ColumnBuffers buffers(
      long validityAddress,
      long validityCapacity,
      long offsetsAddress,
      long offsetsCapacity,
      long dataAddress,
      long dataCapacity) {
    this.validityAddress = validityAddress;
    this.validityCapacity = validityCapacity;
    this.offsetsAddress = offsetsAddress;
    this.offsetsCapacity = offsetsCapacity;
    this.dataAddress = dataAddress;
    this.dataCapacity = dataCapacity;
    return this;
  }

  @Override
  public String toString() {
    return minorType
        + (minorType == MinorType.DECIMAL ? "(" + precision + "," + scale + ")" : "")
        + " of "
        + valueCount
        + " values"
        + (dictionary != null ? ", dictionary " + dictionary : "")
        + (children != null ? ", children " + java.util.Arrays.toString(children) : "");
  }
}
