package io.rowbridge;

import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.LargeListViewVector;
import org.apache.arrow.vector.complex.ListViewVector;
import org.apache.arrow.vector.complex.RunEndEncodedVector;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.Platform;

/**
 * The Arrow layouts that Arrow Java 12 (Spark 3.5) lacks, for Arrow Java 18 (Spark 4.x): string and
 * binary views, list views and run-end encoding. Each Arrow line has a class of this name
 * (src/main/arrow-LINE) with the same methods; the other binders and the type mapping ask it about
 * the layouts they do not name.
 */
public final class NewerLayouts {
  private NewerLayouts() {}

  /** Whether this Arrow Java has views, list views and run-end encoding. */
  public static boolean available() {
    return true;
  }

  /** The run-end encoded type, or null where Arrow Java has none. */
  public static ArrowType runEndEncoded() {
    return ArrowType.RunEndEncoded.INSTANCE;
  }

  /** Whether {@code type} is binary_view. */
  static boolean isBinaryView(ArrowType type) {
    return type.getTypeID() == ArrowType.ArrowTypeID.BinaryView;
  }

  /** The Spark type of a field of one of these layouts (CONTRACTS.md §2), or null. */
  static DataType sparkType(Field field, DictionaryProvider dictionaries) {
    switch (field.getType().getTypeID()) {
      case Utf8View:
        return DataTypes.StringType;
      case BinaryView:
        return DataTypes.BinaryType;
      case ListView:
      case LargeListView:
        {
          Field element = field.getChildren().get(0);
          return new ArrayType(SparkTypes.of(element, dictionaries), element.isNullable());
        }
      case RunEndEncoded:
        return SparkTypes.of(field.getChildren().get(1), dictionaries);
      default:
        return null;
    }
  }

  /** The Arrow C Data Interface format of one of these layouts, or null. */
  static String format(ArrowType type) {
    switch (type.getTypeID()) {
      case Utf8View:
        return "vu";
      case BinaryView:
        return "vz";
      case ListView:
        return "+vl";
      case LargeListView:
        return "+vL";
      case RunEndEncoded:
        return "+r";
      default:
        return null;
    }
  }

  /** The binder of a field of one of these layouts, or null. */
  static NodeBinder binder(NodeBinder.Context context, Field field, long array, String label) {
    switch (field.getType().getTypeID()) {
      case Utf8View:
      case BinaryView:
        return new ViewBinder(context, field, array, label);
      case ListView:
        return new ListViewBinder(context, field, array, label, 4);
      case LargeListView:
        return new ListViewBinder(context, field, array, label, 8);
      case RunEndEncoded:
        return new RunEndBinder(context, field, array, label);
      default:
        return null;
    }
  }

  /** The element vector of a list view or large list view; null for any other vector. */
  static FieldVector elementOf(ValueVector vector) {
    if (vector instanceof ListViewVector) {
      return ((ListViewVector) vector).getDataVector();
    }
    if (vector instanceof LargeListViewVector) {
      return ((LargeListViewVector) vector).getDataVector();
    }
    return null;
  }

  /**
   * Validity, 16-byte views, the variadic data buffers and their sizes. The node's buffer array is
   * Java's own (the registered node has room for no data buffer), grown as needed.
   */
  static final class ViewBinder extends NodeBinder {
    private final NativeArena arena = new NativeArena();
    private long pointers;
    private long sizes;
    private int capacity = -1;

    ViewBinder(Context context, Field field, long array, String label) {
      super(context, field, array, label, 0);
    }

    @Override
    int bufferCount() {
      return 3;
    }

    @Override
    void close() {
      arena.close();
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      if (!accepts(vector, BaseVariableWidthViewVector.class)) {
        return false;
      }
      BaseVariableWidthViewVector views = (BaseVariableWidthViewVector) vector;
      int count = views.getValueCount();
      ArrowBuf viewBuffer = views.getDataBuffer();
      require(viewBuffer, 16L * count, "views", count);
      List<ArrowBuf> data = views.getDataBuffers();
      int variadic = data.size();
      if (variadic > capacity) {
        capacity = Math.max(variadic, 2 * capacity);
        pointers = arena.allocate(8L * (capacity + 3));
        sizes = arena.allocate(8L * Math.max(capacity, 1));
      }
      long nulls = bindValidity(views.getValidityBuffer(), count);
      long validity = Platform.getLong(null, buffers);
      Platform.putLong(null, pointers, validity);
      Platform.putLong(null, pointers + 8, count == 0 ? zeroes : address(viewBuffer));
      for (int i = 0; i < variadic; i++) {
        ArrowBuf buffer = data.get(i);
        Platform.putLong(null, pointers + 8L * (2 + i), address(buffer));
        Platform.putLong(null, sizes + 8L * i, buffer.capacity());
      }
      Platform.putLong(null, pointers + 8L * (2 + variadic), sizes);
      Platform.putLong(null, array + CStructs.ARRAY_N_BUFFERS, 3 + variadic);
      Platform.putLong(null, array + CStructs.ARRAY_BUFFERS, pointers);
      Platform.putLong(null, array + CStructs.ARRAY_NULL_COUNT, nulls);
      return true;
    }
  }

  /** Validity, offsets, sizes and the element child (list view, large list view). */
  static final class ListViewBinder extends NodeBinder {
    private final int offsetWidth;

    ListViewBinder(Context context, Field field, long array, String label, int offsetWidth) {
      super(context, field, array, label, 1);
      this.offsetWidth = offsetWidth;
      createElement(context);
    }

    @Override
    int bufferCount() {
      return 3;
    }

    @Override
    boolean matchesVector(ValueVector vector) {
      return NestedBinders.listMatches(this, vector);
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      if (!accepts(vector, FieldVector.class)) {
        return false;
      }
      ArrowBuf sizeBuffer;
      FieldVector element;
      if (vector instanceof ListViewVector) {
        sizeBuffer = ((ListViewVector) vector).getSizeBuffer();
        element = ((ListViewVector) vector).getDataVector();
      } else if (vector instanceof LargeListViewVector) {
        sizeBuffer = ((LargeListViewVector) vector).getSizeBuffer();
        element = ((LargeListViewVector) vector).getDataVector();
      } else {
        return false;
      }
      FieldVector list = (FieldVector) vector;
      int count = list.getValueCount();
      ArrowBuf offsetBuffer = list.getOffsetBuffer();
      require(offsetBuffer, (long) count * offsetWidth, "offsets", count);
      require(sizeBuffer, (long) count * offsetWidth, "sizes", count);
      bindValidity(list.getValidityBuffer(), count);
      putBuffer(1, count == 0 ? zeroes : address(offsetBuffer));
      putBuffer(2, count == 0 ? zeroes : address(sizeBuffer));
      return children[0].bindValue(element, dictionaries);
    }
  }

  /** No buffers; children run ends and values. */
  static final class RunEndBinder extends NodeBinder {
    RunEndBinder(Context context, Field field, long array, String label) {
      super(context, field, array, label, 2);
      List<Field> fields = field.getChildren();
      for (int i = 0; i < 2; i++) {
        children[i] =
            create(
                context, fields.get(i), context.child(array, i), childLabel(label, fields.get(i)));
      }
    }

    @Override
    int bufferCount() {
      return 0;
    }

    @Override
    boolean matchesVector(ValueVector vector) {
      if (vector.getMinorType() != minorType || !(vector instanceof RunEndEncodedVector)) {
        return false;
      }
      RunEndEncodedVector runs = (RunEndEncodedVector) vector;
      return children[0].matchesVector(runs.getRunEndsVector())
          && children[1].matchesVector(runs.getValuesVector());
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      if (!accepts(vector, RunEndEncodedVector.class)) {
        return false;
      }
      RunEndEncodedVector runs = (RunEndEncodedVector) vector;
      writeHeader(runs.getValueCount(), 0);
      return children[0].bindValue(runs.getRunEndsVector(), dictionaries)
          && children[1].bindValue(runs.getValuesVector(), dictionaries);
    }
  }
}
