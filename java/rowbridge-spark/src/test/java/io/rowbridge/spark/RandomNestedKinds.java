package io.rowbridge.spark;

import static io.rowbridge.spark.RandomColumns.*;
import static io.rowbridge.spark.RandomLeaves.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/** struct, list (four layouts) and map kinds of the differential suite, nested to any depth. */
final class RandomNestedKinds {
  private RandomNestedKinds() {}

  /** struct<children> (values: Object[] of the children's values). */
  static final class StructKind extends Kind {
    final List<Kind> children;
    final boolean[] nullable;

    StructKind(List<Kind> children, boolean[] nullable) {
      this.children = children;
      this.nullable = nullable;
    }

    @Override
    String describe() {
      StringBuilder s = new StringBuilder("struct<");
      for (int i = 0; i < children.size(); i++) {
        s.append(i == 0 ? "" : ", ")
            .append("f")
            .append(i)
            .append(nullable[i] ? "" : " not null")
            .append(": ")
            .append(children.get(i).describe());
      }
      return s.append(">").toString();
    }

    @Override
    boolean sparkReadsInput() {
      return children.stream().allMatch(Kind::sparkReadsInput);
    }

    @Override
    boolean hasCalendarInterval() {
      return children.stream().anyMatch(Kind::hasCalendarInterval);
    }

    @Override
    Field input(String name, boolean nullableField, Dictionaries dictionaries) {
      List<Field> fields = new ArrayList<>();
      for (int i = 0; i < children.size(); i++) {
        fields.add(children.get(i).input("f" + i, nullable[i], dictionaries));
      }
      return new Field(name, new FieldType(nullableField, new ArrowType.Struct(), null), fields);
    }

    @Override
    Field readable(String name, boolean nullableField) {
      List<Field> fields = new ArrayList<>();
      for (int i = 0; i < children.size(); i++) {
        fields.add(children.get(i).readable("f" + i, nullable[i]));
      }
      return new Field(name, new FieldType(nullableField, new ArrowType.Struct(), null), fields);
    }

    @Override
    Object random(Random random) {
      Object[] values = new Object[children.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = RandomColumns.value(children.get(i), nullable[i], random);
      }
      return values;
    }

    @Override
    void fill(
        FieldVector vector,
        List<Object> rows,
        boolean readable,
        Random random,
        Dictionaries dictionaries) {
      StructVector struct = (StructVector) vector;
      struct.setInitialCapacity(rows.size());
      struct.allocateNew();
      for (int c = 0; c < children.size(); c++) {
        List<Object> column = new ArrayList<>(rows.size());
        for (Object row : rows) {
          // under a null struct, children hold anything their field allows
          column.add(
              row == null
                  ? RandomColumns.value(children.get(c), nullable[c], random)
                  : ((Object[]) row)[c]);
        }
        children
            .get(c)
            .fill(
                (FieldVector) struct.getChildByOrdinal(c), column, readable, random, dictionaries);
      }
      setValidity(struct, rows);
    }
  }

  /** Marks the struct's values null where {@code rows} are, and sets its value count. */
  static void setValidity(StructVector struct, List<Object> rows) {
    for (int i = 0; i < rows.size(); i++) {
      if (rows.get(i) == null) {
        struct.setNull(i);
      } else {
        struct.setIndexDefined(i);
      }
    }
    struct.setValueCount(rows.size());
  }

  enum ListLayout {
    LIST,
    LARGE_LIST,
    FIXED_SIZE_LIST,
    LIST_VIEW
  }

  /** list<element> in four layouts (values: List<Object>); Spark reads a plain list. */
  static final class ListKind extends Kind {
    final Kind element;
    final boolean elementNullable;
    final ListLayout layout;
    final int fixedSize;

    ListKind(Kind element, boolean elementNullable, ListLayout layout, int fixedSize) {
      this.element = element;
      this.elementNullable = elementNullable;
      this.layout = layout;
      this.fixedSize = fixedSize;
    }

    @Override
    String describe() {
      String name =
          layout == ListLayout.FIXED_SIZE_LIST
              ? "fixed_size_list[" + fixedSize + "]"
              : layout.name().toLowerCase(java.util.Locale.ROOT);
      return name + "<" + element.describe() + (elementNullable ? "" : " not null") + ">";
    }

    @Override
    boolean sparkReadsInput() {
      return layout == ListLayout.LIST && element.sparkReadsInput();
    }

    @Override
    boolean hasCalendarInterval() {
      return element.hasCalendarInterval();
    }

    ArrowType type(boolean readable) {
      if (readable) {
        return new ArrowType.List();
      }
      switch (layout) {
        case LARGE_LIST:
          return new ArrowType.LargeList();
        case FIXED_SIZE_LIST:
          return new ArrowType.FixedSizeList(fixedSize);
        case LIST_VIEW:
          return NewerKinds.listView();
        default:
          return new ArrowType.List();
      }
    }

    @Override
    Field input(String name, boolean nullable, Dictionaries dictionaries) {
      return new Field(
          name,
          new FieldType(nullable, type(false), null),
          List.of(element.input("element", elementNullable, dictionaries)));
    }

    @Override
    Field readable(String name, boolean nullable) {
      return new Field(
          name,
          new FieldType(nullable, type(true), null),
          List.of(element.readable("element", elementNullable)));
    }

    @Override
    Object random(Random random) {
      int size = layout == ListLayout.FIXED_SIZE_LIST ? fixedSize : random.nextInt(9);
      List<Object> values = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        values.add(RandomColumns.value(element, elementNullable, random));
      }
      return values;
    }

    @Override
    @SuppressWarnings("unchecked")
    void fill(
        FieldVector vector,
        List<Object> rows,
        boolean readable,
        Random random,
        Dictionaries dictionaries) {
      int n = rows.size();
      List<Object> flat = new ArrayList<>();
      ListLayout target = readable ? ListLayout.LIST : layout;
      for (Object row : rows) {
        if (row != null) {
          flat.addAll((List<Object>) row);
        } else if (target == ListLayout.FIXED_SIZE_LIST) {
          for (int k = 0; k < fixedSize; k++) {
            flat.add(RandomColumns.value(element, elementNullable, random));
          }
        }
      }
      vector.setInitialCapacity(n);
      vector.allocateNew();
      switch (target) {
        case LIST:
          {
            ListVector list = (ListVector) vector;
            element.fill(list.getDataVector(), flat, readable, random, dictionaries);
            for (int i = 0; i < n; i++) {
              if (rows.get(i) == null) {
                list.setNull(i);
              } else {
                list.startNewValue(i);
                list.endValue(i, ((List<Object>) rows.get(i)).size());
              }
            }
            break;
          }
        case LARGE_LIST:
          {
            LargeListVector list = (LargeListVector) vector;
            element.fill(list.getDataVector(), flat, readable, random, dictionaries);
            for (int i = 0; i < n; i++) {
              if (rows.get(i) == null) {
                // an empty list, then null: Arrow Java 12's LargeListVector.setNull writes its
                // 8-byte offsets as 4-byte ones
                list.startNewValue(i);
                list.endValue(i, 0);
                BitVectorHelper.unsetBit(list.getValidityBuffer(), i);
              } else {
                list.startNewValue(i);
                list.endValue(i, ((List<Object>) rows.get(i)).size());
              }
            }
            break;
          }
        case FIXED_SIZE_LIST:
          {
            FixedSizeListVector list = (FixedSizeListVector) vector;
            element.fill(list.getDataVector(), flat, readable, random, dictionaries);
            for (int i = 0; i < n; i++) {
              if (rows.get(i) == null) {
                list.setNull(i);
              } else {
                list.startNewValue(i);
              }
            }
            break;
          }
        default:
          NewerKinds.fillListView(vector, element, rows, flat, random, dictionaries);
      }
      vector.setValueCount(n);
    }
  }

  /** map<key, value> (values: List<Object[]> of {key, value}; keys never null). */
  static final class MapKind extends Kind {
    final Leaf key;
    final Kind value;
    final boolean valueNullable;

    MapKind(Leaf key, Kind value, boolean valueNullable) {
      this.key = key;
      this.value = value;
      this.valueNullable = valueNullable;
    }

    @Override
    String describe() {
      return "map<"
          + key.describe()
          + ", "
          + value.describe()
          + (valueNullable ? "" : " not null")
          + ">";
    }

    @Override
    boolean sparkReadsInput() {
      return key.sparkReadsInput() && value.sparkReadsInput();
    }

    @Override
    boolean hasCalendarInterval() {
      return key.hasCalendarInterval() || value.hasCalendarInterval();
    }

    private Field map(String name, boolean nullable, Field keyField, Field valueField) {
      Field entries =
          new Field(
              MapVector.DATA_VECTOR_NAME,
              new FieldType(false, new ArrowType.Struct(), null),
              List.of(keyField, valueField));
      return new Field(
          name, new FieldType(nullable, new ArrowType.Map(false), null), List.of(entries));
    }

    @Override
    Field input(String name, boolean nullable, Dictionaries dictionaries) {
      return map(
          name,
          nullable,
          key.input(MapVector.KEY_NAME, false, dictionaries),
          value.input(MapVector.VALUE_NAME, valueNullable, dictionaries));
    }

    @Override
    Field readable(String name, boolean nullable) {
      return map(
          name,
          nullable,
          key.readable(MapVector.KEY_NAME, false),
          value.readable(MapVector.VALUE_NAME, valueNullable));
    }

    @Override
    Object random(Random random) {
      int size = random.nextInt(9);
      List<Object[]> entries = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        entries.add(
            new Object[] {key.random(random), RandomColumns.value(value, valueNullable, random)});
      }
      return entries;
    }

    @Override
    @SuppressWarnings("unchecked")
    void fill(
        FieldVector vector,
        List<Object> rows,
        boolean readable,
        Random random,
        Dictionaries dictionaries) {
      MapVector map = (MapVector) vector;
      map.setInitialCapacity(rows.size());
      map.allocateNew();
      StructVector entries = (StructVector) map.getDataVector();
      List<Object> keys = new ArrayList<>();
      List<Object> values = new ArrayList<>();
      for (Object row : rows) {
        if (row != null) {
          for (Object[] entry : (List<Object[]>) row) {
            keys.add(entry[0]);
            values.add(entry[1]);
          }
        }
      }
      entries.setInitialCapacity(keys.size());
      entries.allocateNew();
      key.fill((FieldVector) entries.getChildByOrdinal(0), keys, readable, random, dictionaries);
      value.fill(
          (FieldVector) entries.getChildByOrdinal(1), values, readable, random, dictionaries);
      for (int i = 0; i < keys.size(); i++) {
        entries.setIndexDefined(i);
      }
      entries.setValueCount(keys.size());
      for (int i = 0; i < rows.size(); i++) {
        if (rows.get(i) == null) {
          map.setNull(i);
        } else {
          map.startNewValue(i);
          map.endValue(i, ((List<Object[]>) rows.get(i)).size());
        }
      }
      map.setValueCount(rows.size());
    }
  }
}
