package io.rowbridge;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.ArrowType.ExtensionType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;

/**
 * Arrow extension types between Arrow fields and Spark fields (CONTRACTS.md §2): a column of an
 * extension type reads as its storage type, and its StructField keeps the extension's name and
 * metadata ({@code ARROW:extension:name}, {@code ARROW:extension:metadata}), so that rows → Arrow
 * gives the field the extension again.
 */
final class ExtensionFields {
  static final String NAME = ExtensionType.EXTENSION_METADATA_KEY_NAME;
  static final String METADATA = ExtensionType.EXTENSION_METADATA_KEY_METADATA;

  private ExtensionFields() {}

  /**
   * The field of an extension type's storage, with the same name, nullability, dictionary, metadata
   * and children; other fields as they are. Arrow Java gives an extension type its own type only
   * when the extension is registered; an unregistered one is already its storage type, with the
   * extension's keys in the field's metadata.
   */
  static Field storage(Field field) {
    if (!(field.getType() instanceof ExtensionType extension)) {
      return field;
    }
    FieldType type =
        new FieldType(
            field.isNullable(),
            extension.storageType(),
            field.getDictionary(),
            field.getMetadata());
    return new Field(field.getName(), type, field.getChildren());
  }

  /** The StructField metadata of an Arrow field: its extension keys, or empty. */
  static Metadata sparkMetadata(Field field) {
    Map<String, String> arrow = field.getMetadata();
    if (arrow == null || !arrow.containsKey(NAME)) {
      return Metadata.empty();
    }
    MetadataBuilder builder = new MetadataBuilder().putString(NAME, arrow.get(NAME));
    if (arrow.containsKey(METADATA)) {
      builder.putString(METADATA, arrow.get(METADATA));
    }
    return builder.build();
  }

  /**
   * The Arrow field metadata of a StructField whose rows decode to {@code written}: the extension
   * keys its metadata holds, or null. A canonical extension whose storage cannot be {@code written}
   * is left out, as Arrow readers refuse it there: {@code arrow.uuid} and the tensors (fixed-size
   * storage, which rows never decode to), {@code arrow.bool8} other than over int8 and {@code
   * arrow.json} other than over a string.
   */
  static Map<String, String> arrowMetadata(StructField field, ArrowType written) {
    Metadata spark = field.metadata();
    if (!spark.contains(NAME) || !writesBack(spark.getString(NAME), written)) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    out.put(NAME, spark.getString(NAME));
    if (spark.contains(METADATA)) {
      out.put(METADATA, spark.getString(METADATA));
    }
    return out;
  }

  private static boolean writesBack(String name, ArrowType written) {
    switch (name) {
      case "arrow.uuid":
      case "arrow.fixed_shape_tensor":
      case "arrow.variable_shape_tensor":
        return false;
      case "arrow.bool8":
        return written.equals(new ArrowType.Int(8, true));
      case "arrow.json":
        return written instanceof ArrowType.Utf8;
      default:
        return true;
    }
  }
}
