package io.rowbridge.shim;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.catalyst.util.TypeUtils;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.TimeType;
import org.apache.spark.sql.types.VariantType;
import org.apache.spark.sql.util.ArrowUtils;

/**
 * The Spark types that only some version lines have, for Spark 4.2: TimeType (4.1) and VariantType
 * (4.0). Every line has a class of this name with the same methods.
 */
public final class SparkTypeShim {
  private SparkTypeShim() {}

  /** Whether this Spark line has TimeType. */
  public static boolean hasTime() {
    return true;
  }

  /** Whether this Spark line has VariantType. */
  public static boolean hasVariant() {
    return true;
  }

  /** TimeType(6), the type Spark's ArrowUtils gives time64[ns] (values: nanoseconds of the day). */
  public static DataType timeType() {
    return new TimeType(6);
  }

  public static boolean isTime(DataType type) {
    return type instanceof TimeType;
  }

  public static DataType variantType() {
    return DataTypes.VariantType;
  }

  public static boolean isVariant(DataType type) {
    return type instanceof VariantType;
  }

  /** Whether a struct field is a variant in the form Spark's ArrowUtils writes. */
  public static boolean isVariantField(Field field) {
    return field.getType() instanceof ArrowType.Struct && ArrowUtils.isVariantField(field);
  }

  /**
   * Fails as Spark does for a type this session does not allow (TimeType while
   * spark.sql.timeType.enabled is off), with Spark's own error.
   */
  public static void checkSessionSupports(DataType schema) {
    TypeUtils.failUnsupportedDataType(schema, SQLConf.get());
  }
}
