package io.rowbridge.spark.source;

import io.rowbridge.shim.SparkTypeShim;
import java.util.List;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.util.ArrowUtils;

/**
 * Which Arrow fields Spark's {@code ArrowColumnVector} reads with the values of CONTRACTS.md §2, so
 * that the source can hand Spark columnar batches of them. Anything else (unsigned integers,
 * date64, timestamps and durations in units other than microseconds, times in units other than
 * nanoseconds, decimals other than decimal128, fixed-size binary, view and large-list layouts,
 * dictionary and run-end encodings) makes the scan read rows, converted natively, instead.
 */
final class ColumnarSupport {
  private ColumnarSupport() {}

  /** Whether this Spark's ArrowColumnVector reads interval[month_day_nano] (4.0 and later). */
  private static final boolean READS_MONTH_DAY_NANO =
      reads(new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO));

  private static boolean reads(ArrowType type) {
    try {
      ArrowUtils.fromArrowType(type);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** True when every field (and child) is read correctly by ArrowColumnVector. */
  static boolean readable(List<Field> fields) {
    for (Field field : fields) {
      if (!readable(field)) {
        return false;
      }
    }
    return true;
  }

  static boolean readable(Field field) {
    if (field.getDictionary() != null) {
      return false; // ArrowColumnVector would read the indices
    }
    ArrowType type = field.getType();
    switch (type.getTypeID()) {
      case Null:
      case Bool:
      case Utf8:
      case LargeUtf8:
      case Binary:
      case LargeBinary:
        return true;
      case Int:
        return ((ArrowType.Int) type).getIsSigned();
      case FloatingPoint:
        return ((ArrowType.FloatingPoint) type).getPrecision()
            != org.apache.arrow.vector.types.FloatingPointPrecision.HALF;
      case Decimal:
        return ((ArrowType.Decimal) type).getBitWidth() == 128;
      case Date:
        return ((ArrowType.Date) type).getUnit() == org.apache.arrow.vector.types.DateUnit.DAY;
      case Timestamp:
        return ((ArrowType.Timestamp) type).getUnit() == TimeUnit.MICROSECOND;
      case Duration:
        return ((ArrowType.Duration) type).getUnit() == TimeUnit.MICROSECOND;
      case Time:
        return SparkTypeShim.hasTime() && ((ArrowType.Time) type).getUnit() == TimeUnit.NANOSECOND;
      case Interval:
        // month-day-nano: Spark truncates nanoseconds toward zero, as CONTRACTS.md §2 does
        // (Spark 4.0 and later; Spark 3.5's ArrowColumnVector has no calendar intervals)
        switch (((ArrowType.Interval) type).getUnit()) {
          case YEAR_MONTH:
            return true;
          case MONTH_DAY_NANO:
            return READS_MONTH_DAY_NANO;
          default:
            return false;
        }
      case List:
      case Struct:
      case Map:
        return readable(field.getChildren());
      default:
        return false;
    }
  }
}
