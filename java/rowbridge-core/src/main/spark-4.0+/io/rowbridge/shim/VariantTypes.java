package io.rowbridge.shim;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.util.ArrowUtils;

/** VariantType (Spark 4.0 on), in the struct form Spark's ArrowUtils writes. */
final class VariantTypes {
  private VariantTypes() {}

  static final DataType VARIANT = DataTypes.VariantType;

  static boolean isVariantField(Field field) {
    return field.getType() instanceof ArrowType.Struct && ArrowUtils.isVariantField(field);
  }
}
