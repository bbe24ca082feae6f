package io.rowbridge.jmh.comet;

import io.rowbridge.ConverterOptions;
import io.rowbridge.RowbridgeConverter;
import io.rowbridge.comet.CometColumns;
import io.rowbridge.jmh.CometCase;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.apache.comet.DirectColumnarToRowConverter;
import org.apache.comet.NativeColumnarToRowConverter;
import org.apache.comet.shaded.arrow.memory.BufferAllocator;
import org.apache.comet.shaded.arrow.memory.RootAllocator;
import org.apache.comet.shaded.arrow.vector.BigIntVector;
import org.apache.comet.shaded.arrow.vector.Float8Vector;
import org.apache.comet.shaded.arrow.vector.IntVector;
import org.apache.comet.shaded.arrow.vector.ValueVector;
import org.apache.comet.shaded.arrow.vector.VarCharVector;
import org.apache.comet.vector.CometPlainVector;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Drives one of the paths of {@link CometCase} over the same data as BenchData, built with Comet's
 * shaded Arrow Java and wrapped in CometPlainVectors (what Comet's operator receives). Every path
 * consumes its rows with {@link #consume}, C2RBenchmark's flat-schema consumer. Loaded by
 * CometCase's class loader only.
 */
public final class CometDriver implements CometCase {
  private final BufferAllocator allocator = new RootAllocator();
  private final List<ValueVector> vectors = new ArrayList<>();
  private final List<ColumnarBatch> batches = new ArrayList<>();
  private final String impl;
  private final StructType sparkSchema;
  private final int stringColumn;
  private final boolean seedConsumer;

  /** comet: Comet's native converter. */
  private NativeColumnarToRowConverter nativeConverter;

  /** comet_jvm, comet_jvm_aa: CometColumnarToRowExec's projection of rowIterator()'s rows. */
  private UnsafeProjection projection;

  /** comet_direct: Comet's DirectColumnarToRowConverter. */
  private DirectColumnarToRowConverter direct;

  /** rowbridge_comet: the batch's Comet vectors read as rowbridge's input, and the converter. */
  private CometColumns cometColumns;

  private RowbridgeConverter rowbridge;

  public CometDriver(String impl, String schema, int batchRows, boolean seedConsumer) {
    this.impl = impl;
    this.seedConsumer = seedConsumer;
    int totalRows;
    if (schema.equals("record")) {
      sparkSchema =
          new StructType()
              .add("a", DataTypes.LongType)
              .add("b", DataTypes.IntegerType)
              .add("c", DataTypes.DoubleType)
              .add("d", DataTypes.StringType);
      totalRows = 1 << 20;
      stringColumn = 3;
    } else {
      StructType spark = new StructType();
      for (int i = 0; i < 8; i++) {
        spark = spark.add("l" + i, DataTypes.LongType);
      }
      for (int i = 0; i < 8; i++) {
        spark = spark.add("s" + i, DataTypes.StringType);
      }
      for (int i = 0; i < 4; i++) {
        spark = spark.add("d" + i, DataTypes.DoubleType);
      }
      sparkSchema = spark;
      totalRows = 1 << 18;
      stringColumn = 8;
    }
    Random random = new Random(20250611L);
    for (int first = 0; first < totalRows; first += batchRows) {
      int rows = Math.min(batchRows, totalRows - first);
      ValueVector[] columns = schema.equals("record") ? record(first, rows) : wide(rows, random);
      ColumnVector[] wrapped = new ColumnVector[columns.length];
      for (int c = 0; c < columns.length; c++) {
        vectors.add(columns[c]);
        wrapped[c] = new CometPlainVector(columns[c], true);
      }
      batches.add(new ColumnarBatch(wrapped, rows));
    }
    switch (impl) {
      case "comet":
        nativeConverter = new NativeColumnarToRowConverter(sparkSchema, batchRows);
        break;
      case "comet_jvm":
      case "comet_jvm_aa":
        projection = UnsafeProjection.create(sparkSchema);
        break;
      case "comet_direct":
        if (!DirectColumnarToRowConverter.supportsSchema(sparkSchema)) {
          throw new IllegalStateException("DirectColumnarToRowConverter refuses " + schema);
        }
        direct = new DirectColumnarToRowConverter(sparkSchema);
        break;
      case "rowbridge_comet":
        cometColumns = new CometColumns(sparkSchema);
        rowbridge = CometColumns.converter(sparkSchema, ConverterOptions.defaults());
        checkFirstBatchAgainstCometJvm();
        break;
      default:
        throw new IllegalArgumentException("unknown Comet path " + impl);
    }
  }

  /**
   * Fails the trial unless rowbridge's rows of the first batch are those of Comet's JVM transition
   * (UnsafeProjection over rowIterator()), byte for byte.
   */
  private void checkFirstBatchAgainstCometJvm() {
    ColumnarBatch batch = batches.get(0);
    UnsafeProjection expected = UnsafeProjection.create(sparkSchema);
    Iterator<InternalRow> rows = batch.rowIterator();
    if (!cometColumns.read(batch)) {
      throw new IllegalStateException("rowbridge's CometColumns does not read the first batch");
    }
    rowbridge.convert(cometColumns.columns(), batch.numRows());
    int row = 0;
    while (rowbridge.next()) {
      byte[] want = expected.apply(rows.next()).getBytes();
      if (!Arrays.equals(want, rowbridge.row().getBytes())) {
        throw new IllegalStateException(
            "rowbridge_comet: row " + row + " of the first batch differs from comet_jvm's");
      }
      row++;
    }
    if (rows.hasNext() || row != batch.numRows()) {
      throw new IllegalStateException("rowbridge_comet: the first batch has " + row + " rows");
    }
  }

  private ValueVector[] record(int first, int rows) {
    BigIntVector a = new BigIntVector("a", allocator);
    IntVector b = new IntVector("b", allocator);
    Float8Vector c = new Float8Vector("c", allocator);
    VarCharVector d = new VarCharVector("d", allocator);
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
    a.setValueCount(rows);
    b.setValueCount(rows);
    c.setValueCount(rows);
    d.setValueCount(rows);
    return new ValueVector[] {a, b, c, d};
  }

  private ValueVector[] wide(int rows, Random random) {
    ValueVector[] columns = new ValueVector[20];
    for (int c = 0; c < 20; c++) {
      ValueVector vector =
          c < 8
              ? new BigIntVector("l" + c, allocator)
              : c < 16
                  ? new VarCharVector("s" + (c - 8), allocator)
                  : new Float8Vector("d" + (c - 16), allocator);
      vector.setInitialCapacity(rows);
      vector.allocateNew();
      columns[c] = vector;
    }
    byte[] text = new byte[60];
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < 20; c++) {
        boolean isNull = random.nextInt(10) == 0;
        if (c < 8) {
          if (isNull) {
            ((BigIntVector) columns[c]).setNull(r);
          } else {
            ((BigIntVector) columns[c]).set(r, random.nextLong());
          }
        } else if (c < 16) {
          if (isNull) {
            ((VarCharVector) columns[c]).setNull(r);
          } else {
            int length = 5 + random.nextInt(56);
            for (int k = 0; k < length; k++) {
              text[k] = (byte) (32 + random.nextInt(95));
            }
            ((VarCharVector) columns[c]).setSafe(r, text, 0, length);
          }
        } else {
          if (isNull) {
            ((Float8Vector) columns[c]).setNull(r);
          } else {
            ((Float8Vector) columns[c]).set(r, random.nextDouble());
          }
        }
      }
    }
    for (ValueVector column : columns) {
      column.setValueCount(rows);
    }
    return columns;
  }

  private long consume(InternalRow row) {
    if (seedConsumer) {
      return row.getLong(0)
          + (row.isNullAt(stringColumn) ? 0 : row.getUTF8String(stringColumn).numBytes());
    }
    return row.getLong(0) + (int) row.getLong(stringColumn);
  }

  @Override
  public long batch(int index) {
    ColumnarBatch batch = batches.get(index % batches.size());
    long sum = 0;
    switch (impl) {
      case "comet":
        {
          scala.collection.Iterator<InternalRow> rows = nativeConverter.convert(batch);
          while (rows.hasNext()) {
            sum += consume(rows.next());
          }
          return sum;
        }
      case "comet_jvm":
      case "comet_jvm_aa":
        {
          UnsafeProjection p = projection;
          Iterator<InternalRow> rows = batch.rowIterator();
          while (rows.hasNext()) {
            UnsafeRow row = p.apply(rows.next());
            sum += consume(row);
          }
          return sum;
        }
      case "comet_direct":
        {
          DirectColumnarToRowConverter d = direct;
          d.setBatch(batch);
          int n = batch.numRows();
          for (int i = 0; i < n; i++) {
            sum += consume(d.convertRow(i));
          }
          return sum;
        }
      default:
        {
          RowbridgeConverter c = rowbridge;
          if (!cometColumns.read(batch)) {
            throw new IllegalStateException("CometColumns does not read batch " + index);
          }
          c.convert(cometColumns.columns(), batch.numRows());
          while (c.next()) {
            sum += consume(c.row());
          }
          return sum;
        }
    }
  }

  @Override
  public void close() {
    if (nativeConverter != null) {
      nativeConverter.close();
    }
    if (rowbridge != null) {
      rowbridge.close();
    }
    for (ValueVector vector : vectors) {
      vector.close();
    }
    allocator.close();
  }
}
