package rowbridge.golden;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimeType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.types.YearMonthIntervalType;

/** The Spark schema built by hand from rowbridge's CONTRACTS.md §2 table. */
public final class SpecTypes {
  private SpecTypes() {}

  public static StructType schema(Schema s) {
    List<StructField> fs = new ArrayList<>();
    for (Field f : s.getFields()) {
      fs.add(DataTypes.createStructField(f.getName(), type(f), f.isNullable()));
    }
    return DataTypes.createStructType(fs);
  }

  /** Throws IllegalArgumentException for types CONTRACTS.md §2 rejects. */
  public static DataType type(Field f) {
    // (a dictionary-encoded Field already carries the value type in Arrow Java's model)
    ArrowType t = f.getType();
    switch (t.getTypeID()) {
      case Null: return DataTypes.NullType;
      case Bool: return DataTypes.BooleanType;
      case Int: {
        ArrowType.Int i = (ArrowType.Int) t;
        int w = i.getBitWidth();
        if (i.getIsSigned()) {
          return w == 8 ? DataTypes.ByteType : w == 16 ? DataTypes.ShortType
              : w == 32 ? DataTypes.IntegerType : DataTypes.LongType;
        }
        return w == 8 ? DataTypes.ShortType : w == 16 ? DataTypes.IntegerType
            : w == 32 ? DataTypes.LongType : DataTypes.createDecimalType(20, 0);
      }
      case FloatingPoint:
        switch (((ArrowType.FloatingPoint) t).getPrecision()) {
          case SINGLE: return DataTypes.FloatType;
          case DOUBLE: return DataTypes.DoubleType;
          default: throw new IllegalArgumentException("rejected: " + t);
        }
      case Decimal: {
        ArrowType.Decimal d = (ArrowType.Decimal) t;
        if (d.getPrecision() > 38 || d.getScale() < 0 || d.getScale() > d.getPrecision()) {
          throw new IllegalArgumentException("rejected: " + t);
        }
        return DataTypes.createDecimalType(d.getPrecision(), d.getScale());
      }
      case Date: return DataTypes.DateType;
      case Timestamp:
        return ((ArrowType.Timestamp) t).getTimezone() == null ? DataTypes.TimestampNTZType
            : DataTypes.TimestampType;
      case Interval: {
        IntervalUnit u = ((ArrowType.Interval) t).getUnit();
        if (u == IntervalUnit.YEAR_MONTH) {
          return YearMonthIntervalType.apply();
        }
        if (u == IntervalUnit.MONTH_DAY_NANO) {
          return DataTypes.CalendarIntervalType;
        }
        throw new IllegalArgumentException("rejected: " + t);
      }
      case Duration: return DayTimeIntervalType.apply();
      case Time: return new TimeType(6);
      case Utf8: case LargeUtf8: case Utf8View: return DataTypes.StringType;
      case Binary: case LargeBinary: case BinaryView: case FixedSizeBinary:
        return DataTypes.BinaryType;
      case RunEndEncoded: return type(f.getChildren().get(1));
      case Struct: {
        if (ArrowUtils.isVariantField(f)) {
          return DataTypes.VariantType;
        }
        List<StructField> fs = new ArrayList<>();
        for (Field k : f.getChildren()) {
          fs.add(DataTypes.createStructField(k.getName(), type(k), k.isNullable()));
        }
        return DataTypes.createStructType(fs);
      }
      case List: case LargeList: case FixedSizeList: case ListView: case LargeListView: {
        Field e = f.getChildren().get(0);
        return ArrayType.apply(type(e), e.isNullable());
      }
      case Map: {
        Field entries = f.getChildren().get(0);
        Field k = entries.getChildren().get(0);
        Field v = entries.getChildren().get(1);
        return MapType.apply(type(k), type(v), v.isNullable());
      }
      default: throw new IllegalArgumentException("rejected: " + t);
    }
  }

  static boolean isLarge(DataType t) {
    return t instanceof DecimalType d && d.precision() > 18;
  }
}
