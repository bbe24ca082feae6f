package io.rowbridge.jmh;

import java.util.List;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructType;

/**
 * The schema of CONTRACTS.md §6's "nested" case, in Arrow and in Spark: struct&lt;a int64, b
 * utf8&gt;, array&lt;int32&gt;, map&lt;utf8, int64&gt;, array&lt;struct&lt;x float64, y
 * utf8&gt;&gt;.
 */
final class NestedSchema {
  private NestedSchema() {}

  private static Field utf8(String name, boolean nullable) {
    return new Field(name, new FieldType(nullable, new ArrowType.Utf8(), null), null);
  }

  private static Field float64(String name) {
    return Field.nullable(name, new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  }

  private static Field struct(String name, Field... fields) {
    return new Field(name, FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(fields));
  }

  private static Field list(String name, Field element) {
    return new Field(name, FieldType.nullable(ArrowType.List.INSTANCE), List.of(element));
  }

  static Schema arrow() {
    Field entries =
        new Field(
            "entries",
            FieldType.notNullable(ArrowType.Struct.INSTANCE),
            List.of(utf8("key", false), Field.nullable("value", new ArrowType.Int(64, true))));
    Field map = new Field("m", FieldType.nullable(new ArrowType.Map(false)), List.of(entries));
    return new Schema(
        List.of(
            struct("s", Field.nullable("a", new ArrowType.Int(64, true)), utf8("b", true)),
            list("l", Field.nullable("element", new ArrowType.Int(32, true))),
            map,
            list("ls", struct("element", float64("x"), utf8("y", true)))));
  }

  static StructType spark() {
    StructType pair = new StructType().add("a", DataTypes.LongType).add("b", DataTypes.StringType);
    StructType point =
        new StructType().add("x", DataTypes.DoubleType).add("y", DataTypes.StringType);
    return new StructType()
        .add("s", pair)
        .add("l", new ArrayType(DataTypes.IntegerType, true))
        .add("m", new MapType(DataTypes.StringType, DataTypes.LongType, true))
        .add("ls", new ArrayType(point, true));
  }
}
