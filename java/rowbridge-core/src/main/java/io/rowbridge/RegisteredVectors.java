package io.rowbridge;

import java.util.List;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Arrow Java vectors bound into the converter's registered ArrowArray ({@link
 * ConverterOptions.Input#REGISTERED}, the default): each batch's buffer addresses are written into
 * the registered batch and the native converter is called with primitives; nothing is allocated per
 * batch. A batch whose layout differs is bound into the {@link FallbackTree} instead.
 */
final class RegisteredVectors extends VectorInput {
  RegisteredVectors(List<Field> fields, NodeBinder[] columns, long zeroes) {
    super(fields, columns, zeroes);
  }

  @Override
  public long convert(long handle, int numRows, DictionaryProvider dictionaries) {
    if (matchesRegistered(numRows) && bindRegistered(dictionaries)) {
      return RowbridgeNative.convert(handle, numRows);
    }
    FallbackTree tree = fallbackTree(dictionaries);
    tree.bind(current, numRows, dictionaries);
    return RowbridgeNative.convertArray(handle, tree.root, tree.schema);
  }

  private boolean bindRegistered(DictionaryProvider dictionaries) {
    for (int i = 0; i < current.length; i++) {
      if (!columns[i].bindValue(current[i], dictionaries)) {
        checkedVectors[i] = null;
        return false;
      }
    }
    return true;
  }
}
