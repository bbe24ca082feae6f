package io.rowbridge.shim;

import org.apache.spark.sql.types.DataType;

/** Spark before 4.1 has no TimeType, and every type it has is allowed in every session. */
final class TimeTypes {
  private TimeTypes() {}

  static final DataType TIME = null;

  static void checkSessionSupports(DataType schema) {}
}
