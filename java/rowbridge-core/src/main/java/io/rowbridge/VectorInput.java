package io.rowbridge;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The input path of Arrow Java vectors (a VectorSchemaRoot's, a list's, or those a ColumnarBatch's
 * ArrowColumnVectors wrap): each batch's vectors bound into the converter's registered ArrowArray;
 * or, when a column's layout differs from the converter's schema, into a {@link FallbackTree} that
 * passes the batch's own schema; or, with {@link ConverterOptions.Input#C_DATA}, exported by the
 * {@link CDataInput}.
 *
 * <p>The vectors are borrowed: held from {@code take} until the next batch or {@link #close}, never
 * closed. The registered binders are the converter's; the FallbackTree and the CDataInput are this
 * path's, made when first needed and closed by {@link #close}. Owned by one {@link
 * RowbridgeConverter}, which closes it.
 */
final class VectorInput implements AutoCloseable {
  private final List<Field> fields;
  private final NodeBinder[] columns;
  private final ConverterOptions options;
  private final long zeroes;

  /** The vectors of the batch being converted, one per column. */
  private final ValueVector[] current;

  /** The vector object of each column last found to have the registered layout. */
  private final ValueVector[] checkedVectors;

  private FallbackTree fallback;
  private CDataInput cData;
  private long schemaPathBatches;

  /**
   * For the converter's {@code fields}, its registered binders {@code columns} (bound, not owned),
   * its {@code options} (read per batch) and its zero block {@code zeroes}.
   */
  VectorInput(List<Field> fields, NodeBinder[] columns, ConverterOptions options, long zeroes) {
    this.fields = fields;
    this.columns = columns;
    this.options = options;
    this.zeroes = zeroes;
    this.current = new ValueVector[columns.length];
    this.checkedVectors = new ValueVector[columns.length];
  }

  /** Takes {@code root}'s vectors as the next batch's. */
  void take(VectorSchemaRoot root) {
    for (int i = 0; i < current.length; i++) {
      current[i] = root.getVector(i);
    }
  }

  /** Takes {@code vectors}, one per column, as the next batch's. */
  void take(List<? extends ValueVector> vectors) {
    for (int i = 0; i < current.length; i++) {
      current[i] = vectors.get(i);
    }
  }

  /** Takes the vectors {@code batch}'s ArrowColumnVectors wrap (see {@link ColumnarBatchInput}). */
  void take(ColumnarBatch batch) {
    ColumnarBatchInput.unwrap(batch, current);
  }

  /**
   * Checks that every vector taken holds {@code numRows} values (a RowbridgeException naming the
   * column otherwise) and returns whether every one has the registered layout. A new vector's
   * layout is compared node by node (a leaf's field by reference first), without allocating; a
   * vector seen before costs a reference comparison.
   */
  boolean matchesRegistered(int numRows) {
    boolean sameLayout = true;
    for (int i = 0; i < current.length; i++) {
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
        if (columns[i].matchesVector(vector)) {
          checkedVectors[i] = vector;
        } else {
          sameLayout = false;
        }
      }
    }
    return sameLayout;
  }

  /**
   * Converts the first {@code numRows} rows of the vectors taken with the native converter {@code
   * handle}; {@code sameLayout} is {@link #matchesRegistered}'s answer. Returns the address of the
   * native result of the first chunk.
   */
  long convert(long handle, int numRows, boolean sameLayout, DictionaryProvider dictionaries) {
    if (options.input() == ConverterOptions.Input.C_DATA) {
      return convertCData(handle, numRows, sameLayout, dictionaries);
    }
    if (sameLayout && bindRegistered(dictionaries)) {
      return RowbridgeNative.convert(handle, numRows);
    }
    return convertWithBatchSchema(handle, numRows, dictionaries);
  }

  private boolean bindRegistered(DictionaryProvider dictionaries) {
    for (int i = 0; i < current.length; i++) {
      if (!columns[i].bindValue(current[i], dictionaries)) {
        checkedVectors[i] = null;
        return false;
      }
    }
    return true;
  }

  /**
   * The fallback tree for the current vectors: the one held when it fits them, else a new one (the
   * old one closed first, so that a failure to build leaves none held).
   */
  private FallbackTree fallbackTree(DictionaryProvider dictionaries) {
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

  private long convertWithBatchSchema(long handle, int numRows, DictionaryProvider dictionaries) {
    schemaPathBatches++;
    FallbackTree tree = fallbackTree(dictionaries);
    tree.bind(current, numRows, dictionaries);
    return RowbridgeNative.convertArray(handle, tree.root, tree.schema);
  }

  private long convertCData(
      long handle, int numRows, boolean sameLayout, DictionaryProvider dictionaries) {
    if (cData == null) {
      cData = new CDataInput(fields);
    }
    long batchSchema = 0;
    if (!sameLayout) {
      schemaPathBatches++;
      batchSchema = fallbackTree(dictionaries).schema;
    }
    long array = cData.export(current, numRows, dictionaries);
    return RowbridgeNative.convertArray(handle, array, batchSchema);
  }

  /** Releases what the C Data path exported for the current batch, if anything. */
  void releaseBatch() {
    if (cData != null) {
      cData.releaseBatch();
    }
  }

  /** Batches that went through the path passing the batch's own schema. */
  long schemaPathBatches() {
    return schemaPathBatches;
  }

  /** Closes the fallback tree and the C Data path, and forgets every vector. Idempotent. */
  @Override
  public void close() {
    if (fallback != null) {
      fallback.close();
      fallback = null;
    }
    if (cData != null) {
      cData.close();
      cData = null;
    }
    Arrays.fill(checkedVectors, null);
    Arrays.fill(current, null);
  }
}
