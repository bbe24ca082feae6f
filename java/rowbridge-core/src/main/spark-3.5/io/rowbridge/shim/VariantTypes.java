package io.rowbridge.shim;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.types.DataType;

/** Spark 3.5 has no VariantType: a struct in the variant form stays a struct. */
final class VariantTypes {
  private VariantTypes() {}

  static final DataType VARIANT = null;

  static boolean isVariantField(Field field) {
    return false;
  }
}
