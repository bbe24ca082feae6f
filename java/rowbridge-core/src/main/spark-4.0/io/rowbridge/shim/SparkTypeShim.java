package io.rowbridge.shim;

import io.rowbridge.RowbridgeException;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.VariantType;
import org.apache.spark.sql.util.ArrowUtils;

/**
 * The Spark types that only some version lines have, for Spark 4.0: VariantType, and no TimeType
 * (Spark 4.1). Every line has a class of this name with the same methods.
 */
public final class SparkTypeShim {
  private SparkTypeShim() {}

  /** Whether this Spark line has TimeType: not before 4.1. */
  public static boolean hasTime() {
    return false;
  }

  /** Whether this Spark line has VariantType. */
  public static boolean hasVariant() {
    return true;
  }

  /** Spark 4.0 has no TimeType: always throws (check {@link #hasTime} first). */
  public static DataType timeType() {
    throw new RowbridgeException(
        "rowbridge: Spark 4.0 has no TIME type (Spark 4.1 has)", RowbridgeException.ENOTSUP);
  }

  public static boolean isTime(DataType type) {
    return false;
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

  /** Every type of Spark 4.0 that rowbridge maps is allowed in every session: nothing to check. */
  public static void checkSessionSupports(DataType schema) {}
}
