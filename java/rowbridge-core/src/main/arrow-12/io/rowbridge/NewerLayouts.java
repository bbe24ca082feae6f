package io.rowbridge;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.types.DataType;

/**
 * The Arrow layouts that Arrow Java 12 (Spark 3.5) lacks: string and binary views, list views and
 * run-end encoding. Arrow Java 12 cannot describe them, so here each method answers "none". Each
 * Arrow line has a class of this name (src/main/arrow-LINE) with the same methods.
 */
public final class NewerLayouts {
  private NewerLayouts() {}

  /** Whether this Arrow Java has views, list views and run-end encoding: not Arrow Java 12. */
  public static boolean available() {
    return false;
  }

  /** The run-end encoded type, or null where Arrow Java has none (here). */
  public static ArrowType runEndEncoded() {
    return null;
  }

  static boolean isBinaryView(ArrowType type) {
    return false;
  }

  static DataType sparkType(Field field, DictionaryProvider dictionaries) {
    return null;
  }

  static String format(ArrowType type) {
    return null;
  }

  static NodeBinder binder(NodeBinder.Context context, Field field, long array, String label) {
    return null;
  }

  static FieldVector elementOf(ValueVector vector) {
    return null;
  }
}
