package io.rowbridge.shim;

import io.rowbridge.RowbridgeException;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.types.DataType;

/**
 * The Spark types that only some version lines have: VariantType (Spark 4.0) and TimeType (Spark
 * 4.1). Whether the line has them is up to its {@code VariantTypes} and {@code TimeTypes}
 * (src/main/spark-*).
 */
public final class SparkTypeShim {
  private SparkTypeShim() {}

  /** Whether this Spark line has TimeType: not before 4.1. */
  public static boolean hasTime() {
    return TimeTypes.TIME != null;
  }

  /** Whether this Spark line has VariantType: not before 4.0. */
  public static boolean hasVariant() {
    return VariantTypes.VARIANT != null;
  }

  /**
   * TimeType(6), the type Spark's ArrowUtils gives time64[ns] (values: nanoseconds of the day); a
   * line without TimeType throws (check {@link #hasTime} first).
   */
  public static DataType timeType() {
    if (!hasTime()) {
      throw new RowbridgeException(
          "rowbridge: this Spark line has no TIME type (Spark 4.1 has)",
          RowbridgeException.ENOTSUP);
    }
    return TimeTypes.TIME;
  }

  /** Whether {@code type} is a TimeType, of any precision (the class of the line's TimeType). */
  public static boolean isTime(DataType type) {
    return hasTime() && TimeTypes.TIME.getClass().isInstance(type);
  }

  /** VariantType; a line without it throws (check {@link #hasVariant} first). */
  public static DataType variantType() {
    if (!hasVariant()) {
      throw new RowbridgeException(
          "rowbridge: this Spark line has no VARIANT type (Spark 4.0 has)",
          RowbridgeException.ENOTSUP);
    }
    return VariantTypes.VARIANT;
  }

  /** Whether {@code type} is VariantType (of the class of the line's one instance). */
  public static boolean isVariant(DataType type) {
    return hasVariant() && VariantTypes.VARIANT.getClass().isInstance(type);
  }

  /** Whether a struct field is a variant in the form Spark's ArrowUtils writes. */
  public static boolean isVariantField(Field field) {
    return VariantTypes.isVariantField(field);
  }

  /**
   * Fails as Spark does for a type the SparkSession does not allow (from 4.1 on: TimeType while
   * spark.sql.timeType.enabled is off), with Spark's own error.
   */
  public static void checkSessionSupports(DataType schema) {
    TimeTypes.checkSessionSupports(schema);
  }
}
