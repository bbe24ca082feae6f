package io.rowbridge;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.spark.unsafe.Platform;

/**
 * The path that passes the batch's own schema for columns given as {@link ColumnBuffers}: an
 * ArrowArray tree and ArrowSchema that Java allocates for the batch's pattern of dictionary-encoded
 * columns (each such column's field becomes int32 indices into a dictionary of the converter's
 * field), kept while the batches have that pattern. Owned by one {@link RowbridgeConverter}, which
 * closes it; the tree's memory belongs to its own {@link NativeArena}.
 */
final class BufferColumns implements AutoCloseable {
  private static final ArrowType INDEX_TYPE = new ArrowType.Int(32, true);

  private final List<Field> fields;
  private final NodeBinder[] registered;
  private final long zeroes;

  /** Which columns the current tree has dictionary-encoded; null before the first tree. */
  private boolean[] encoded;

  private BatchTree tree;

  /**
   * For the converter's {@code fields}; {@code registered} are its binders (for the columns'
   * labels), {@code zeroes} its zero block.
   */
  BufferColumns(List<Field> fields, NodeBinder[] registered, long zeroes) {
    this.fields = fields;
    this.registered = registered;
    this.zeroes = zeroes;
  }

  /**
   * Checks what a column says of itself before any of its addresses is used: a holder for the
   * column, enough values for the batch, no negative count or capacity, and no capacity for an
   * absent buffer.
   */
  static void check(ColumnBuffers column, int numRows, String label) {
    if (column == null) {
      throw new IllegalArgumentException("rowbridge: " + label + " has no ColumnBuffers");
    }
    if (column.valueCount < numRows) {
      throw new RowbridgeException(
          "rowbridge: "
              + label
              + " has "
              + column.valueCount
              + " values but the batch has "
              + numRows
              + " rows");
    }
    checkBuffers(column, label);
    if (column.dictionary != null) {
      checkBuffers(column.dictionary, label + " dictionary");
      if (column.dictionary.dictionary != null) {
        throw new RowbridgeException(
            "rowbridge: " + label + " has a dictionary of dictionary-encoded values");
      }
    }
  }

  private static void checkBuffers(ColumnBuffers column, String label) {
    if (column.minorType == null || column.valueCount < 0 || column.nullCount < 0) {
      throw new RowbridgeException(
          "rowbridge: "
              + label
              + " has no minor type or a negative value or null count ("
              + column.minorType
              + ", "
              + column.valueCount
              + ", "
              + column.nullCount
              + ")");
    }
    checkBuffer(column.validityAddress, column.validityCapacity, "validity", label);
    checkBuffer(column.offsetsAddress, column.offsetsCapacity, "offsets", label);
    checkBuffer(column.dataAddress, column.dataCapacity, "data", label);
  }

  private static void checkBuffer(long address, long capacity, String what, String label) {
    if (capacity < 0 || (address == 0 && capacity != 0)) {
      throw new RowbridgeException(
          "rowbridge: "
              + label
              + ": the "
              + what
              + " buffer has address "
              + address
              + " and capacity "
              + capacity);
    }
  }

  /** Binds the columns into the tree for their pattern and converts the first chunk. */
  long convert(long handle, ColumnBuffers[] columns, int numRows) {
    if (!fits(columns)) {
      build(columns);
    }
    Platform.putLong(null, tree.root + CStructs.ARRAY_LENGTH, numRows);
    for (int i = 0; i < columns.length; i++) {
      if (!tree.binders[i].bindBuffers(columns[i])) {
        throw new RowbridgeException(
            "rowbridge: "
                + registered[i].label
                + " is "
                + columns[i]
                + " but the converter's schema has "
                + fields.get(i).getType()
                + (fields.get(i).getDictionary() != null ? " (dictionary-encoded)" : ""),
            RowbridgeException.ENOTSUP);
      }
    }
    return RowbridgeNative.convertArray(handle, tree.root, tree.schema);
  }

  private boolean fits(ColumnBuffers[] columns) {
    if (encoded == null) {
      return false;
    }
    for (int i = 0; i < columns.length; i++) {
      if (encoded[i] != (columns[i].dictionary != null)) {
        return false;
      }
    }
    return true;
  }

  private void build(ColumnBuffers[] columns) {
    close();
    boolean[] pattern = new boolean[columns.length];
    List<Field> batchFields = new ArrayList<>(columns.length);
    Map<DictionaryEncoding, Field> values = new IdentityHashMap<>();
    for (int i = 0; i < columns.length; i++) {
      Field field = fields.get(i);
      if (field.getDictionary() != null) {
        throw new RowbridgeException(
            "rowbridge: "
                + registered[i].label
                + " is dictionary-encoded in the converter's schema: columns given as buffers"
                + " take such a field only when every column fits the converter's schema",
            RowbridgeException.ENOTSUP);
      }
      pattern[i] = columns[i].dictionary != null;
      if (pattern[i]) {
        DictionaryEncoding encoding = new DictionaryEncoding(i, false, (ArrowType.Int) INDEX_TYPE);
        values.put(encoding, field);
        batchFields.add(
            new Field(
                field.getName(), new FieldType(field.isNullable(), INDEX_TYPE, encoding), null));
      } else {
        batchFields.add(field);
      }
    }
    String[] labels = new String[columns.length];
    for (int i = 0; i < columns.length; i++) {
      labels[i] = registered[i].label;
    }
    tree = new BatchTree(batchFields, field -> values.get(field.getDictionary()), labels, zeroes);
    encoded = pattern;
  }

  /** Frees the tree (a later batch builds a new one). */
  @Override
  public void close() {
    if (tree != null) {
      tree.close();
      tree = null;
    }
    encoded = null;
  }
}
