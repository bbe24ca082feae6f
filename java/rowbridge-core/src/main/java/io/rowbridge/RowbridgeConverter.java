package io.rowbridge;

import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.Platform;

/**
 * Converts Arrow Java record batches into Spark UnsafeRows with the native converter, byte for byte
 * what Spark's UnsafeProjection writes.
 *
 * <p>Created once per schema; then, per batch, {@link #convert} writes the vectors' buffer
 * addresses into the converter's registered native ArrowArray and makes one JNI call with primitive
 * arguments, and {@link #next}/{@link #row} walk the rows. Nothing is allocated on the JVM per
 * batch or per row. The row is one reused UnsafeRow that points into native memory: it is valid
 * until the next {@code next}, {@code convert} or {@code close} (Spark's row reuse contract);
 * {@link ConverterOptions#copyRows} hands out copies instead. After {@code close} the reused row
 * points at a zeroed on-heap buffer, so a stale reference reads zeros rather than freed memory.
 *
 * <p>The vectors of a batch are borrowed: they must stay open and unchanged until its last row has
 * been read (a batch larger than {@link ConverterOptions#maxChunkBytes} is converted in chunks,
 * each read from the vectors). A column whose layout differs from the converter's schema (a column
 * that became dictionary-encoded, or run-end encoded) is converted through the path that passes the
 * batch's own schema, never misread. One thread at a time.
 */
public final class RowbridgeConverter implements AutoCloseable {
  private final StructType sparkSchema;
  private final List<Field> fields;
  private final int numColumns;
  private final ConverterOptions options;
  private final boolean copyRows;
  private final boolean timed;
  private long conversionNanos;
  private final NativeMemoryListener memoryListener;
  private DictionaryProvider dictionaries;

  private long handle;
  private final NativeArena arena = new NativeArena();
  private final long zeroes;
  private final NodeBinder[] columns;
  private final ValueVector[] checkedVectors;

  /** The field object of each column last found to have the registered layout. */
  private final ValueVector[] current;

  private final String nativeSparkSchema;

  private final long registeredRoot;

  private FallbackTree fallback;
  private BufferColumns bufferColumns;
  private CDataInput cData;
  private long schemaPathBatches;

  private final UnsafeRow row;
  private final byte[] closedRow;
  private final RowIterator iterator = new RowIterator();

  // The current chunk of the current batch.
  private Object batch;
  private long batchRows;
  private long dataAddress;
  private long offsetsAddress;
  private long chunkFirstRow;
  private int chunkRows;
  private int index;

  /** The end of the current row in the chunk's data (rows are walked in order). */
  private long rowEnd;

  private long reservedBytes;

  private RowbridgeConverter(StructType sparkSchema, List<Field> fields, ConverterOptions options) {
    this.sparkSchema = sparkSchema;
    this.fields = List.copyOf(fields);
    this.numColumns = fields.size();
    this.options = options;
    this.copyRows = options.copyRows();
    this.timed = options.timed();
    this.memoryListener = options.memoryListener();
    this.dictionaries = options.dictionaries();
    SparkTypes.check(sparkSchema, fields, dictionaries);
    this.row = new UnsafeRow(numColumns);
    this.closedRow =
        new byte
            [Math.max(64, UnsafeRow.calculateBitSetWidthInBytes(numColumns) + 8 * numColumns + 64)];
    this.checkedVectors = new ValueVector[numColumns];
    this.current = new ValueVector[numColumns];
    this.columns = new NodeBinder[numColumns];
    this.zeroes = arena.allocate(64);
    long schema = SchemaExporter.export(fields, dictionaries, arena);
    int validation =
        options.validation() == ConverterOptions.Validation.FULL
            ? RowbridgeNative.VALIDATION_FULL
            : RowbridgeNative.VALIDATION_CHEAP;
    try {
      handle =
          RowbridgeNative.create(
              schema,
              validation,
              options.maxChunkBytes(),
              options.variants(),
              options.kernels().ordinal(),
              options.nestedWriter().ordinal());
    } catch (RuntimeException | Error e) {
      arena.close();
      throw e;
    }
    try {
      nativeSparkSchema =
          CStructs.readCString(RowbridgeNative.sparkSchemaAddress(handle), Integer.MAX_VALUE);
      long root = RowbridgeNative.registeredBatch(handle);
      this.registeredRoot = root;
      if (root == 0) {
        throw new RowbridgeException(
            "rowbridge: the converter has no registered batch", RowbridgeException.ENOMEM);
      }
      NodeBinder.Context context = new NodeBinder.Context(null, 0, zeroes, dictionaries);
      for (int i = 0; i < numColumns; i++) {
        Field field = fields.get(i);
        columns[i] =
            NodeBinder.create(
                context, field, context.child(root, i), "column '" + field.getName() + "'");
      }
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
    pointAtClosedRow();
  }

  /**
   * Creates a converter for batches of {@code arrowSchema} whose rows are {@code sparkSchema}. The
   * Spark schema must give each column the Spark type of its Arrow type (CONTRACTS.md §2); a
   * mismatch, or an Arrow type Spark rows cannot carry, is a RowbridgeException naming the column.
   * Dictionary-encoded columns need {@link ConverterOptions#dictionaries}.
   */
  public static RowbridgeConverter create(
      StructType sparkSchema, Schema arrowSchema, ConverterOptions options) {
    return new RowbridgeConverter(sparkSchema, arrowSchema.getFields(), options);
  }

  /** The same, with the Spark schema derived from the Arrow schema. */
  public static RowbridgeConverter create(Schema arrowSchema, ConverterOptions options) {
    return create(
        SparkTypes.of(arrowSchema.getFields(), options.dictionaries()), arrowSchema, options);
  }

  /** The native library's version ("MAJOR.MINOR.PATCH"). */
  public static String nativeVersion() {
    return CStructs.readCString(RowbridgeNative.versionAddress(), Integer.MAX_VALUE);
  }

  public StructType sparkSchema() {
    return sparkSchema;
  }

  /** The row schema as the native converter compiled it (StructType.catalogString form). */
  public String nativeSparkSchema() {
    return nativeSparkSchema;
  }

  /** Replaces the dictionaries of dictionary-encoded columns (e.g. after a dictionary batch). */
  public void setDictionaries(DictionaryProvider value) {
    this.dictionaries = value;
  }

  /**
   * Nanoseconds spent in conversions (binding, the native calls, first and later chunks) since
   * creation, when {@link ConverterOptions#timed} is on; 0 otherwise.
   */
  public long conversionNanos() {
    return conversionNanos;
  }

  /** Batches that went through the path passing the batch's own schema (a layout change). */
  public long schemaPathBatches() {
    return schemaPathBatches;
  }

  // ---- per batch ----

  /** Converts {@code root}'s rows; returns the row count. Read them with next() and row(). */
  public int convert(VectorSchemaRoot root) {
    checkColumnCount(root.getSchema().getFields().size());
    for (int i = 0; i < numColumns; i++) {
      current[i] = root.getVector(i);
    }
    return convertCurrent(root.getRowCount(), root);
  }

  /** Converts the first {@code numRows} rows of {@code vectors}, one vector per column. */
  public int convert(List<? extends ValueVector> vectors, int numRows) {
    checkColumnCount(vectors.size());
    for (int i = 0; i < numColumns; i++) {
      current[i] = vectors.get(i);
    }
    return convertCurrent(numRows, vectors);
  }

  /**
   * Converts a Spark batch whose every column is an {@link ArrowColumnVector} (see {@link
   * #isArrowBacked}); any other column is an IllegalArgumentException.
   */
  public int convert(ColumnarBatch columnarBatch) {
    checkColumnCount(columnarBatch.numCols());
    for (int i = 0; i < numColumns; i++) {
      ColumnVector column = columnarBatch.column(i);
      if (!(column instanceof ArrowColumnVector)) {
        throw new IllegalArgumentException(
            "rowbridge: column "
                + i
                + " is a "
                + column.getClass().getName()
                + ", not an ArrowColumnVector");
      }
      current[i] = ((ArrowColumnVector) column).getValueVector();
    }
    return convertCurrent(columnarBatch.numRows(), columnarBatch);
  }

  /**
   * Converts the first {@code numRows} rows of columns given as primitives, one {@link
   * ColumnBuffers} per column (for vectors whose Arrow Java classes rowbridge cannot name). Flat
   * columns (fixed-width, boolean, decimal, utf8 and binary) bind into the registered batch; a
   * dictionary-encoded column whose field is not takes the path that passes the batch's own schema.
   * A column of another layout than its field's (minor type, decimal precision or scale) is a
   * RowbridgeException naming it, as is a buffer smaller than its value count needs. The buffers
   * are borrowed as {@link ColumnBuffers} says; the holders may be refilled for the next batch.
   */
  public int convert(ColumnBuffers[] columns, int numRows) {
    checkColumnCount(columns.length);
    long start = timed ? System.nanoTime() : 0;
    endBatch();
    try {
      if (numRows < 0) {
        throw new IllegalArgumentException("rowbridge: negative row count " + numRows);
      }
      for (int i = 0; i < numColumns; i++) {
        BufferColumns.check(columns[i], numRows, this.columns[i].label);
      }
      batch = columns;
      batchRows = numRows;
      long result;
      if (bindRegisteredBuffers(columns)) {
        result = RowbridgeNative.convert(handle, numRows);
      } else {
        schemaPathBatches++;
        result = bufferColumns().convert(handle, columns, numRows);
      }
      readResult(result);
    } catch (RuntimeException | Error e) {
      endBatch();
      throw e;
    } finally {
      if (timed) {
        conversionNanos += System.nanoTime() - start;
      }
    }
    return numRows;
  }

  private boolean bindRegisteredBuffers(ColumnBuffers[] buffers) {
    for (int i = 0; i < numColumns; i++) {
      if (!columns[i].bindBuffers(buffers[i])) {
        return false;
      }
    }
    return true;
  }

  private BufferColumns bufferColumns() {
    if (bufferColumns == null) {
      bufferColumns = new BufferColumns(fields, columns, zeroes);
    }
    return bufferColumns;
  }

  /** True when every column of {@code batch} is an ArrowColumnVector. */
  public static boolean isArrowBacked(ColumnarBatch batch) {
    for (int i = 0; i < batch.numCols(); i++) {
      if (!(batch.column(i) instanceof ArrowColumnVector)) {
        return false;
      }
    }
    return true;
  }

  private void checkColumnCount(int count) {
    if (handle == 0) {
      throw new IllegalStateException("rowbridge: the converter is closed");
    }
    if (count != numColumns) {
      throw new IllegalArgumentException(
          "rowbridge: the batch has "
              + count
              + " columns but the converter's schema has "
              + numColumns);
    }
  }

  private int convertCurrent(int numRows, Object owner) {
    long start = timed ? System.nanoTime() : 0;
    endBatch();
    if (numRows < 0) {
      throw new IllegalArgumentException("rowbridge: negative row count " + numRows);
    }
    boolean sameLayout = true;
    for (int i = 0; i < numColumns; i++) {
      ValueVector vector = current[i];
      if (vector.getValueCount() < numRows) {
        throw new RowbridgeException(
            "rowbridge: "
                + columns[i].label
                + " has "
                + vector.getValueCount()
                + " values but the batch has "
                + numRows
                + " rows");
      }
      if (vector != checkedVectors[i]) {
        // A new vector: its layout is compared node by node (a leaf's field by reference first),
        // without allocating.
        if (columns[i].matchesVector(vector)) {
          checkedVectors[i] = vector;
        } else {
          sameLayout = false;
        }
      }
    }
    batch = owner;
    batchRows = numRows;
    long result;
    try {
      if (options.input() == ConverterOptions.Input.C_DATA) {
        result = convertCData(numRows, sameLayout);
      } else if (sameLayout && bindRegistered()) {
        result = RowbridgeNative.convert(handle, numRows);
      } else {
        result = convertWithBatchSchema(numRows);
      }
      readResult(result);
    } catch (RuntimeException | Error e) {
      endBatch(); // no row or chunk of a failed (or refused) batch is read
      throw e;
    } finally {
      Reference.reachabilityFence(owner);
      if (timed) {
        conversionNanos += System.nanoTime() - start;
      }
    }
    return numRows;
  }

  private boolean bindRegistered() {
    for (int i = 0; i < numColumns; i++) {
      if (!columns[i].bind(current[i], dictionaries)) {
        checkedVectors[i] = null;
        return false;
      }
    }
    return true;
  }

  /**
   * The fallback tree for the current vectors: the one held when it fits them, else a new one (the
   * old one closed first, so that a failure to build leaves none held). Owned by this converter;
   * closed by {@link #close}.
   */
  private FallbackTree fallbackTree() {
    if (fallback != null && fallback.reusableFor(current)) {
      return fallback;
    }
    if (fallback != null) {
      fallback.close();
      fallback = null;
    }
    fallback = new FallbackTree(current, dictionaries, zeroes);
    return fallback;
  }

  private long convertWithBatchSchema(int numRows) {
    schemaPathBatches++;
    FallbackTree tree = fallbackTree();
    tree.bind(current, numRows, dictionaries);
    return RowbridgeNative.convertArray(handle, tree.root, tree.schema);
  }

  private long convertCData(int numRows, boolean sameLayout) {
    if (cData == null) {
      ArrowCData.require("the converter's C Data input");
      cData = new CDataInput();
    }
    long batchSchema = 0;
    if (!sameLayout) {
      schemaPathBatches++;
      batchSchema = fallbackTree().schema;
    }
    long array = cData.export(current, numRows, dictionaries);
    return RowbridgeNative.convertArray(handle, array, batchSchema);
  }

  private void readResult(long result) {
    dataAddress = Platform.getLong(null, result + RowbridgeNative.RESULT_DATA);
    offsetsAddress = Platform.getLong(null, result + RowbridgeNative.RESULT_ROW_OFFSETS);
    chunkRows = (int) Platform.getLong(null, result + RowbridgeNative.RESULT_NUM_ROWS);
    chunkFirstRow = Platform.getLong(null, result + RowbridgeNative.RESULT_FIRST_ROW);
    index = -1;
    rowEnd = 0;
    iterator.advanced = false;
    if (memoryListener != null) {
      long dataSize = Platform.getLong(null, result + RowbridgeNative.RESULT_DATA_SIZE);
      long footprint = dataSize + 8L * (chunkRows + 1);
      if (footprint > reservedBytes) {
        memoryListener.acquire(footprint - reservedBytes);
        reservedBytes = footprint;
      }
    }
  }

  /** Forgets the current batch (its vectors may then be closed or reused). */
  private void endBatch() {
    batch = null;
    batchRows = 0;
    chunkRows = 0;
    chunkFirstRow = 0;
    index = -1;
    if (cData != null) {
      cData.releaseBatch();
    }
  }

  // ---- rows ----

  /**
   * Moves to the next row of the current batch (converting its next chunk when needed); false after
   * the last one.
   */
  public boolean next() {
    if (++index < chunkRows) {
      pointAt(index);
      return true;
    }
    index = chunkRows;
    if (batch == null || chunkFirstRow + chunkRows >= batchRows) {
      endBatch();
      return false;
    }
    Object owner = batch;
    long start = timed ? System.nanoTime() : 0;
    long result;
    try {
      result = RowbridgeNative.nextChunk(handle);
    } finally {
      Reference.reachabilityFence(owner);
      if (timed) {
        conversionNanos += System.nanoTime() - start;
      }
    }
    readResult(result);
    if (chunkRows == 0) {
      endBatch();
      return false;
    }
    index = 0;
    pointAt(0);
    return true;
  }

  /** Points the row at row i of the chunk, the one after the previous (row_offsets[0] is 0). */
  private void pointAt(int i) {
    long start = rowEnd;
    long end = Platform.getLong(null, offsetsAddress + 8L * i + 8);
    rowEnd = end;
    row.pointTo(null, dataAddress + start, (int) (end - start));
  }

  /**
   * The current row: the reused UnsafeRow pointing into native memory (valid until the next next,
   * convert or close), or, in copying mode, a copy of it on the heap.
   */
  public UnsafeRow row() {
    return copyRows ? row.copy() : row;
  }

  /** The index in the batch of the current row. */
  public long rowIndex() {
    return chunkFirstRow + index;
  }

  /**
   * An iterator over the rest of the current batch's rows: the same object for every batch,
   * allocated once; its elements are {@link #row()}.
   */
  public Iterator<InternalRow> rows() {
    return iterator;
  }

  private final class RowIterator implements Iterator<InternalRow> {
    boolean advanced;
    boolean available;

    @Override
    public boolean hasNext() {
      if (!advanced) {
        available = RowbridgeConverter.this.next();
        advanced = true;
      }
      return available;
    }

    @Override
    public InternalRow next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      advanced = false;
      return row();
    }
  }

  // ---- close ----

  private void pointAtClosedRow() {
    row.pointTo(
        closedRow,
        Platform.BYTE_ARRAY_OFFSET,
        UnsafeRow.calculateBitSetWidthInBytes(numColumns) + 8 * numColumns);
  }

  /** Frees the native converter and buffers; the reused row then reads zeros. Idempotent. */
  @Override
  public void close() {
    endBatch();
    pointAtClosedRow();
    if (fallback != null) {
      fallback.close();
      fallback = null;
    }
    if (bufferColumns != null) {
      bufferColumns.close();
      bufferColumns = null;
    }
    if (cData != null) {
      cData.close();
      cData = null;
    }
    for (NodeBinder column : columns) {
      if (column != null) {
        column.close();
      }
    }
    java.util.Arrays.fill(checkedVectors, null);
    java.util.Arrays.fill(current, null);
    if (handle != 0) {
      long closing = handle;
      handle = 0;
      RowbridgeNative.free(closing);
    }
    arena.close();
    if (memoryListener != null && reservedBytes > 0) {
      long released = reservedBytes;
      reservedBytes = 0;
      memoryListener.release(released);
    }
  }

  /** Native bytes reported to the memory listener so far. */
  public long reservedBytes() {
    return reservedBytes;
  }

  // ---- the batch-schema path ----

  /**
   * An ArrowArray tree and ArrowSchema Java allocated for the layout of one batch's vectors, for
   * batches whose layout differs from the converter's schema; reused while the batches' vectors
   * have its layout (compared as the registered one is, allocating nothing: a nested vector's Field
   * is a new object at every call, so comparing Field objects rebuilt the tree for every batch).
   */
  private static final class FallbackTree implements AutoCloseable {
    final BatchTree tree;
    final NodeBinder[] binders;
    final long root;
    final long schema;

    FallbackTree(ValueVector[] current, DictionaryProvider dictionaries, long zeroes) {
      List<Field> batchFields = new ArrayList<>(current.length);
      String[] labels = new String[current.length];
      for (int i = 0; i < current.length; i++) {
        batchFields.add(current[i].getField());
        labels[i] = "column '" + batchFields.get(i).getName() + "'";
      }
      tree = new BatchTree(batchFields, SchemaExporter.valuesFrom(dictionaries), labels, zeroes);
      binders = tree.binders;
      root = tree.root;
      schema = tree.schema;
    }

    boolean reusableFor(ValueVector[] current) {
      for (int i = 0; i < current.length; i++) {
        if (!binders[i].matchesVector(current[i])) {
          return false;
        }
      }
      return true;
    }

    void bind(ValueVector[] current, int numRows, DictionaryProvider dictionaries) {
      Platform.putLong(null, root + CStructs.ARRAY_LENGTH, numRows);
      for (int i = 0; i < current.length; i++) {
        if (!binders[i].bind(current[i], dictionaries)) {
          throw new RowbridgeException(
              "rowbridge: "
                  + binders[i].label
                  + ": the vector does not have the layout of its own field "
                  + current[i].getField());
        }
      }
    }

    @Override
    public void close() {
      tree.close();
    }
  }

  /** The Arrow C Data path, loaded only when used (it needs arrow-c-data). */
  private final class CDataInput implements AutoCloseable {
    private final CDataExport export = new CDataExport();

    long export(ValueVector[] vectors, int numRows, DictionaryProvider dictionaries) {
      return export.export(fields, vectors, numRows, dictionaries);
    }

    void releaseBatch() {
      export.releaseBatch();
    }

    @Override
    public void close() {
      export.close();
    }
  }
}
