package io.rowbridge.spark.transition;

import io.rowbridge.ArrowSchemas;
import io.rowbridge.NewerLayouts;
import java.math.BigDecimal;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * Spark's ConstantColumnVector (a partition column's one value, or a column of nulls) as an Arrow
 * run-end encoded vector of one run, which the native converter writes as that value in every row:
 * nothing is materialised per row. The vector owns its value's buffers, allocated from the
 * allocator given; {@link #close} frees them. Arrow Java 12 (Spark 3.5) has no run-end encoding:
 * there {@link #fieldFor} takes no type, and Spark's projection reads such batches.
 */
public final class ConstantRuns implements AutoCloseable {
  private final FieldVector runs;
  private final IntVector runEnds;
  private final FieldVector value;
  private final DataType type;

  private ConstantRuns(Field field, DataType type, BufferAllocator allocator) {
    this.runs = field.createVector(allocator);
    this.runEnds = (IntVector) runs.getChildrenFromFields().get(0);
    this.value = runs.getChildrenFromFields().get(1);
    this.type = type;
  }

  /**
   * The run-end encoded field standing for a constant column of Spark type {@code type}, or null
   * when the type is not one a constant column of rowbridge's takes (nested, intervals), or when
   * Arrow Java has no run-end encoding.
   */
  static Field fieldFor(String name, DataType type) {
    if (!hasStandIn(type)) {
      return null;
    }
    Field values = valueField("values", type);
    Field runEnds = new Field("run_ends", FieldType.notNullable(new ArrowType.Int(32, true)), null);
    // Nullable: the run's value may be null (a run-end encoded array has no validity bitmap of
    // its own, its values carry the nulls).
    return new Field(
        name, FieldType.nullable(NewerLayouts.runEndEncoded()), List.of(runEnds, values));
  }

  /** A vector for the constant columns of {@code field} (from {@link #fieldFor}). */
  static ConstantRuns create(Field field, DataType type, BufferAllocator allocator) {
    return new ConstantRuns(field, type, allocator);
  }

  /**
   * The run-end encoded vector holding {@code constant}'s value in each of {@code numRows} rows.
   */
  FieldVector of(ConstantColumnVector constant, int numRows) {
    if (numRows == 0) {
      runEnds.setValueCount(0);
      value.setValueCount(0);
      runs.setValueCount(0);
      return runs;
    }
    runEnds.setSafe(0, numRows);
    runEnds.setValueCount(1);
    setValue(value, type, constant);
    value.setValueCount(1);
    runs.setValueCount(numRows);
    return runs;
  }

  /**
   * A nullable field of the Arrow type that holds a constant of Spark type {@code type}, or null
   * for a type no constant column of rowbridge's takes.
   */
  public static Field valueField(String name, DataType type) {
    ArrowType arrow = arrowType(type);
    return arrow == null ? null : new Field(name, FieldType.nullable(arrow), null);
  }

  /**
   * Stores {@code constant}'s value (or null) at index 0 of {@code value}, a vector of {@link
   * #valueField}'s type for {@code type}; the caller sets the value count.
   */
  public static void setValue(FieldVector value, DataType type, ConstantColumnVector constant) {
    if (constant.isNullAt(0)) {
      value.setNull(0);
    } else if (type instanceof BooleanType) {
      ((BitVector) value).setSafe(0, constant.getBoolean(0) ? 1 : 0);
    } else if (type instanceof ByteType) {
      ((TinyIntVector) value).setSafe(0, constant.getByte(0));
    } else if (type instanceof ShortType) {
      ((SmallIntVector) value).setSafe(0, constant.getShort(0));
    } else if (type instanceof IntegerType) {
      ((IntVector) value).setSafe(0, constant.getInt(0));
    } else if (type instanceof DateType) {
      ((DateDayVector) value).setSafe(0, constant.getInt(0));
    } else if (type instanceof LongType) {
      ((BigIntVector) value).setSafe(0, constant.getLong(0));
    } else if (type instanceof TimestampType) {
      ((TimeStampMicroTZVector) value).setSafe(0, constant.getLong(0));
    } else if (type instanceof TimestampNTZType) {
      ((TimeStampMicroVector) value).setSafe(0, constant.getLong(0));
    } else if (type instanceof FloatType) {
      ((Float4Vector) value).setSafe(0, constant.getFloat(0));
    } else if (type instanceof DoubleType) {
      ((Float8Vector) value).setSafe(0, constant.getDouble(0));
    } else if (type instanceof DecimalType decimal) {
      BigDecimal number =
          constant.getDecimal(0, decimal.precision(), decimal.scale()).toJavaBigDecimal();
      ((DecimalVector) value).setSafe(0, number.setScale(decimal.scale()));
    } else if (type instanceof StringType) {
      ((VarCharVector) value).setSafe(0, constant.getUTF8String(0).getBytes());
    } else if (type instanceof BinaryType) {
      ((VarBinaryVector) value).setSafe(0, constant.getBinary(0));
    } else {
      throw new IllegalStateException("rowbridge: a constant column of " + type);
    }
  }

  /**
   * Whether a constant column of {@code type} has a run-end stand-in ({@link #fieldFor}): Arrow
   * Java has run-end encoding, and {@link #takes} the type.
   */
  static boolean hasStandIn(DataType type) {
    return NewerLayouts.available() && takes(type);
  }

  /**
   * Whether a constant of {@code type} has an Arrow value: a flat type whose value {@link
   * #setValue} stores (nested types and intervals stay with Spark's projection).
   */
  static boolean takes(DataType type) {
    return type instanceof BooleanType
        || type instanceof ByteType
        || type instanceof ShortType
        || type instanceof IntegerType
        || type instanceof LongType
        || type instanceof FloatType
        || type instanceof DoubleType
        || type instanceof DecimalType
        || type instanceof DateType
        || type instanceof TimestampType
        || type instanceof TimestampNTZType
        || type instanceof StringType
        || type instanceof BinaryType;
  }

  /** The Arrow type of a constant of {@code type} (the rows' mapping, {@link ArrowSchemas}). */
  private static ArrowType arrowType(DataType type) {
    // A constant timestamp's value is UTC microseconds, whatever the zone the field names.
    return takes(type) ? ArrowSchemas.leafType(type, "UTC") : null;
  }

  @Override
  public void close() {
    runs.close();
  }
}
