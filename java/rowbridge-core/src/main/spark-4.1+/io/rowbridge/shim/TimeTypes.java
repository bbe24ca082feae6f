package io.rowbridge.shim;

import org.apache.spark.sql.catalyst.util.TypeUtils;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.TimeType;

/** TimeType (Spark 4.1 on), which a session may not allow (spark.sql.timeType.enabled). */
final class TimeTypes {
  private TimeTypes() {}

  static final DataType TIME = new TimeType(6);

  static void checkSessionSupports(DataType schema) {
    TypeUtils.failUnsupportedDataType(schema, SQLConf.get());
  }
}
