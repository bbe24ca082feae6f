package io.rowbridge.spark;

import io.rowbridge.spark.RandomColumns.Dictionaries;
import io.rowbridge.spark.RandomColumns.Kind;
import io.rowbridge.spark.RandomLeaves.BytesLeaf;
import io.rowbridge.spark.RandomLeaves.Leaf;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.complex.ListViewVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The random columns of the layouts Arrow Java 12 (Spark 3.5) lacks, for Arrow Java 18: string and
 * binary views, list views. Each Arrow line has a class of this name (src/test/arrow-LINE).
 */
final class NewerKinds {
  private NewerKinds() {}

  /** Adds the view leaves (utf8_view, binary_view). */
  static void addViewLeaves(List<Leaf> all) {
    all.add(new BytesLeaf("utf8_view", new ArrowType.Utf8View(), true, 0));
    all.add(new BytesLeaf("binary_view", new ArrowType.BinaryView(), false, 0));
  }

  /** The binary types of a variant's children. */
  static ArrowType[] variantChildTypes() {
    return new ArrowType[] {
      ArrowType.Binary.INSTANCE, ArrowType.LargeBinary.INSTANCE, ArrowType.BinaryView.INSTANCE
    };
  }

  static ArrowType listView() {
    return new ArrowType.ListView();
  }

  /** Sets value {@code index} of a variable-width vector (offsets or views). */
  static void setBytes(FieldVector vector, int index, byte[] bytes) {
    ((VariableWidthFieldVector) vector).setSafe(index, bytes);
  }

  /** Fills a list view of {@code rows} (lists or null) whose elements are {@code flat}. */
  @SuppressWarnings("unchecked")
  static void fillListView(
      FieldVector vector,
      Kind element,
      List<Object> rows,
      List<Object> flat,
      Random random,
      Dictionaries dictionaries) {
    ListViewVector list = (ListViewVector) vector;
    element.fill(list.getDataVector(), flat, false, random, dictionaries);
    int offset = 0;
    for (int i = 0; i < rows.size(); i++) {
      if (rows.get(i) == null) {
        list.setNull(i);
      } else {
        int size = ((List<Object>) rows.get(i)).size();
        list.setOffset(i, offset);
        list.setSize(i, size);
        list.setValidity(i, 1);
        offset += size;
      }
    }
  }
}
