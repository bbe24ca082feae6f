package io.rowbridge;

import io.rowbridge.shim.SparkTypeShim;
import java.util.List;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.CalendarIntervalType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.YearMonthIntervalType;

/**
 * The Spark type of an Arrow field by the project's type mapping (CONTRACTS.md §2), and the check
 * of a user's StructType against an Arrow schema.
 */
public final class SparkTypes {
  private SparkTypes() {}

  /** The Spark row schema of Arrow columns (dictionary values come from {@code dictionaries}). */
  public static StructType of(List<Field> fields, DictionaryProvider dictionaries) {
    StructField[] out = new StructField[fields.size()];
    for (int i = 0; i < out.length; i++) {
      Field field = fields.get(i);
      out[i] =
          new StructField(
              field.getName(),
              of(field, dictionaries),
              field.isNullable(),
              ExtensionFields.sparkMetadata(field));
    }
    return new StructType(out);
  }

  /**
   * The Spark type of one Arrow field; throws RowbridgeException (ENOTSUP) if CONTRACTS.md §2 maps
   * none. An extension type maps as its storage type.
   */
  public static DataType of(Field field, DictionaryProvider dictionaries) {
    if (field.getType() instanceof ArrowType.ExtensionType) {
      return of(ExtensionFields.storage(field), dictionaries);
    }
    if (field.getDictionary() != null) {
      return of(
          SchemaExporter.dictionaryOf(field, dictionaries).getVector().getField(), dictionaries);
    }
    ArrowType type = field.getType();
    switch (type.getTypeID()) {
      case Null:
        return DataTypes.NullType;
      case Bool:
        return DataTypes.BooleanType;
      case Int:
        {
          ArrowType.Int t = (ArrowType.Int) type;
          switch (t.getBitWidth()) {
            case 8:
              return t.getIsSigned() ? DataTypes.ByteType : DataTypes.ShortType;
            case 16:
              return t.getIsSigned() ? DataTypes.ShortType : DataTypes.IntegerType;
            case 32:
              return t.getIsSigned() ? DataTypes.IntegerType : DataTypes.LongType;
            default:
              return t.getIsSigned() ? DataTypes.LongType : DataTypes.createDecimalType(20, 0);
          }
        }
      case FloatingPoint:
        switch (((ArrowType.FloatingPoint) type).getPrecision()) {
          case SINGLE:
            return DataTypes.FloatType;
          case DOUBLE:
            return DataTypes.DoubleType;
          default:
            break;
        }
        break;
      case Date:
        return DataTypes.DateType;
      case Timestamp:
        return ((ArrowType.Timestamp) type).getTimezone() == null
            ? DataTypes.TimestampNTZType
            : DataTypes.TimestampType;
      case Decimal:
        {
          ArrowType.Decimal t = (ArrowType.Decimal) type;
          if (t.getPrecision() >= 1
              && t.getPrecision() <= 38
              && t.getScale() >= 0
              && t.getScale() <= t.getPrecision()) {
            return DataTypes.createDecimalType(t.getPrecision(), t.getScale());
          }
          break;
        }
      case Interval:
        switch (((ArrowType.Interval) type).getUnit()) {
          case YEAR_MONTH:
            return DataTypes.createYearMonthIntervalType();
          case MONTH_DAY_NANO:
            return DataTypes.CalendarIntervalType;
          default:
            break;
        }
        break;
      case Duration:
        return DataTypes.createDayTimeIntervalType();
      case Time:
        if (!SparkTypeShim.hasTime()) {
          throw new RowbridgeException(
              "rowbridge: column '"
                  + field.getName()
                  + "' has Arrow type "
                  + type
                  + ", but this Spark line has no TIME type (Spark 4.1 has)",
              RowbridgeException.ENOTSUP);
        }
        return SparkTypeShim.timeType();
      case Utf8:
      case LargeUtf8:
        return DataTypes.StringType;
      case Binary:
      case LargeBinary:
      case FixedSizeBinary:
        return DataTypes.BinaryType;
      case Struct:
        if (SparkTypeShim.hasVariant() && SparkTypeShim.isVariantField(field)) {
          checkVariant(field);
          return SparkTypeShim.variantType();
        }
        return of(field.getChildren(), dictionaries);
      case List:
      case LargeList:
      case FixedSizeList:
        {
          Field element = field.getChildren().get(0);
          return new ArrayType(of(element, dictionaries), element.isNullable());
        }
      case Map:
        {
          Field entries = field.getChildren().get(0);
          Field key = entries.getChildren().get(0);
          Field value = entries.getChildren().get(1);
          return new MapType(of(key, dictionaries), of(value, dictionaries), value.isNullable());
        }
      default:
        {
          DataType newer = NewerLayouts.sparkType(field, dictionaries); // views, run-end
          if (newer != null) {
            return newer;
          }
          break;
        }
    }
    throw new RowbridgeException(
        "rowbridge: column '"
            + field.getName()
            + "' has Arrow type "
            + type
            + ", which Spark rows cannot carry",
        RowbridgeException.ENOTSUP);
  }

  /** The children of a variant struct: value then metadata, each binary (CONTRACTS.md §2). */
  private static void checkVariant(Field field) {
    List<Field> children = field.getChildren();
    boolean form =
        children.size() == 2
            && children.get(0).getName().equals("value")
            && children.get(1).getName().equals("metadata");
    for (Field child : children) {
      ArrowType.ArrowTypeID id = child.getType().getTypeID();
      form &=
          child.getDictionary() == null
              && (id == ArrowType.ArrowTypeID.Binary
                  || id == ArrowType.ArrowTypeID.LargeBinary
                  || NewerLayouts.isBinaryView(child.getType()));
    }
    if (!form) {
      throw new RowbridgeException(
          "rowbridge: column '"
              + field.getName()
              + "' is a variant "
              + "struct whose children are not value then metadata, each binary, large_binary or "
              + "binary_view, as Spark's ArrowUtils writes them",
          RowbridgeException.ENOTSUP);
    }
  }

  /**
   * Checks that {@code spark} describes the rows of the Arrow columns: as many fields, and each of
   * the same Spark type (nullability and names are not compared; the string collations of Spark and
   * the field ranges of interval types are physically the same and accepted).
   */
  public static void check(StructType spark, List<Field> fields, DictionaryProvider dictionaries) {
    if (spark.fields().length != fields.size()) {
      throw new RowbridgeException(
          "rowbridge: the Spark schema has "
              + spark.fields().length
              + " fields but the Arrow schema has "
              + fields.size()
              + " columns (Spark: "
              + spark.catalogString()
              + ")");
    }
    for (int i = 0; i < fields.size(); i++) {
      Field field = fields.get(i);
      DataType expected = of(field, dictionaries);
      DataType actual = spark.fields()[i].dataType();
      if (!sameType(actual, expected)) {
        throw new RowbridgeException(
            "rowbridge: column "
                + i
                + " ('"
                + spark.fields()[i].name()
                + "'): the Spark schema says "
                + actual.catalogString()
                + " but the Arrow column '"
                + field.getName()
                + "' of type "
                + field.getType()
                + (field.getDictionary() != null ? " (dictionary-encoded)" : "")
                + " maps to "
                + expected.catalogString());
      }
    }
  }

  /** True when two Spark types have the same UnsafeRow layout and values. */
  public static boolean sameType(DataType a, DataType b) {
    if (a instanceof StructType && b instanceof StructType) {
      StructField[] x = ((StructType) a).fields();
      StructField[] y = ((StructType) b).fields();
      if (x.length != y.length) {
        return false;
      }
      for (int i = 0; i < x.length; i++) {
        if (!sameType(x[i].dataType(), y[i].dataType())) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof ArrayType && b instanceof ArrayType) {
      return sameType(((ArrayType) a).elementType(), ((ArrayType) b).elementType());
    }
    if (a instanceof MapType && b instanceof MapType) {
      return sameType(((MapType) a).keyType(), ((MapType) b).keyType())
          && sameType(((MapType) a).valueType(), ((MapType) b).valueType());
    }
    if (a instanceof StringType && b instanceof StringType) {
      return true;
    }
    if (a instanceof YearMonthIntervalType && b instanceof YearMonthIntervalType) {
      return true;
    }
    if (a instanceof DayTimeIntervalType && b instanceof DayTimeIntervalType) {
      return true;
    }
    if (a instanceof DecimalType && b instanceof DecimalType) {
      return ((DecimalType) a).precision() == ((DecimalType) b).precision()
          && ((DecimalType) a).scale() == ((DecimalType) b).scale();
    }
    if (a instanceof BinaryType || a instanceof CalendarIntervalType) {
      return a.getClass() == b.getClass();
    }
    return a.equals(b);
  }
}
