package io.rowbridge.jmh;

import io.rowbridge.DecoderOptions;
import io.rowbridge.RowStaging;
import io.rowbridge.RowbridgeDecoder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.execution.arrow.ArrowWriter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.unsafe.Platform;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Where the time of staging rows goes, variant against variant in one JVM: each operation takes one
 * batch of {@code batchRows} rows of the dataset (R2CBenchmark's UnsafeRows) through every variant
 * of {@code variants} in turn, each its own next batch, the order rotating from one operation to
 * the next, and times each variant on its own. At the end of the trial it prints each variant's
 * median ns per row over the measurement iterations and its ratio to the first variant, paired
 * iteration by iteration (the median and the range), so that the load of a shared machine falls on
 * every variant alike. With {@code decode=true} each staged batch is decoded too.
 *
 * <ul>
 *   <li>{@code staging}: {@link RowStaging#add} per row ({@code staging_aa}: its A/A twin);
 *   <li>{@code rowbridge}: {@link RowbridgeDecoder#add} per row and {@link
 *       RowbridgeDecoder#decode()} ({@code rowbridge_aa}: its twin), R2CBenchmark's rowbridge;
 *   <li>{@code arrow_writer}: Spark's ArrowWriter, as in R2CBenchmark;
 *   <li>{@code copy}: one {@code Platform.copyMemory} per row and the offset store, no checks;
 *   <li>{@code words}: the same with the row copied 8 bytes at a time by {@code getLong}/{@code
 *       putLong};
 *   <li>{@code gather}: the rows' base, offset and size recorded row by row, then copied in one
 *       pass;
 *   <li>{@code read}: every 8 bytes of each row read and summed, nothing written (the rows' reads
 *       alone);
 *   <li>{@code none}: nothing staged, the rows staged once before the trial as R2CBenchmark's
 *       rowbridge_decode does (what reading rows in place would leave).
 * </ul>
 *
 * {@code input=heap} takes the rows as R2CBenchmark does, each in its own byte[]; {@code
 * input=offheap} points them, in order, into one native block.
 */
@State(Scope.Thread)
public class StagingBenchmark extends ForkedBenchmark {
  @Param({"record"})
  public String schema;

  @Param({"8192"})
  public int batchRows;

  /** The variants, separated by +; ratios are to the first. */
  @Param({"staging+staging_aa+copy+words+gather+read+none"})
  public String variants;

  @Param({"heap"})
  public String input;

  @Param({"true"})
  public boolean decode;

  private BufferAllocator allocator;
  private UnsafeRow[] rows;
  private long offHeapRows;
  private int numBatches;
  private int next;

  private RowbridgeDecoder decoder;
  private RowStaging staging;
  private long data;
  private long offsets;
  private long batchData;
  private long batchOffsets;
  private Object[] bases;
  private long[] starts;
  private int[] sizes;
  private VectorSchemaRoot writerRoot;
  private ArrowWriter writer;
  private String[] impls;
  private long[] nanos;
  private long[] batches;
  private boolean measuring;
  private int step;
  private final List<double[]> iterations = new ArrayList<>();

  private StagedRows staged;

  @Setup(Level.Trial)
  public void setUp() {
    allocator = new RootAllocator();
    StructType sparkSchema;
    try (BenchData bench = new BenchData(schema, DecoderOptions.DEFAULT_MAX_ROWS, allocator)) {
      sparkSchema = bench.sparkSchema;
      rows = StagedRows.unsafeRows(bench);
    }
    numBatches = rows.length / batchRows;
    long all = 0;
    int largest = 0;
    for (UnsafeRow row : rows) {
      all += row.getSizeInBytes();
      largest = Math.max(largest, row.getSizeInBytes());
    }
    System.out.printf(
        "%n%s: %d rows, %.1f bytes a row on average, %d at most%n",
        schema, rows.length, (double) all / rows.length, largest);
    if (input.equals("offheap")) {
      long total = 0;
      for (UnsafeRow row : rows) {
        total += row.getSizeInBytes();
      }
      offHeapRows = Platform.allocateMemory(total);
      long at = offHeapRows;
      for (UnsafeRow row : rows) {
        int size = row.getSizeInBytes();
        Platform.copyMemory(row.getBaseObject(), row.getBaseOffset(), null, at, size);
        row.pointTo(null, at, size);
        at += size;
      }
    }
    decoder =
        RowbridgeDecoder.create(
            sparkSchema,
            R2CBenchmark.TIME_ZONE,
            allocator,
            DecoderOptions.defaults().maxRows(batchRows));
    staging = new RowStaging(sparkSchema, batchRows, Long.MAX_VALUE, null);
    long most = 0;
    for (int k = 0; k < numBatches; k++) {
      long bytes = 0;
      for (int r = k * batchRows; r < (k + 1) * batchRows; r++) {
        bytes += rows[r].getSizeInBytes();
      }
      most = Math.max(most, bytes);
    }
    data = Platform.allocateMemory(most);
    offsets = Platform.allocateMemory(8L * (batchRows + 1));
    Platform.putLong(null, offsets, 0L);
    bases = new Object[batchRows];
    starts = new long[batchRows];
    sizes = new int[batchRows];
    impls = variants.split("\\+");
    nanos = new long[impls.length];
    batches = new long[impls.length];
    if (Arrays.asList(impls).contains("arrow_writer")) {
      writerRoot =
          VectorSchemaRoot.create(
              ArrowUtils.toArrowSchema(sparkSchema, R2CBenchmark.TIME_ZONE, true, false),
              allocator);
      writer = ArrowWriter.create(writerRoot);
    }
    if (Arrays.asList(impls).contains("none")) {
      staged = new StagedRows(sparkSchema, rows, batchRows);
    }
    next = 0;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    report();
    decoder.close();
    if (writerRoot != null) {
      writerRoot.close();
    }
    staging.close();
    if (staged != null) {
      staged.close();
    }
    Platform.freeMemory(data);
    Platform.freeMemory(offsets);
    if (offHeapRows != 0) {
      Platform.freeMemory(offHeapRows);
    }
    allocator.close();
    rows = null;
  }

  /**
   * Stages (and decodes) the batch at {@code index} the {@code impl} way; returns a checksum. Each
   * variant's loop is a method of its own, compiled apart (as a caller's loop would be), so that
   * one variant's inlining does not depend on the others'.
   */
  long run(String impl, int index) {
    int first = index * batchRows;
    int end = first + batchRows;
    batchData = data;
    batchOffsets = offsets;
    switch (impl) {
      case "rowbridge":
      case "rowbridge_aa":
        return rowbridge(first, end);
      case "arrow_writer":
        return arrowWriter(first, end);
      case "read":
        return read(first, end);
      case "staging":
      case "staging_aa":
        staging(first, end);
        break;
      case "copy":
        copy(first, end);
        break;
      case "words":
        words(first, end);
        break;
      case "gather":
        gather(first, end);
        break;
      case "none":
        batchData = staged.data(index);
        batchOffsets = staged.offsets(index);
        break;
      default:
        throw new IllegalArgumentException("unknown impl " + impl);
    }
    if (!decode) {
      return Platform.getLong(null, batchOffsets + 8L * batchRows);
    }
    return decoder.decode(batchData, batchOffsets, batchRows).getRowCount();
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  private int rowbridge(int first, int end) {
    RowbridgeDecoder d = decoder;
    UnsafeRow[] input = rows;
    for (int r = first; r < end; r++) {
      d.add(input[r]);
    }
    return d.decode().getRowCount();
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  private int arrowWriter(int first, int end) {
    ArrowWriter w = writer;
    UnsafeRow[] input = rows;
    w.reset();
    for (int r = first; r < end; r++) {
      w.write(input[r]);
    }
    w.finish();
    return writerRoot.getRowCount();
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  private void staging(int first, int end) {
    RowStaging s = staging;
    UnsafeRow[] input = rows;
    s.clear();
    for (int r = first; r < end; r++) {
      s.add(input[r]);
    }
    batchData = s.dataAddress();
    batchOffsets = s.offsetsAddress();
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  private void copy(int first, int end) {
    UnsafeRow[] input = rows;
    long to = data;
    long at = 0;
    for (int r = first; r < end; r++) {
      UnsafeRow row = input[r];
      int size = row.getSizeInBytes();
      Platform.copyMemory(row.getBaseObject(), row.getBaseOffset(), null, to + at, size);
      at += size;
      Platform.putLong(null, offsets + 8L * (r - first + 1), at);
    }
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  private void words(int first, int end) {
    UnsafeRow[] input = rows;
    long to = data;
    long at = to;
    for (int r = first; r < end; r++) {
      at = copyWords(input[r], at);
      Platform.putLong(null, offsets + 8L * (r - first + 1), at - to);
    }
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  private void gather(int first, int end) {
    UnsafeRow[] input = rows;
    Object[] b = bases;
    long[] o = starts;
    int[] z = sizes;
    for (int r = first; r < end; r++) {
      UnsafeRow row = input[r];
      b[r - first] = row.getBaseObject();
      o[r - first] = row.getBaseOffset();
      z[r - first] = row.getSizeInBytes();
    }
    long at = 0;
    for (int i = 0; i < end - first; i++) {
      Platform.copyMemory(b[i], o[i], null, data + at, z[i]);
      at += z[i];
      Platform.putLong(null, offsets + 8L * (i + 1), at);
    }
    Arrays.fill(b, null);
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  private long read(int first, int end) {
    UnsafeRow[] input = rows;
    long sum = 0;
    for (int r = first; r < end; r++) {
      sum += sumWords(input[r]);
    }
    return sum;
  }

  /** Copies the row 8 bytes at a time to {@code to}; returns the address after it. */
  private static long copyWords(UnsafeRow row, long to) {
    int size = row.getSizeInBytes();
    Object base = row.getBaseObject();
    long from = row.getBaseOffset();
    for (int i = 0; i < size; i += 8) {
      Platform.putLong(null, to + i, Platform.getLong(base, from + i));
    }
    return to + size;
  }

  /** The sum of the row's 8-byte words (its bytes read, nothing written). */
  private static long sumWords(UnsafeRow row) {
    int size = row.getSizeInBytes();
    Object base = row.getBaseObject();
    long from = row.getBaseOffset();
    long sum = 0;
    for (int i = 0; i < size; i += 8) {
      sum += Platform.getLong(base, from + i);
    }
    return sum;
  }

  @Setup(Level.Iteration)
  public void startIteration(IterationParams params) {
    measuring = params.getType() == IterationType.MEASUREMENT;
    Arrays.fill(nanos, 0L);
    Arrays.fill(batches, 0L);
  }

  @TearDown(Level.Iteration)
  public void endIteration() {
    if (!measuring) {
      return;
    }
    double[] perRow = new double[impls.length];
    for (int v = 0; v < impls.length; v++) {
      perRow[v] = (double) nanos[v] / (batches[v] * (double) batchRows);
    }
    iterations.add(perRow);
  }

  /**
   * One batch through every variant of {@code impls}, each its own batch of the dataset, the order
   * rotating from one call to the next; the time each takes is summed per variant.
   */
  @Benchmark
  public long interleaved() {
    int count = impls.length;
    int shift = step % count;
    long sum = 0;
    for (int k = 0; k < count; k++) {
      int v = (k + shift) % count;
      int index = next;
      next = index + 1 == numBatches ? 0 : index + 1;
      long start = System.nanoTime();
      sum += run(impls[v], index);
      nanos[v] += System.nanoTime() - start;
      batches[v]++;
    }
    step++;
    return sum;
  }

  /**
   * Prints each variant's median ns per row over the iterations, and its paired ratio to the first.
   */
  private void report() {
    int n = iterations.size();
    if (n == 0) {
      return;
    }
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            "%n== interleaved %s decode=%s input=%s, %d iterations%n", schema, decode, input, n));
    for (int v = 0; v < impls.length; v++) {
      double[] perRow = new double[n];
      double[] ratio = new double[n];
      for (int i = 0; i < n; i++) {
        perRow[i] = iterations.get(i)[v];
        ratio[i] = iterations.get(i)[v] / iterations.get(i)[0];
      }
      Arrays.sort(perRow);
      Arrays.sort(ratio);
      out.append(
          String.format(
              "%-12s %8.2f ns/row (%.2f-%.2f)  vs %s %.3f (%.3f-%.3f)%n",
              impls[v],
              perRow[n / 2],
              perRow[0],
              perRow[n - 1],
              impls[0],
              ratio[n / 2],
              ratio[0],
              ratio[n - 1]));
    }
    System.out.print(out);
  }
}
