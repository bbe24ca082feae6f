package io.rowbridge;

import java.lang.ref.Reference;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

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
 *
 * <p>The converter owns the native converter, the binders of its registered batch, its two inputs
 * (each a {@link ConverterInput}: the {@link VectorInput} that {@link ConverterOptions#input} names
 * for Arrow Java vectors, and {@link ColumnBuffersInput} for {@link ColumnBuffers}), its {@link
 * RowCursor} and the count of native bytes reported to the memory listener ({@link
 * RowBufferMemory}); {@link #close} closes them all.
 */
public final class RowbridgeConverter implements AutoCloseable {
  private final StructType sparkSchema;
  private final int numColumns;
  private final boolean timed;
  private long conversionNanos;
  private DictionaryProvider dictionaries;

  private long handle;
  private final NativeArena arena = new NativeArena();
  private final long zeroes;

  /** The registered batch's binders, one per column: owned here, shared by both inputs. */
  private final NodeBinder[] columns;

  private final String nativeSparkSchema;

  private final VectorInput vectors;
  private final ColumnBuffersInput buffers;

  /** The input of the current (or last) batch, whose batch {@link #endBatch} lets go of. */
  private ConverterInput active;

  private final RowCursor cursor;
  private final RowIterator iterator = new RowIterator(this);
  private final RowBufferMemory memory;

  private RowbridgeConverter(StructType sparkSchema, List<Field> fields, ConverterOptions options) {
    this.sparkSchema = sparkSchema;
    List<Field> columnFields = List.copyOf(fields);
    this.numColumns = fields.size();
    this.timed = options.timed();
    this.memory = new RowBufferMemory(options.memoryListener());
    this.dictionaries = options.dictionaries();
    SparkTypes.check(sparkSchema, fields, dictionaries);
    this.cursor = new RowCursor(numColumns, options.copyRows());
    this.columns = new NodeBinder[numColumns];
    this.zeroes = arena.allocate(64);
    this.vectors = VectorInput.of(columnFields, columns, options, zeroes);
    this.buffers = new ColumnBuffersInput(columnFields, columns, zeroes);
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
    return vectors.schemaPathBatches() + buffers.schemaPathBatches();
  }

  // ---- per batch ----

  /** Converts {@code root}'s rows; returns the row count. Read them with next() and row(). */
  public int convert(VectorSchemaRoot root) {
    checkColumnCount(root.getSchema().getFields().size());
    vectors.take(root);
    return convertBatch(vectors, root.getRowCount(), root);
  }

  /** Converts the first {@code numRows} rows of {@code vectors}, one vector per column. */
  public int convert(List<? extends ValueVector> vectors, int numRows) {
    checkColumnCount(vectors.size());
    this.vectors.take(vectors);
    return convertBatch(this.vectors, numRows, vectors);
  }

  /**
   * Converts a Spark batch whose every column is an {@link ArrowColumnVector} (see {@link
   * #isArrowBacked}); any other column is an IllegalArgumentException.
   */
  public int convert(ColumnarBatch columnarBatch) {
    checkColumnCount(columnarBatch.numCols());
    vectors.take(columnarBatch);
    return convertBatch(vectors, columnarBatch.numRows(), columnarBatch);
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
    buffers.take(columns);
    return convertBatch(buffers, numRows, columns);
  }

  /** True when every column of {@code batch} is an ArrowColumnVector. */
  public static boolean isArrowBacked(ColumnarBatch batch) {
    return ColumnarBatchInput.isArrowBacked(batch);
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

  /**
   * Converts the first {@code numRows} rows of the batch {@code input} took from {@code owner},
   * kept reachable meanwhile: the one path of every kind of input, once per batch.
   */
  private int convertBatch(ConverterInput input, int numRows, Object owner) {
    long start = timed ? System.nanoTime() : 0;
    endBatch();
    active = input;
    try {
      if (numRows < 0) {
        throw new IllegalArgumentException("rowbridge: negative row count " + numRows);
      }
      cursor.startBatch(owner, numRows);
      readResult(input.convert(handle, numRows, dictionaries));
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

  /** Takes the chunk of the native result at {@code result}, and accounts for its memory. */
  private void readResult(long result) {
    cursor.readChunk(result);
    iterator.reset();
    memory.cover(result, cursor.chunkRows());
  }

  /** Forgets the current batch (its vectors may then be closed or reused). */
  private void endBatch() {
    cursor.endBatch();
    if (active != null) {
      active.releaseBatch();
    }
  }

  // ---- rows ----

  /**
   * Moves to the next row of the current batch (converting its next chunk when needed); false after
   * the last one.
   */
  public boolean next() {
    return cursor.next() || nextChunk();
  }

  /**
   * Converts the current batch's next chunk and moves to its first row; false when none is left.
   */
  private boolean nextChunk() {
    if (!cursor.hasMoreChunks()) {
      endBatch();
      return false;
    }
    Object owner = cursor.batch();
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
    if (cursor.next()) {
      return true;
    }
    endBatch(); // an empty chunk ends the batch
    return false;
  }

  /**
   * The current row: the reused UnsafeRow pointing into native memory (valid until the next next,
   * convert or close), or, in copying mode, a copy of it on the heap.
   */
  public UnsafeRow row() {
    return cursor.row();
  }

  /** The index in the batch of the current row. */
  public long rowIndex() {
    return cursor.rowIndex();
  }

  /**
   * An iterator over the rest of the current batch's rows: the same object for every batch,
   * allocated once; its elements are {@link #row()}.
   */
  public Iterator<InternalRow> rows() {
    return iterator;
  }

  // ---- close ----

  /** Frees the native converter and buffers; the reused row then reads zeros. Idempotent. */
  @Override
  public void close() {
    endBatch();
    cursor.pointAtClosedRow();
    vectors.close();
    buffers.close();
    for (NodeBinder column : columns) {
      if (column != null) {
        column.close();
      }
    }
    if (handle != 0) {
      long closing = handle;
      handle = 0;
      RowbridgeNative.free(closing);
    }
    arena.close();
    memory.releaseAll();
  }

  /** Native bytes reported to the memory listener so far. */
  public long reservedBytes() {
    return memory.reservedBytes();
  }
}
