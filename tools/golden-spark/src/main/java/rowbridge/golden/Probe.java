package rowbridge.golden;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.UnionMode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Which Arrow types Spark's ArrowColumnVector reads, and as what: for each type, construct an
 * ArrowColumnVector over a one-row vector holding a non-null zero/"a" value (complex types: a
 * null) and project that row with UnsafeProjection.
 */
public final class Probe {
  private Probe() {}

  static Field f(ArrowType t, Field... kids) {
    return new Field("x", FieldType.nullable(t), List.of(kids));
  }

  static Field named(String n, ArrowType t, boolean nullable, Field... kids) {
    return new Field(n, new FieldType(nullable, t, null), List.of(kids));
  }

  public static String run(BufferAllocator alloc) {
    Map<String, Field> probes = new LinkedHashMap<>();
    ArrowType i32 = new ArrowType.Int(32, true);
    probes.put("null", f(ArrowType.Null.INSTANCE));
    probes.put("bool", f(ArrowType.Bool.INSTANCE));
    for (int w : new int[] {8, 16, 32, 64}) {
      probes.put("int" + w, f(new ArrowType.Int(w, true)));
    }
    for (int w : new int[] {8, 16, 32, 64}) {
      probes.put("uint" + w, f(new ArrowType.Int(w, false)));
    }
    probes.put("float16", f(new ArrowType.FloatingPoint(FloatingPointPrecision.HALF)));
    probes.put("float32", f(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)));
    probes.put("float64", f(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)));
    probes.put("decimal32(9,2)", f(new ArrowType.Decimal(9, 2, 32)));
    probes.put("decimal64(18,2)", f(new ArrowType.Decimal(18, 2, 64)));
    probes.put("decimal128(9,2)", f(new ArrowType.Decimal(9, 2, 128)));
    probes.put("decimal128(38,10)", f(new ArrowType.Decimal(38, 10, 128)));
    probes.put("decimal128(10,-2)", f(new ArrowType.Decimal(10, -2, 128)));
    probes.put("decimal256(38,10)", f(new ArrowType.Decimal(38, 10, 256)));
    probes.put("decimal256(40,2)", f(new ArrowType.Decimal(40, 2, 256)));
    probes.put("utf8", f(ArrowType.Utf8.INSTANCE));
    probes.put("large_utf8", f(ArrowType.LargeUtf8.INSTANCE));
    probes.put("utf8_view", f(ArrowType.Utf8View.INSTANCE));
    probes.put("binary", f(ArrowType.Binary.INSTANCE));
    probes.put("large_binary", f(ArrowType.LargeBinary.INSTANCE));
    probes.put("binary_view", f(ArrowType.BinaryView.INSTANCE));
    probes.put("fixed_size_binary(4)", f(new ArrowType.FixedSizeBinary(4)));
    probes.put("date32", f(new ArrowType.Date(DateUnit.DAY)));
    probes.put("date64", f(new ArrowType.Date(DateUnit.MILLISECOND)));
    probes.put("time32[s]", f(new ArrowType.Time(TimeUnit.SECOND, 32)));
    probes.put("time32[ms]", f(new ArrowType.Time(TimeUnit.MILLISECOND, 32)));
    probes.put("time64[us]", f(new ArrowType.Time(TimeUnit.MICROSECOND, 64)));
    probes.put("time64[ns]", f(new ArrowType.Time(TimeUnit.NANOSECOND, 64)));
    for (TimeUnit u : TimeUnit.values()) {
      probes.put("timestamp[" + Enc.unit(u) + ",UTC]", f(new ArrowType.Timestamp(u, "UTC")));
      probes.put("timestamp[" + Enc.unit(u) + ",no tz]", f(new ArrowType.Timestamp(u, null)));
    }
    for (TimeUnit u : TimeUnit.values()) {
      probes.put("duration[" + Enc.unit(u) + "]", f(new ArrowType.Duration(u)));
    }
    probes.put("interval[year_month]", f(new ArrowType.Interval(IntervalUnit.YEAR_MONTH)));
    probes.put("interval[day_time]", f(new ArrowType.Interval(IntervalUnit.DAY_TIME)));
    probes.put("interval[month_day_nano]",
        f(new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO)));
    probes.put("struct<int32>", f(ArrowType.Struct.INSTANCE, named("a", i32, true)));
    probes.put("list<int32>", f(ArrowType.List.INSTANCE, named("item", i32, true)));
    probes.put("large_list<int32>", f(ArrowType.LargeList.INSTANCE, named("item", i32, true)));
    probes.put("fixed_size_list<int32,2>",
        f(new ArrowType.FixedSizeList(2), named("item", i32, true)));
    probes.put("list_view<int32>", f(ArrowType.ListView.INSTANCE, named("item", i32, true)));
    probes.put("map<utf8,int32>", f(new ArrowType.Map(false),
        named("entries", ArrowType.Struct.INSTANCE, false,
            named("key", ArrowType.Utf8.INSTANCE, false), named("value", i32, true))));
    // Arrow Java's Field of a dictionary-encoded column carries the index type
    probes.put("dictionary<int32,utf8>", new Field("x", new FieldType(true,
        i32, new DictionaryEncoding(0, false, (ArrowType.Int) i32)), null));
    probes.put("run_end_encoded<int32,int64>", f(ArrowType.RunEndEncoded.INSTANCE,
        named("run_ends", i32, false), named("values", new ArrowType.Int(64, true), true)));
    probes.put("dense_union<int32>", f(new ArrowType.Union(UnionMode.Dense, new int[] {0}),
        named("a", i32, true)));
    probes.put("sparse_union<int32>", f(new ArrowType.Union(UnionMode.Sparse, new int[] {0}),
        named("a", i32, true)));

    StringBuilder sb = new StringBuilder();
    sb.append("# Arrow type -> what Spark 4.1.3 ArrowColumnVector / ArrowUtils.fromArrowField "
        + "make of it (generated by tools/golden-spark)\n");
    sb.append("# columns: arrow type | Spark type read (or error) | one-row projection | "
        + "CONTRACTS.md §2 type\n");
    for (Map.Entry<String, Field> e : probes.entrySet()) {
      sb.append(String.format("%-30s | %s%n", e.getKey(), probe(alloc, e.getValue())));
    }
    return sb.toString();
  }

  static String err(Throwable t) {
    String m = t.getMessage() == null ? "" : t.getMessage().split("\n")[0];
    if (m.length() > 140) {
      m = m.substring(0, 140) + "...";
    }
    return "ERROR " + t.getClass().getSimpleName() + ": " + m;
  }

  static String probe(BufferAllocator alloc, Field field) {
    String spec;
    try {
      spec = SpecTypes.type(field).catalogString();
    } catch (Exception e) {
      spec = "rejected";
    }
    FieldVector v;
    try {
      v = field.createVector(alloc);
    } catch (Throwable t) {
      return "Arrow Java cannot create the vector (" + err(t) + ") | - | " + spec;
    }
    try {
      v.allocateNew();
      if (v instanceof BaseFixedWidthVector fw) {
        fw.setIndexDefined(0);
      } else if (v instanceof BaseVariableWidthVector vw) {
        vw.setSafe(0, new byte[] {'a'});
      } else if (v instanceof BaseLargeVariableWidthVector lw) {
        lw.setSafe(0, new byte[] {'a'});
      } else if (v instanceof BaseVariableWidthViewVector vv) {
        vv.setSafe(0, new byte[] {'a'});
      }
      v.setValueCount(1);
      ArrowColumnVector cv;
      try {
        cv = new ArrowColumnVector(v);
      } catch (Throwable t) {
        return "unsupported: " + err(t) + " | - | " + spec;
      }
      DataType dt = cv.dataType();
      String proj;
      try {
        StructType st = new StructType().add("x", dt, true);
        ColumnarBatch b = new ColumnarBatch(new ColumnVector[] {cv}, 1);
        byte[] bytes = UnsafeProjection.create(st).apply(b.getRow(0)).getBytes();
        proj = "ok " + Json.hex(bytes);
      } catch (Throwable t) {
        proj = err(t);
      }
      return dt.catalogString() + " (" + v.getClass().getSimpleName() + ") | " + proj + " | "
          + spec;
    } finally {
      v.close();
    }
  }
}
