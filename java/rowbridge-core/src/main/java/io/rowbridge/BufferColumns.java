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
 * columns and child columns (each such column's field becomes int32 indices into a dictionary of
 * the converter's field), kept while the batches have that pattern. Owned by one {@link
 * ColumnBuffersInput}, which closes it; the tree's memory belongs to its own {@link NativeArena}.
 */
final class BufferColumns implements AutoCloseable {
  private static final ArrowType INDEX_TYPE = new ArrowType.Int(32, true);

  private final List<Field> fields;
  private final NodeBinder[] registered;
  private final long zeroes;

  /**
   * Which nodes the current tree has dictionary-encoded, in the order {@link #fits} visits them
   * (each column, then its children before the next column); null before the first tree.
   */
  private boolean[] encoded;

  /** The next node {@link #fits} compares. */
  private int visited;

  private long nextDictionaryId;

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
    checkTree(column, label);
  }

  /** {@link #checkBuffers} of the column, its dictionary and its children, at every depth. */
  private static void checkTree(ColumnBuffers column, String label) {
    checkBuffers(column, label);
    if (column.dictionary != null) {
      checkBuffers(column.dictionary, label + " dictionary");
      if (column.dictionary.dictionary != null || column.dictionary.children != null) {
        throw new RowbridgeException(
            "rowbridge: " + label + " has a dictionary of dictionary-encoded or nested values");
      }
    }
    if (column.children != null) {
      for (int i = 0; i < column.children.length; i++) {
        ColumnBuffers child = column.children[i];
        if (child == null) {
          throw new IllegalArgumentException("rowbridge: " + label + " has no child " + i);
        }
        checkTree(child, label + " child " + i);
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
    visited = 0;
    for (int i = 0; i < columns.length; i++) {
      if (!fits(fields.get(i), columns[i])) {
        return false;
      }
    }
    return visited == encoded.length;
  }

  /**
   * Whether {@code column} and its children have the current tree's pattern (allocates nothing).
   */
  private boolean fits(Field field, ColumnBuffers column) {
    boolean here = column.dictionary != null;
    if (visited >= encoded.length || encoded[visited++] != here) {
      return false;
    }
    if (!here && nestsAsField(field, column)) {
      for (int i = 0; i < column.children.length; i++) {
        if (!fits(field.getChildren().get(i), column.children[i])) {
          return false;
        }
      }
    }
    return true;
  }

  /** Whether the pattern goes on into the column's children: as many as the field has. */
  private static boolean nestsAsField(Field field, ColumnBuffers column) {
    return column.children != null && column.children.length == field.getChildren().size();
  }

  private void build(ColumnBuffers[] columns) {
    close();
    List<Boolean> pattern = new ArrayList<>();
    List<Field> batchFields = new ArrayList<>(columns.length);
    Map<DictionaryEncoding, Field> values = new IdentityHashMap<>();
    nextDictionaryId = 0;
    for (int i = 0; i < columns.length; i++) {
      batchFields.add(batchField(fields.get(i), columns[i], values, pattern, registered[i].label));
    }
    String[] labels = new String[columns.length];
    for (int i = 0; i < columns.length; i++) {
      labels[i] = registered[i].label;
    }
    tree = new BatchTree(batchFields, field -> values.get(field.getDictionary()), labels, zeroes);
    encoded = new boolean[pattern.size()];
    for (int i = 0; i < encoded.length; i++) {
      encoded[i] = pattern.get(i);
    }
  }

  /**
   * The field of {@code column} in the batch's schema: the converter's {@code field}, with int32
   * indices in place of each node given with a dictionary (the values keep the converter's field);
   * the nodes' pattern is added to {@code pattern} in the order {@link #fits} visits them.
   */
  private Field batchField(
      Field field,
      ColumnBuffers column,
      Map<DictionaryEncoding, Field> values,
      List<Boolean> pattern,
      String label) {
    if (field.getDictionary() != null) {
      throw new RowbridgeException(
          "rowbridge: "
              + label
              + " is dictionary-encoded in the converter's schema: columns given as buffers"
              + " take such a field only when every column fits the converter's schema",
          RowbridgeException.ENOTSUP);
    }
    boolean here = column.dictionary != null;
    pattern.add(here);
    if (here) {
      DictionaryEncoding encoding =
          new DictionaryEncoding(nextDictionaryId++, false, (ArrowType.Int) INDEX_TYPE);
      values.put(encoding, field);
      return new Field(
          field.getName(), new FieldType(field.isNullable(), INDEX_TYPE, encoding), null);
    }
    if (!nestsAsField(field, column)) {
      return field;
    }
    List<Field> children = new ArrayList<>(column.children.length);
    boolean changed = false;
    for (int i = 0; i < column.children.length; i++) {
      Field child = field.getChildren().get(i);
      Field batchChild =
          batchField(child, column.children[i], values, pattern, label + " child " + i);
      changed |= batchChild != child;
      children.add(batchChild);
    }
    return changed ? new Field(field.getName(), field.getFieldType(), children) : field;
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
