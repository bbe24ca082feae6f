package io.rowbridge;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.unsafe.Platform;

/**
 * An ArrowArray tree and ArrowSchema Java allocated for the layout of one batch's vectors, for
 * batches whose layout differs from the converter's schema; reused while the batches' vectors have
 * its layout (compared as the registered one is, allocating nothing: a nested vector's Field is a
 * new object at every call, so comparing Field objects rebuilt the tree for every batch). Owned by
 * the {@link VectorInput} that built it, which closes it; its memory is its {@link BatchTree}'s.
 * The vectors bound into it are borrowed.
 */
final class FallbackTree implements AutoCloseable {
  final BatchTree tree;
  final NodeBinder[] binders;
  final long root;
  final long schema;

  /** For the layout of {@code current}, the batch's vectors; {@code zeroes} the converter's. */
  FallbackTree(ValueVector[] current, DictionaryProvider dictionaries, long zeroes) {
    List<Field> batchFields = new ArrayList<>(current.length);
    String[] labels = new String[current.length];
    for (int i = 0; i < current.length; i++) {
      batchFields.add(current[i].getField());
      labels[i] = "column '" + batchFields.get(i).getName() + "'";
    }
    tree = new BatchTree(batchFields, SchemaExporter.valuesFrom(dictionaries), labels, zeroes);
    binders = tree.binders;
    root = tree.root;
    schema = tree.schema;
  }

  /** True when every vector of {@code current} has the layout this tree was built for. */
  boolean reusableFor(ValueVector[] current) {
    for (int i = 0; i < current.length; i++) {
      if (!binders[i].matchesVector(current[i])) {
        return false;
      }
    }
    return true;
  }

  /** Writes {@code current}'s first {@code numRows} rows' addresses into the tree. */
  void bind(ValueVector[] current, int numRows, DictionaryProvider dictionaries) {
    Platform.putLong(null, root + CStructs.ARRAY_LENGTH, numRows);
    for (int i = 0; i < current.length; i++) {
      if (!binders[i].bindValue(current[i], dictionaries)) {
        throw new RowbridgeException(
            "rowbridge: "
                + binders[i].label
                + ": the vector does not have the layout of its own field "
                + current[i].getField());
      }
    }
  }

  @Override
  public void close() {
    tree.close();
  }
}
