package io.rowbridge;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The binders of leaf layouts: null, fixed-width (and bits), offsets + bytes; views are {@link
 * NewerLayouts}'.
 */
final class LeafBinders {
  private LeafBinders() {}

  /** The null type: no buffers, every value null. */
  static final class NullBinder extends NodeBinder {
    NullBinder(Context context, Field field, long array, String label) {
      super(context, field, array, label, 0);
    }

    @Override
    int bufferCount() {
      return 0;
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      if (!accepts(vector, org.apache.arrow.vector.NullVector.class)) {
        return false;
      }
      int count = vector.getValueCount();
      writeHeader(count, count);
      return true;
    }
  }

  /** Validity plus fixed-width values (width 0: bits, as Arrow's boolean). */
  static final class FixedBinder extends NodeBinder {
    private final int width;

    FixedBinder(Context context, Field field, long array, String label, int width) {
      super(context, field, array, label, 0);
      this.width = width;
    }

    @Override
    int bufferCount() {
      return 2;
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      if (!accepts(vector, BaseFixedWidthVector.class)) {
        return false;
      }
      BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
      int count = fixed.getValueCount();
      ArrowBuf data = fixed.getDataBuffer();
      require(data, width == 0 ? (count + 7L) / 8 : (long) count * width, "data", count);
      bindValidity(fixed.getValidityBuffer(), count);
      putBuffer(1, count == 0 ? zeroes : address(data));
      return true;
    }

    @Override
    boolean bindBuffers(ColumnBuffers column) {
      return column.dictionary == null && bindFlat(column);
    }

    /** Binds the column's buffers whether or not it has a dictionary (a dictionary's indices). */
    boolean bindFlat(ColumnBuffers column) {
      if (!sameFlatType(column)) {
        return false;
      }
      int count = column.valueCount;
      long bytes = width == 0 ? (count + 7L) / 8 : (long) count * width;
      require(column.dataCapacity, bytes, "data", count);
      bindValidity(column);
      putBuffer(1, count == 0 || column.dataAddress == 0 ? zeroes : column.dataAddress);
      return true;
    }
  }

  /** Validity, 4- or 8-byte offsets, and bytes (utf8, binary and their large forms). */
  static final class VariableBinder extends NodeBinder {
    private static final String BYTES_TEXT = "the data buffer holds ";
    private final int offsetWidth;

    VariableBinder(Context context, Field field, long array, String label, int offsetWidth) {
      super(context, field, array, label, 0);
      this.offsetWidth = offsetWidth;
    }

    @Override
    int bufferCount() {
      return 3;
    }

    @Override
    boolean bind(ValueVector vector, DictionaryProvider dictionaries) {
      int count;
      ArrowBuf offsetBuffer;
      ArrowBuf data;
      ArrowBuf validity;
      if (offsetWidth == 4) {
        if (!accepts(vector, BaseVariableWidthVector.class)) {
          return false;
        }
        BaseVariableWidthVector variable = (BaseVariableWidthVector) vector;
        count = variable.getValueCount();
        offsetBuffer = variable.getOffsetBuffer();
        data = variable.getDataBuffer();
        validity = variable.getValidityBuffer();
      } else {
        if (!accepts(vector, BaseLargeVariableWidthVector.class)) {
          return false;
        }
        BaseLargeVariableWidthVector variable = (BaseLargeVariableWidthVector) vector;
        count = variable.getValueCount();
        offsetBuffer = variable.getOffsetBuffer();
        data = variable.getDataBuffer();
        validity = variable.getValidityBuffer();
      }
      long offsets =
          checkedOffsets(offsetBuffer, offsetWidth, count, data.capacity(), BYTES_TEXT, " bytes");
      bindValidity(validity, count);
      putBuffer(1, offsets);
      putBuffer(2, address(data));
      return true;
    }

    @Override
    boolean bindBuffers(ColumnBuffers column) {
      if (column.dictionary != null || !sameFlatType(column)) {
        return false;
      }
      int count = column.valueCount;
      long offsets =
          checkedOffsets(
              column.offsetsAddress,
              column.offsetsCapacity,
              offsetWidth,
              count,
              column.dataCapacity,
              BYTES_TEXT,
              " bytes");
      bindValidity(column);
      putBuffer(1, offsets);
      putBuffer(2, column.dataAddress != 0 ? column.dataAddress : zeroes);
      return true;
    }
  }
}
