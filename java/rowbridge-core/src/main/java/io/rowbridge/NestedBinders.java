package io.rowbridge;

import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.AbstractStructVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The binders of nested and encoded layouts: struct, the lists, dictionary; list views and run-end
 * encoding are {@link NewerLayouts}'.
 */
final class NestedBinders {
  private NestedBinders() {}

  /**
   * The element vector of a list, large list (a map is a list), list view or large list view; null
   * for any other vector.
   */
  static FieldVector elementOf(ValueVector vector) {
    if (vector instanceof ListVector) {
      return ((ListVector) vector).getDataVector();
    }
    if (vector instanceof LargeListVector) {
      return ((LargeListVector) vector).getDataVector();
    }
    return NewerLayouts.elementOf(vector);
  }

  /** A list or list view binder's matchesVector: its minor type, then its element's layout. */
  static boolean listMatches(NodeBinder list, ValueVector vector) {
    FieldVector element = elementOf(vector);
    return vector.getMinorType() == list.minorType
        && element != null
        && list.children[0].matchesVector(element);
  }

  /** Validity plus one child per field. */
  static final class StructBinder extends NodeBinder {
    StructBinder(Context context, Field field, long array, String label) {
      super(context, field, array, label, field.getChildren().size());
      List<Field> fields = field.getChildren();
      for (int i = 0; i < children.length; i++) {
        children[i] =
            create(
                context, fields.get(i), context.child(array, i), childLabel(label, fields.get(i)));
      }
    }

    @Override
    int bufferCount() {
      return 1;
    }

    @Override
    boolean matchesVector(ValueVector vector) {
      if (vector.getMinorType() != minorType || !(vector instanceof AbstractStructVector)) {
        return false;
      }
      AbstractStructVector struct = (AbstractStructVector) vector;
      if (struct.size() != children.length) {
        return false;
      }
      for (int i = 0; i < children.length; i++) {
        if (!children[i].matchesVector(struct.getChildByOrdinal(i))) {
          return false;
        }
      }
      return true;
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      if (!accepts(vector, AbstractStructVector.class)) {
        return false;
      }
      AbstractStructVector struct = (AbstractStructVector) vector;
      if (struct.size() != children.length) {
        return false;
      }
      int count = struct.getValueCount();
      if (struct instanceof StructVector) {
        bindValidity(((StructVector) struct).getValidityBuffer(), count);
      } else {
        writeHeader(count, 0);
        putBuffer(0, 0);
      }
      for (int i = 0; i < children.length; i++) {
        ValueVector child = struct.getChildByOrdinal(i);
        checkChildCount(children[i], child.getValueCount(), count);
        if (!children[i].bindValue(child, dictionaries)) {
          return false;
        }
      }
      return true;
    }

    @Override
    boolean bindBuffers(ColumnBuffers column) {
      if (column.minorType != minorType
          || column.dictionary != null
          || column.children == null
          || column.children.length != children.length) {
        return false;
      }
      int count = column.valueCount;
      for (int i = 0; i < children.length; i++) {
        checkChildCount(children[i], column.children[i].valueCount, count);
      }
      bindValidity(column);
      for (int i = 0; i < children.length; i++) {
        if (!children[i].bindBuffers(column.children[i])) {
          return false;
        }
      }
      return true;
    }

    private static void checkChildCount(NodeBinder child, int values, int count) {
      if (values < count) {
        throw new RowbridgeException(
            "rowbridge: " + child.label + " has " + values + " values but its struct has " + count);
      }
    }
  }

  /** Validity, 4- or 8-byte offsets and the element child (list, large list, map). */
  static final class ListBinder extends NodeBinder {
    private final int offsetWidth;

    ListBinder(Context context, Field field, long array, String label, int offsetWidth) {
      super(context, field, array, label, 1);
      this.offsetWidth = offsetWidth;
      createElement(context);
    }

    @Override
    int bufferCount() {
      return 2;
    }

    @Override
    boolean matchesVector(ValueVector vector) {
      return listMatches(this, vector);
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      if (!accepts(vector, FieldVector.class)) {
        return false;
      }
      FieldVector list = (FieldVector) vector;
      FieldVector element = elementOf(list);
      if (element == null) {
        return false;
      }
      int count = list.getValueCount();
      ArrowBuf offsetBuffer = list.getOffsetBuffer();
      long offsets =
          checkedOffsets(
              offsetBuffer,
              offsetWidth,
              count,
              element.getValueCount(),
              "the child has ",
              " values");
      bindValidity(list.getValidityBuffer(), count);
      putBuffer(1, offsets);
      return children[0].bindValue(element, dictionaries);
    }

    @Override
    boolean bindBuffers(ColumnBuffers column) {
      if (column.minorType != minorType
          || column.dictionary != null
          || column.children == null
          || column.children.length != 1) {
        return false;
      }
      int count = column.valueCount;
      ColumnBuffers element = column.children[0];
      long offsets =
          checkedOffsets(
              column.offsetsAddress != 0 ? column.offsetsAddress : zeroes,
              column.offsetsCapacity,
              offsetWidth,
              count,
              element.valueCount,
              "the child has ",
              " values");
      bindValidity(column);
      putBuffer(1, offsets);
      return children[0].bindBuffers(element);
    }
  }

  /** Validity and the element child of count * list size values. */
  static final class FixedSizeListBinder extends NodeBinder {
    private final int listSize;

    FixedSizeListBinder(Context context, Field field, long array, String label) {
      super(context, field, array, label, 1);
      this.listSize = ((ArrowType.FixedSizeList) field.getType()).getListSize();
      createElement(context);
    }

    @Override
    int bufferCount() {
      return 1;
    }

    @Override
    boolean matchesVector(ValueVector vector) {
      return vector.getMinorType() == minorType
          && vector instanceof FixedSizeListVector
          && ((FixedSizeListVector) vector).getListSize() == listSize
          && children[0].matchesVector(((FixedSizeListVector) vector).getDataVector());
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      if (!accepts(vector, FixedSizeListVector.class)) {
        return false;
      }
      FixedSizeListVector list = (FixedSizeListVector) vector;
      int count = list.getValueCount();
      FieldVector element = list.getDataVector();
      if (element.getValueCount() < (long) count * listSize) {
        throw new RowbridgeException(
            "rowbridge: "
                + label
                + ": "
                + count
                + " lists of "
                + listSize
                + " need "
                + (long) count * listSize
                + " child values but the child has "
                + element.getValueCount());
      }
      bindValidity(list.getValidityBuffer(), count);
      return children[0].bindValue(element, dictionaries);
    }
  }

  /** Integer indices in the node, the dictionary's values in its dictionary node. */
  static final class DictionaryBinder extends NodeBinder {
    private final LeafBinders.FixedBinder indices;
    private final NodeBinder values;
    private final long id;

    DictionaryBinder(Context context, Field field, long array, String label) {
      super(context, field, array, label, 0);
      this.indices =
          new LeafBinders.FixedBinder(
              context, field, array, label, field.getDictionary().getIndexType().getBitWidth() / 8);
      this.id = field.getDictionary().getId();
      this.values =
          create(
              context,
              context.dictionaryValues.apply(field),
              context.dictionary(array),
              label + " dictionary");
    }

    @Override
    int bufferCount() {
      return 2;
    }

    @Override
    void close() {
      indices.close();
      values.close();
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      Dictionary dictionary = dictionaries == null ? null : dictionaries.lookup(id);
      if (dictionary == null) {
        throw new RowbridgeException(
            "rowbridge: "
                + label
                + " is dictionary-encoded (id "
                + id
                + ") but no dictionary provider holds that id");
      }
      return indices.bindValue(vector, dictionaries)
          && values.bindValue(dictionary.getVector(), dictionaries);
    }

    @Override
    boolean bindBuffers(ColumnBuffers column) {
      return column.dictionary != null
          && indices.bindFlat(column)
          && values.bindBuffers(column.dictionary);
    }
  }
}
