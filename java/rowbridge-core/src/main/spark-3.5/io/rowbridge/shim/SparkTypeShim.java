package io.rowbridge.shim;

import io.rowbridge.RowbridgeException;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.types.DataType;

/**
 * The Spark types that only some version lines have, for Spark 3.5: neither VariantType (Spark 4.0)
 * nor TimeType (Spark 4.1), so a struct in the variant form stays a struct. Every line has a class
 * of this name with the same methods.
 */
public final class SparkTypeShim {
  private SparkTypeShim() {}

  /** Whether this Spark line has TimeType: not before 4.1. */
  public static boolean hasTime() {
    return false;
  }

  /** Whether this Spark line has VariantType: not before 4.0. */
  public static boolean hasVariant() {
    return false;
  }

  /** Spark 3.5 has no TimeType: always throws (check {@link #hasTime} first). */
  public static DataType timeType() {
    throw new RowbridgeException(
        "rowbridge: Spark 3.5 has no TIME type (Spark 4.1 has)", RowbridgeException.ENOTSUP);
  }

  public static boolean isTime(DataType type) {
    return false;
  }

  /** Spark 3.5 has no VariantType: always throws (check {@link #hasVariant} first). */
  public static DataType variantType() {
    throw new RowbridgeException(
        "rowbridge: Spark 3.5 has no VARIANT type (Spark 4.0 has)", RowbridgeException.ENOTSUP);
  }

  public static boolean isVariant(DataType type) {
    return false;
  }

  /** Spark 3.5 reads no variants: a struct of that form is a struct. */
  public static boolean isVariantField(Field field) {
    return false;
  }

  /** Every type of Spark 3.5 that rowbridge maps is allowed in every session: nothing to check. */
  public static void checkSessionSupports(DataType schema) {}
}
