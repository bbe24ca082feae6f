package io.rowbridge.spark;

import io.rowbridge.spark.RandomLeaves.Leaf;
import java.util.List;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The random columns of the layouts Arrow Java 12 (Spark 3.5) lacks: none are drawn here (no views,
 * no list views). Each Arrow line has a class of this name (src/test/arrow-LINE).
 */
final class NewerKinds {
  private NewerKinds() {}

  static void addViewLeaves(List<Leaf> all) {}

  static ArrowType[] variantChildTypes() {
    return new ArrowType[] {ArrowType.Binary.INSTANCE, ArrowType.LargeBinary.INSTANCE};
  }

  static ArrowType listView() {
    throw new UnsupportedOperationException("Arrow Java 12 has no list view");
  }

  /** Sets value {@code index} of a variable-width vector (offsets: Arrow Java 12 has no views). */
  static void setBytes(FieldVector vector, int index, byte[] bytes) {
    if (vector instanceof BaseLargeVariableWidthVector) {
      ((BaseLargeVariableWidthVector) vector).setSafe(index, bytes);
    } else {
      ((BaseVariableWidthVector) vector).setSafe(index, bytes);
    }
  }

  /** Never called: {@link #listView} throws first (Arrow Java 12 has no list view). */
  static void fillListView(FieldVector vector, Object... elementRowsFlatRandomDictionaries) {
    throw new UnsupportedOperationException("Arrow Java 12 has no list view");
  }
}
