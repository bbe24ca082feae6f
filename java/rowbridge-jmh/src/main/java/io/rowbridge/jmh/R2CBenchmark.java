package io.rowbridge.jmh;

import io.rowbridge.DecoderOptions;
import io.rowbridge.RowbridgeDecoder;
import java.util.Arrays;
import java.util.Iterator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compare.VectorEqualsVisitor;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.execution.RowToColumnConverter;
import org.apache.spark.sql.execution.arrow.ArrowWriter;
import org.apache.spark.sql.execution.vectorized.OffHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Row to columnar (Spark rows to Arrow), side by side: one operation turns one batch of {@code
 * batchRows} Spark UnsafeRows into columns, cycling through the dataset's batches in order. The
 * rows are made once, before the trial, from {@link BenchData}'s datasets by Spark's
 * UnsafeProjection (one copied UnsafeRow per row, on the heap); every variant takes the same rows.
 *
 * <ul>
 *   <li>{@code rowbridge}: {@link RowbridgeDecoder#add} per row (a copy into its native staging)
 *       and {@link RowbridgeDecoder#decode} (one JNI call) into its reused VectorSchemaRoot;
 *   <li>{@code rowbridge_aa}: the same again, timed as a variant of its own (A/A twin: its ratio to
 *       {@code rowbridge} is the noise);
 *   <li>{@code rowbridge_decode}: the decode call alone, the rows staged in native memory once
 *       before the trial ({@link RowbridgeDecoder#decode(long, long, int)}; attribution, and the
 *       fixed cost of a batch through JNI);
 *   <li>{@code arrow_writer}: Spark's {@code ArrowWriter} ({@code write} per row, {@code finish},
 *       {@code reset}) into a reused root of {@code ArrowUtils.toArrowSchema}, what Spark's toArrow
 *       and Python UDFs run;
 *   <li>{@code spark_r2c}: Spark's RowToColumnarExec path, {@code RowToColumnConverter} into {@code
 *       OffHeapColumnVector.allocateColumns(batchRows, schema)}, reset per batch.
 * </ul>
 *
 * Before the trial each variant's first two batches are read back through ArrowColumnVector (or the
 * OffHeapColumnVectors) and Spark's UnsafeProjection, and must give the input rows byte for byte;
 * rowbridge's root must also equal ArrowWriter's, vector by vector.
 */
@State(Scope.Thread)
public class R2CBenchmark extends ForkedBenchmark {
  /** The session time zone the Arrow schemas carry (no timestamp column uses it). */
  static final String TIME_ZONE = "UTC";

  @Param({"record"})
  public String schema;

  @Param({"8192"})
  public int batchRows;

  @Param({"rowbridge", "rowbridge_aa", "rowbridge_decode", "arrow_writer", "spark_r2c"})
  public String impl;

  private BufferAllocator allocator;
  private UnsafeRow[] rows;
  private int numBatches;
  private int next;

  private RowbridgeDecoder decoder;
  private StagedRows staged;

  private VectorSchemaRoot writerRoot;
  private ArrowWriter writer;

  private RowToColumnConverter converter;
  private WritableColumnVector[] columns;
  private ColumnarBatch columnar;

  @Setup(Level.Trial)
  public void setUp() {
    allocator = new RootAllocator();
    StructType sparkSchema;
    try (BenchData data = new BenchData(schema, DecoderOptions.DEFAULT_MAX_ROWS, allocator)) {
      sparkSchema = data.sparkSchema;
      rows = StagedRows.unsafeRows(data);
    }
    numBatches = rows.length / batchRows;
    if (numBatches == 0) {
      throw new IllegalArgumentException(
          schema + " has " + rows.length + " rows, fewer than " + batchRows);
    }
    switch (impl) {
      case "rowbridge":
      case "rowbridge_aa":
        decoder =
            RowbridgeDecoder.create(
                sparkSchema, TIME_ZONE, allocator, DecoderOptions.defaults().maxRows(batchRows));
        break;
      case "rowbridge_decode":
        decoder =
            RowbridgeDecoder.create(
                sparkSchema, TIME_ZONE, allocator, DecoderOptions.defaults().maxRows(batchRows));
        staged = new StagedRows(sparkSchema, rows, batchRows);
        break;
      case "arrow_writer":
        break;
      case "spark_r2c":
        converter = new RowToColumnConverter(sparkSchema);
        columns = OffHeapColumnVector.allocateColumns(batchRows, sparkSchema);
        columnar = new ColumnarBatch(columns);
        break;
      default:
        throw new IllegalArgumentException("unknown impl " + impl);
    }
    if (decoder != null || impl.equals("arrow_writer")) {
      Schema arrow = ArrowUtils.toArrowSchema(sparkSchema, TIME_ZONE, true, false);
      if (decoder != null && !arrow.equals(decoder.arrowSchema())) {
        throw new IllegalStateException(
            schema + ": the decoder's Arrow schema is not " + "ArrowUtils.toArrowSchema's");
      }
      writerRoot = VectorSchemaRoot.create(arrow, allocator);
      writer = ArrowWriter.create(writerRoot);
    }
    check(sparkSchema);
    if (decoder != null) {
      writerRoot.close(); // ArrowWriter's root: only the check's reference
      writerRoot = null;
      writer = null;
    }
    next = 0;
  }

  /**
   * Fails the trial unless the variant's first two batches read back as their input rows, byte for
   * byte (and, for rowbridge, unless its vectors equal ArrowWriter's).
   */
  private void check(StructType sparkSchema) {
    UnsafeProjection projection = UnsafeProjection.create(sparkSchema);
    for (int k = 0; k < Math.min(2, numBatches); k++) {
      next = k;
      batch();
      ColumnarBatch out;
      if (columnar != null) {
        out = columnar;
      } else {
        VectorSchemaRoot root = decoder != null ? decoder.root() : writerRoot;
        if (decoder != null) {
          writer.reset();
          for (int r = k * batchRows; r < (k + 1) * batchRows; r++) {
            writer.write(rows[r]);
          }
          writer.finish();
          for (int c = 0; c < root.getFieldVectors().size(); c++) {
            if (!VectorEqualsVisitor.vectorEquals(root.getVector(c), writerRoot.getVector(c))) {
              throw new IllegalStateException(
                  schema
                      + " "
                      + impl
                      + ": column "
                      + c
                      + " of batch "
                      + k
                      + " differs from Spark's ArrowWriter");
            }
          }
        }
        ColumnVector[] vectors = new ColumnVector[root.getFieldVectors().size()];
        for (int c = 0; c < vectors.length; c++) {
          vectors[c] = new ArrowColumnVector(root.getVector(c));
        }
        out = new ColumnarBatch(vectors, root.getRowCount());
      }
      if (out.numRows() != batchRows) {
        throw new IllegalStateException(
            schema
                + " "
                + impl
                + ": batch "
                + k
                + " has "
                + out.numRows()
                + " rows, not "
                + batchRows);
      }
      Iterator<InternalRow> it = out.rowIterator();
      for (int r = k * batchRows; r < (k + 1) * batchRows; r++) {
        if (!Arrays.equals(projection.apply(it.next()).getBytes(), rows[r].getBytes())) {
          throw new IllegalStateException(
              schema
                  + " "
                  + impl
                  + ": row "
                  + (r - k * batchRows)
                  + " of batch "
                  + k
                  + " does not read back as its input row");
        }
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (decoder != null) {
      decoder.close();
    }
    if (staged != null) {
      staged.close();
    }
    if (writerRoot != null) {
      writerRoot.close();
    }
    if (columnar != null) {
      columnar.close();
    }
    allocator.close();
    rows = null;
  }

  /** Turns the next batch of rows into columns; returns the batch's row count. */
  @Benchmark
  public int batch() {
    int index = next;
    next = index + 1 == numBatches ? 0 : index + 1;
    int first = index * batchRows;
    int end = first + batchRows;
    UnsafeRow[] input = rows;
    switch (impl) {
      case "rowbridge":
      case "rowbridge_aa":
        {
          RowbridgeDecoder d = decoder;
          for (int r = first; r < end; r++) {
            d.add(input[r]);
          }
          return d.decode().getRowCount();
        }
      case "rowbridge_decode":
        return decoder.decode(staged.data(index), staged.offsets(index), batchRows).getRowCount();
      case "arrow_writer":
        {
          ArrowWriter w = writer;
          w.reset();
          for (int r = first; r < end; r++) {
            w.write(input[r]);
          }
          w.finish();
          return writerRoot.getRowCount();
        }
      default:
        {
          WritableColumnVector[] vectors = columns;
          for (WritableColumnVector vector : vectors) {
            vector.reset();
          }
          RowToColumnConverter c = converter;
          for (int r = first; r < end; r++) {
            c.convert(input[r], vectors);
          }
          columnar.setNumRows(batchRows);
          return batchRows;
        }
    }
  }
}
