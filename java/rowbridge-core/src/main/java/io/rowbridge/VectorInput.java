package io.rowbridge;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Arrow Java vectors as converter input (a VectorSchemaRoot's, a list's, or those a ColumnarBatch's
 * ArrowColumnVectors wrap): what its two kinds share. A batch's vectors are taken, their value
 * counts checked and their layouts compared with the registered batch's; a batch of another layout
 * has a {@link FallbackTree} built for it, which passes the batch's own schema. {@link
 * RegisteredVectors} binds the vectors, {@link CDataInput} exports them; {@link #of} chooses once,
 * from the converter's options.
 *
 * <p>The vectors are borrowed: held from {@code take} until the next batch or {@link #close}, never
 * closed. The registered binders are the converter's; the FallbackTree is this input's, made when
 * first needed and closed by {@link #close}.
 */
abstract class VectorInput implements ConverterInput {
  final List<Field> fields;
  final NodeBinder[] columns;
  private final long zeroes;

  /** The vectors of the batch being converted, one per column. */
  final ValueVector[] current;

  /** The vector object of each column last found to have the registered layout. */
  final ValueVector[] checkedVectors;

  private FallbackTree fallback;
  long schemaPathBatches;

  /**
   * For the converter's {@code fields}, its registered binders {@code columns} (bound, not owned)
   * and its zero block {@code zeroes}.
   */
  VectorInput(List<Field> fields, NodeBinder[] columns, long zeroes) {
    this.fields = fields;
    this.columns = columns;
    this.zeroes = zeroes;
    this.current = new ValueVector[columns.length];
    this.checkedVectors = new ValueVector[columns.length];
  }

  /** The vector input {@link ConverterOptions#input} names, for the converter's fields. */
  static VectorInput of(
      List<Field> fields, NodeBinder[] columns, ConverterOptions options, long zeroes) {
    return options.input() == ConverterOptions.Input.C_DATA
        ? new CDataInput(fields, columns, zeroes)
        : new RegisteredVectors(fields, columns, zeroes);
  }

  /** Takes {@code root}'s vectors as the next batch's. */
  final void take(VectorSchemaRoot root) {
    for (int i = 0; i < current.length; i++) {
      current[i] = root.getVector(i);
    }
  }

  /** Takes {@code vectors}, one per column, as the next batch's. */
  final void take(List<? extends ValueVector> vectors) {
    for (int i = 0; i < current.length; i++) {
      current[i] = vectors.get(i);
    }
  }

  /** Takes the vectors {@code batch}'s ArrowColumnVectors wrap (see {@link ColumnarBatchInput}). */
  final void take(ColumnarBatch batch) {
    ColumnarBatchInput.unwrap(batch, current);
  }

  /**
   * Checks that every vector taken holds {@code numRows} values (a RowbridgeException naming the
   * column otherwise) and returns whether every one has the registered layout. A new vector's
   * layout is compared node by node (a leaf's field by reference first), without allocating; a
   * vector seen before costs a reference comparison.
   */
  final boolean matchesRegistered(int numRows) {
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
   * The fallback tree for the current vectors: the one held when it fits them, else a new one (the
   * old one closed first, so that a failure to build leaves none held). Counts the batch as one of
   * the path passing the batch's own schema.
   */
  final FallbackTree fallbackTree(DictionaryProvider dictionaries) {
    schemaPathBatches++;
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

  @Override
  public void releaseBatch() {}

  @Override
  public final long schemaPathBatches() {
    return schemaPathBatches;
  }

  /** Closes the fallback tree and forgets every vector. Idempotent. */
  @Override
  public void close() {
    if (fallback != null) {
      fallback.close();
      fallback = null;
    }
    Arrays.fill(checkedVectors, null);
    Arrays.fill(current, null);
  }
}
