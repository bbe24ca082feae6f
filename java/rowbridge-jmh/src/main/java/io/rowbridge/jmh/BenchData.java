package io.rowbridge.jmh;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The benchmark datasets of CONTRACTS.md §6, built once with Arrow Java, batch after batch:
 * "record" (a int64 = i, b int32 = i, c float64 = i, d utf8 = "value_" + i, no nulls; the seed's
 * schema, as in Comet's CometC2RIsolatedBench) and "wide_strings" (8 int64, 8 utf8 of 5-60
 * printable ASCII bytes, 4 float64, each value null with probability 0.1; fixed seed) and "nested"
 * (struct&lt;a int64, b utf8&gt;, array&lt;int32&gt;, map&lt;utf8, int64&gt;, array&lt;struct&lt;x
 * float64, y utf8&gt;&gt;; 0-8 entries, strings of 5-30 bytes, each value null with probability 0.1
 * at every level but map keys; fixed seed).
 */
final class BenchData implements AutoCloseable {
  /**
   * Rows of "record": 1 M (CONTRACTS.md §6); -Drowbridge.bench.rows overrides it, for attribution.
   */
  static final int RECORD_ROWS = Integer.getInteger("rowbridge.bench.rows", 1 << 20);

  static final int WIDE_ROWS = 1 << 18;
  static final long WIDE_SEED = 20250611L;

  /** Rows of "nested": 128 K, as rowbridge bench (-Drowbridge.bench.nested.rows overrides it). */
  static final int NESTED_ROWS = Integer.getInteger("rowbridge.bench.nested.rows", 1 << 17);

  private static final int MAX_ENTRIES = 8;

  final String schemaName;
  final Schema schema;
  final StructType sparkSchema;
  final List<VectorSchemaRoot> roots = new ArrayList<>();
  final List<ColumnarBatch> batches = new ArrayList<>();
  final int totalRows;

  /**
   * The column the consumers read as a string: its size is the slot's low 32 bits (-1 on "nested",
   * whose consumers read every column instead).
   */
  final int stringColumn;

  BenchData(String schemaName, int batchRows, BufferAllocator allocator) {
    this.schemaName = schemaName;
    if (schemaName.equals("record")) {
      schema =
          new Schema(
              List.of(
                  Field.nullable("a", new ArrowType.Int(64, true)),
                  Field.nullable("b", new ArrowType.Int(32, true)),
                  Field.nullable("c", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
                  Field.nullable("d", new ArrowType.Utf8())));
      sparkSchema =
          new StructType()
              .add("a", DataTypes.LongType)
              .add("b", DataTypes.IntegerType)
              .add("c", DataTypes.DoubleType)
              .add("d", DataTypes.StringType);
      totalRows = RECORD_ROWS;
      stringColumn = 3;
    } else if (schemaName.equals("wide_strings")) {
      List<Field> fields = new ArrayList<>();
      StructType spark = new StructType();
      for (int i = 0; i < 8; i++) {
        fields.add(Field.nullable("l" + i, new ArrowType.Int(64, true)));
        spark = spark.add("l" + i, DataTypes.LongType);
      }
      for (int i = 0; i < 8; i++) {
        fields.add(Field.nullable("s" + i, new ArrowType.Utf8()));
        spark = spark.add("s" + i, DataTypes.StringType);
      }
      for (int i = 0; i < 4; i++) {
        fields.add(
            Field.nullable("d" + i, new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)));
        spark = spark.add("d" + i, DataTypes.DoubleType);
      }
      schema = new Schema(fields);
      sparkSchema = spark;
      totalRows = WIDE_ROWS;
      stringColumn = 8;
    } else if (schemaName.equals("nested")) {
      schema = NestedSchema.arrow();
      sparkSchema = NestedSchema.spark();
      totalRows = NESTED_ROWS;
      stringColumn = -1;
    } else {
      throw new IllegalArgumentException("unknown schema " + schemaName);
    }
    Random random = new Random(WIDE_SEED);
    for (int first = 0; first < totalRows; first += batchRows) {
      int rows = Math.min(batchRows, totalRows - first);
      VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
      if (schemaName.equals("record")) {
        fillRecord(root, first, rows);
      } else if (schemaName.equals("nested")) {
        fillNested(root, rows, random);
      } else {
        fillWide(root, rows, random);
      }
      roots.add(root);
      ColumnVector[] columns = new ColumnVector[root.getSchema().getFields().size()];
      for (int c = 0; c < columns.length; c++) {
        columns[c] = new ArrowColumnVector(root.getVector(c));
      }
      batches.add(new ColumnarBatch(columns, rows));
    }
  }

  private static void fillRecord(VectorSchemaRoot root, int first, int rows) {
    BigIntVector a = (BigIntVector) root.getVector(0);
    IntVector b = (IntVector) root.getVector(1);
    Float8Vector c = (Float8Vector) root.getVector(2);
    VarCharVector d = (VarCharVector) root.getVector(3);
    a.allocateNew(rows);
    b.allocateNew(rows);
    c.allocateNew(rows);
    d.allocateNew((long) rows * 14, rows);
    for (int r = 0; r < rows; r++) {
      int i = first + r;
      a.set(r, i);
      b.set(r, i);
      c.set(r, i);
      d.setSafe(r, ("value_" + i).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(rows);
  }

  private static void fillWide(VectorSchemaRoot root, int rows, Random random) {
    for (FieldVector vector : root.getFieldVectors()) {
      vector.setInitialCapacity(rows);
      vector.allocateNew();
    }
    byte[] text = new byte[60];
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < 20; c++) {
        boolean isNull = random.nextInt(10) == 0;
        FieldVector vector = root.getVector(c);
        if (c < 8) {
          if (isNull) {
            ((BigIntVector) vector).setNull(r);
          } else {
            ((BigIntVector) vector).set(r, random.nextLong());
          }
        } else if (c < 16) {
          if (isNull) {
            ((VarCharVector) vector).setNull(r);
          } else {
            int length = 5 + random.nextInt(56);
            for (int k = 0; k < length; k++) {
              text[k] = (byte) (32 + random.nextInt(95));
            }
            ((VarCharVector) vector).setSafe(r, text, 0, length);
          }
        } else {
          if (isNull) {
            ((Float8Vector) vector).setNull(r);
          } else {
            ((Float8Vector) vector).set(r, random.nextDouble());
          }
        }
      }
    }
    root.setRowCount(rows);
  }

  private static boolean isNull(Random random) {
    return random.nextInt(10) == 0;
  }

  private static void setText(VarCharVector vector, int index, Random random, byte[] text) {
    int length = 5 + random.nextInt(26);
    for (int k = 0; k < length; k++) {
      text[k] = (byte) (32 + random.nextInt(95));
    }
    vector.setSafe(index, text, 0, length);
  }

  /** A struct of (8-byte number, string) at {@code index}: null, or each field null or not. */
  private static void setPair(
      StructVector struct, int index, Random random, byte[] text, boolean floating) {
    FieldVector number = (FieldVector) struct.getChildByOrdinal(0);
    VarCharVector string = (VarCharVector) struct.getChildByOrdinal(1);
    if (isNull(random)) {
      struct.setNull(index);
      number.setNull(index);
      string.setNull(index);
      return;
    }
    struct.setIndexDefined(index);
    if (isNull(random)) {
      number.setNull(index);
    } else if (floating) {
      ((Float8Vector) number).setSafe(index, random.nextDouble() * 2e6 - 1e6);
    } else {
      ((BigIntVector) number).setSafe(index, random.nextLong());
    }
    if (isNull(random)) {
      string.setNull(index);
    } else {
      setText(string, index, random, text);
    }
  }

  /** List (or map) `r`: null, or 0-8 entries, each written by `entry` at its child index. */
  private static void appendList(ListVector list, int r, Random random, IntConsumer entry) {
    if (isNull(random)) {
      list.setNull(r);
      return;
    }
    int first = list.startNewValue(r);
    int n = random.nextInt(MAX_ENTRIES + 1);
    for (int k = first; k < first + n; k++) {
      entry.accept(k);
    }
    list.endValue(r, n);
  }

  private static void fillNested(VectorSchemaRoot root, int rows, Random random) {
    for (FieldVector vector : root.getFieldVectors()) {
      vector.setInitialCapacity(rows);
      vector.allocateNew();
    }
    StructVector pair = (StructVector) root.getVector(0);
    ListVector ints = (ListVector) root.getVector(1);
    IntVector intValues = (IntVector) ints.getDataVector();
    MapVector map = (MapVector) root.getVector(2);
    StructVector entries = (StructVector) map.getDataVector();
    VarCharVector keys = (VarCharVector) entries.getChildByOrdinal(0);
    BigIntVector values = (BigIntVector) entries.getChildByOrdinal(1);
    ListVector structs = (ListVector) root.getVector(3);
    StructVector elements = (StructVector) structs.getDataVector();
    byte[] text = new byte[32];
    for (int r = 0; r < rows; r++) {
      setPair(pair, r, random, text, false);
      appendList(
          ints,
          r,
          random,
          k -> {
            if (isNull(random)) {
              intValues.setNull(k);
            } else {
              intValues.setSafe(k, random.nextInt());
            }
          });
      appendList(
          map,
          r,
          random,
          k -> {
            entries.setIndexDefined(k);
            setText(keys, k, random, text);
            if (isNull(random)) {
              values.setNull(k);
            } else {
              values.setSafe(k, random.nextLong());
            }
          });
      appendList(structs, r, random, k -> setPair(elements, k, random, text, true));
    }
    root.setRowCount(rows);
  }

  @Override
  public void close() {
    for (VectorSchemaRoot root : roots) {
      root.close();
    }
    roots.clear();
    batches.clear();
  }
}
