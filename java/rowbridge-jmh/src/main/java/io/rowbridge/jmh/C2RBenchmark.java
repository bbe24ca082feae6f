package io.rowbridge.jmh;

import io.rowbridge.ConverterOptions;
import io.rowbridge.RowbridgeConverter;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Columnar to row, side by side in one JVM run: one operation converts one batch (cycling through
 * the dataset's batches in order) and consumes every row.
 *
 * <ul>
 *   <li>{@code spark}: Spark's JVM path, {@code ColumnarBatch.rowIterator()} + {@code
 *       UnsafeProjection} over ArrowColumnVectors;
 *   <li>{@code rowbridge}: {@link RowbridgeConverter} from the same ColumnarBatch (registered
 *       batch, one JNI call, the reused row);
 *   <li>{@code comet}: Comet's NativeColumnarToRowConverter (comet-spark-spark4.1_2.13), driven in
 *       an isolated class loader ({@link CometCase});
 *   <li>{@code comet_jvm}: Comet's JVM transition (CometColumnarToRowExec's default: {@code
 *       UnsafeProjection} over {@code rowIterator()}) over the same CometPlainVectors; {@code
 *       comet_jvm_aa}: the same again, an A/A twin that shows the run's noise;
 *   <li>{@code comet_direct}: Comet's experimental DirectColumnarToRowConverter over them;
 *   <li>{@code rowbridge_comet}: rowbridge over them ({@code io.rowbridge.comet.CometColumns}, one
 *       JNI call per batch, the reused row);
 *   <li>{@code rowbridge_convert}: rowbridge's convert call alone, rows not read (attribution);
 *   <li>{@code ffi_export}: an Arrow C Data export of the batch and its release, alone (what the
 *       seed's native path pays per batch before converting anything).
 * </ul>
 *
 * Consumers: {@code seed} reads {@code getLong(0) + getUTF8String(s).numBytes()} per row, as the
 * seed's benchmark does; {@code noalloc} reads {@code getLong(0) + (int) getLong(s)} (the string's
 * size from its slot), which allocates nothing itself, so that the GC profiler's bytes per
 * operation are the converter's own. On "nested", whose columns are a struct, two arrays and a map,
 * {@code noalloc} reads each column's slot ({@code (int) getLong(c)}: the value's size) and {@code
 * seed} reads into every value ({@code getStruct(0, 2).getLong(0)} and the element counts of the
 * arrays and the map). The Comet paths ({@link CometCase}, build profile {@code -Pcomet}) are
 * driven on the flat schemas only.
 */
@State(Scope.Thread)
public class C2RBenchmark extends ForkedBenchmark {
  @Param({"record"})
  public String schema;

  @Param({"8192", "512", "32"})
  public int batchRows;

  @Param({"spark", "rowbridge", "ffi_export"})
  public String impl;

  @Param({"seed", "noalloc"})
  public String consumer;

  private BufferAllocator allocator;
  private BenchData data;
  private List<ColumnarBatch> batches;
  private List<VectorSchemaRoot> roots;
  private int next;
  private int stringColumn;
  private boolean nested;
  private boolean seedConsumer;

  private UnsafeProjection projection;
  private RowbridgeConverter converter;
  private ArrowArray exported;
  private CometCase comet;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    allocator = new RootAllocator();
    data = new BenchData(schema, batchRows, allocator);
    batches = data.batches;
    roots = data.roots;
    stringColumn = data.stringColumn;
    nested = schema.equals("nested");
    seedConsumer = consumer.equals("seed");
    switch (impl) {
      case "spark":
        projection = UnsafeProjection.create(data.sparkSchema);
        break;
      case "rowbridge":
      case "rowbridge_convert":
        converter =
            RowbridgeConverter.create(data.sparkSchema, data.schema, ConverterOptions.defaults());
        checkFirstBatchAgainstSpark();
        break;
      case "ffi_export":
        exported = ArrowArray.allocateNew(allocator);
        break;
      case "comet":
      case "comet_jvm":
      case "comet_jvm_aa":
      case "comet_direct":
      case "rowbridge_comet":
        comet = CometCase.load(impl, data.schemaName, batchRows, seedConsumer);
        break;
      default:
        throw new IllegalArgumentException("unknown impl " + impl);
    }
  }

  /** Fails the trial unless rowbridge's rows of the first batch are Spark's, byte for byte. */
  private void checkFirstBatchAgainstSpark() {
    UnsafeProjection spark = UnsafeProjection.create(data.sparkSchema);
    Iterator<InternalRow> expected = batches.get(0).rowIterator();
    converter.convert(batches.get(0));
    int row = 0;
    while (converter.next()) {
      byte[] want = spark.apply(expected.next()).getBytes();
      byte[] got = converter.row().getBytes();
      if (!java.util.Arrays.equals(want, got)) {
        throw new IllegalStateException(
            schema
                + ": row "
                + row
                + " of the first batch differs"
                + " from Spark's UnsafeProjection");
      }
      row++;
    }
    if (expected.hasNext() || row != batches.get(0).numRows()) {
      throw new IllegalStateException(schema + ": the first batch has " + row + " rows");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    if (converter != null) {
      converter.close();
    }
    if (exported != null) {
      exported.close();
    }
    if (comet != null) {
      comet.close();
    }
    data.close();
    allocator.close();
  }

  private long consume(InternalRow row) {
    if (nested) {
      return consumeNested(row);
    }
    if (seedConsumer) {
      return row.getLong(0)
          + (row.isNullAt(stringColumn) ? 0 : row.getUTF8String(stringColumn).numBytes());
    }
    return row.getLong(0) + (int) row.getLong(stringColumn);
  }

  private long consumeNested(InternalRow row) {
    if (!seedConsumer) {
      return (int) row.getLong(0)
          + (int) row.getLong(1)
          + (int) row.getLong(2)
          + (int) row.getLong(3);
    }
    long sum = 0;
    if (!row.isNullAt(0)) {
      InternalRow pair = row.getStruct(0, 2);
      sum += pair.isNullAt(0) ? 0 : pair.getLong(0);
    }
    sum += row.isNullAt(1) ? 0 : row.getArray(1).numElements();
    sum += row.isNullAt(2) ? 0 : row.getMap(2).numElements();
    sum += row.isNullAt(3) ? 0 : row.getArray(3).numElements();
    return sum;
  }

  /** Converts the next batch and consumes its rows; returns the consumers' sum. */
  @Benchmark
  public long batch() {
    int index = next;
    next = index + 1 == batches.size() ? 0 : index + 1;
    long sum = 0;
    switch (impl) {
      case "spark":
        {
          Iterator<InternalRow> rows = batches.get(index).rowIterator();
          while (rows.hasNext()) {
            UnsafeRow row = projection.apply(rows.next());
            sum += consume(row);
          }
          return sum;
        }
      case "rowbridge":
        {
          RowbridgeConverter c = converter;
          c.convert(batches.get(index));
          while (c.next()) {
            sum += consume(c.row());
          }
          return sum;
        }
      case "rowbridge_convert":
        // attribution: the conversion alone, rows not read
        return converter.convert(batches.get(index));
      case "ffi_export":
        Data.exportVectorSchemaRoot(allocator, roots.get(index), null, exported);
        exported.release();
        return 0;
      default:
        return comet.batch(index);
    }
  }
}
