package io.rowbridge;

import io.rowbridge.shim.SparkTypeShim;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CalendarIntervalType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.UserDefinedType;
import org.apache.spark.sql.types.YearMonthIntervalType;

/**
 * The Arrow schema that rows of a Spark schema decode to: the project's type mapping (CONTRACTS.md
 * §2) read in reverse, each Spark type taking the Arrow type that holds its row value as it is. It
 * is the schema Spark's {@code ArrowUtils.toArrowSchema} gives (utf8 and binary, not their large
 * forms): timestamps carry {@code timeZoneId}, list elements are named "element", and a map's
 * entries struct "entries" holds a non-null "key" and a "value". A StructField whose metadata names
 * an Arrow extension type gets it back on its Arrow field (CONTRACTS.md §2).
 */
public final class ArrowSchemas {
  private ArrowSchemas() {}

  /**
   * The Arrow schema of rows of {@code schema}. {@code timeZoneId} (the session time zone) is
   * required when a TimestampType occurs. A type rows cannot decode (none today) is a
   * RowbridgeException naming the field.
   */
  public static Schema of(StructType schema, String timeZoneId) {
    List<Field> fields = new ArrayList<>(schema.fields().length);
    for (StructField field : schema.fields()) {
      fields.add(structField(field, timeZoneId, field.name()));
    }
    return new Schema(fields);
  }

  /** Whether rows of a type decode to Arrow. */
  public static boolean supports(DataType type) {
    try {
      field("", type, true, "UTC", "");
      return true;
    } catch (RowbridgeException e) {
      return false;
    }
  }

  /**
   * The Arrow type of a flat Spark type's row values, timestamps in {@code timeZoneId}: the same
   * mapping as {@link #of}. A nested or undecodable type is a RowbridgeException (ENOTSUP).
   */
  public static ArrowType leafType(DataType type, String timeZoneId) {
    return leaf(type, timeZoneId, type.catalogString());
  }

  /**
   * The Arrow field of a StructField, with the Arrow extension its metadata names where the field's
   * Arrow type can be that extension's storage (CONTRACTS.md §2).
   */
  private static Field structField(StructField field, String timeZoneId, String path) {
    Field arrow = field(field.name(), field.dataType(), field.nullable(), timeZoneId, path);
    Map<String, String> extension = ExtensionFields.arrowMetadata(field, arrow.getType());
    if (extension == null) {
      return arrow;
    }
    FieldType type = new FieldType(field.nullable(), arrow.getType(), null, extension);
    return new Field(field.name(), type, arrow.getChildren());
  }

  private static Field field(
      String name, DataType type, boolean nullable, String timeZoneId, String path) {
    if (type instanceof UserDefinedType) {
      return field(name, ((UserDefinedType<?>) type).sqlType(), nullable, timeZoneId, path);
    }
    List<Field> children = new ArrayList<>();
    ArrowType arrow;
    if (SparkTypeShim.isVariant(type)) {
      // As Spark's ArrowUtils writes it: only the metadata child is tagged.
      arrow = ArrowType.Struct.INSTANCE;
      children.add(new Field("value", new FieldType(false, ArrowType.Binary.INSTANCE, null), null));
      children.add(
          new Field(
              "metadata",
              new FieldType(false, ArrowType.Binary.INSTANCE, null, Map.of("variant", "true")),
              null));
    } else if (type instanceof StructType) {
      arrow = ArrowType.Struct.INSTANCE;
      for (StructField child : ((StructType) type).fields()) {
        children.add(structField(child, timeZoneId, path + "." + child.name()));
      }
    } else if (type instanceof ArrayType) {
      ArrayType array = (ArrayType) type;
      arrow = ArrowType.List.INSTANCE;
      children.add(
          field(
              "element", array.elementType(), array.containsNull(), timeZoneId, path + ".element"));
    } else if (type instanceof MapType) {
      MapType map = (MapType) type;
      arrow = new ArrowType.Map(false);
      List<Field> entries = new ArrayList<>(2);
      entries.add(field("key", map.keyType(), false, timeZoneId, path + ".key"));
      entries.add(
          field("value", map.valueType(), map.valueContainsNull(), timeZoneId, path + ".value"));
      children.add(
          new Field("entries", new FieldType(false, ArrowType.Struct.INSTANCE, null), entries));
    } else {
      arrow = leaf(type, timeZoneId, path);
    }
    return new Field(name, new FieldType(nullable, arrow, null), children);
  }

  private static ArrowType leaf(DataType type, String timeZoneId, String path) {
    if (type instanceof NullType) {
      return ArrowType.Null.INSTANCE;
    } else if (type instanceof BooleanType) {
      return ArrowType.Bool.INSTANCE;
    } else if (type instanceof ByteType) {
      return new ArrowType.Int(8, true);
    } else if (type instanceof ShortType) {
      return new ArrowType.Int(16, true);
    } else if (type instanceof IntegerType) {
      return new ArrowType.Int(32, true);
    } else if (type instanceof LongType) {
      return new ArrowType.Int(64, true);
    } else if (type instanceof FloatType) {
      return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
    } else if (type instanceof DoubleType) {
      return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
    } else if (type instanceof DecimalType) {
      DecimalType decimal = (DecimalType) type;
      return new ArrowType.Decimal(decimal.precision(), decimal.scale(), 128);
    } else if (type instanceof StringType) {
      return ArrowType.Utf8.INSTANCE;
    } else if (type instanceof BinaryType) {
      return ArrowType.Binary.INSTANCE;
    } else if (type instanceof DateType) {
      return new ArrowType.Date(DateUnit.DAY);
    } else if (type instanceof TimestampType) {
      if (timeZoneId == null) {
        throw new RowbridgeException(
            "rowbridge: field '"
                + path
                + "' is a timestamp, which needs the session time zone (timeZoneId is null)");
      }
      return new ArrowType.Timestamp(TimeUnit.MICROSECOND, timeZoneId);
    } else if (type instanceof TimestampNTZType) {
      return new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
    } else if (type instanceof YearMonthIntervalType) {
      return new ArrowType.Interval(IntervalUnit.YEAR_MONTH);
    } else if (type instanceof DayTimeIntervalType) {
      return new ArrowType.Duration(TimeUnit.MICROSECOND);
    } else if (type instanceof CalendarIntervalType) {
      return new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO);
    } else if (SparkTypeShim.isTime(type)) {
      return new ArrowType.Time(TimeUnit.NANOSECOND, 64);
    }
    throw new RowbridgeException(
        "rowbridge: field '"
            + path
            + "': rows of "
            + type.catalogString()
            + " do not decode to Arrow",
        RowbridgeException.ENOTSUP);
  }
}
