package io.rowbridge.comet;

import io.rowbridge.ArrowSchemas;
import io.rowbridge.ColumnBuffers;
import io.rowbridge.ConverterOptions;
import io.rowbridge.RowbridgeConverter;
import io.rowbridge.spark.engine.EngineInput;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Apache Comet's batches as rowbridge's input: {@link #read} describes a batch whose every column
 * is a {@code CometPlainVector} or {@code CometDictionaryVector} of a flat type as {@link
 * ColumnBuffers}, which {@link RowbridgeConverter#convert(ColumnBuffers[], int)} converts. Comet's
 * classes (and its relocated Arrow Java) are reached through method handles resolved once per
 * class, so this class loads with or without Comet; no {@code org.apache.arrow.c} class is used.
 *
 * <p>One instance per converter: its holders are reused for every batch, and the addresses they
 * hold are borrowed from the batch's vectors, which must stay open until the batch's last row has
 * been read. One thread at a time.
 */
public final class CometColumns implements EngineInput.BatchReader {
  private final ColumnBuffers[] columns;
  private final ColumnBuffers[] dictionaries;

  /** Each column's layout of fixed-size binary vectors (own memory, freed by {@link #close}). */
  private final FixedSizeBinaryColumn[] fixedSizeBinaries;

  /** Holders for batches of rows of {@code schema}. */
  public CometColumns(StructType schema) {
    int numColumns = schema.fields().length;
    columns = new ColumnBuffers[numColumns];
    dictionaries = new ColumnBuffers[numColumns];
    fixedSizeBinaries = new FixedSizeBinaryColumn[numColumns];
    for (int i = 0; i < numColumns; i++) {
      columns[i] = new ColumnBuffers();
      dictionaries[i] = new ColumnBuffers();
      fixedSizeBinaries[i] = new FixedSizeBinaryColumn(schema.fields()[i]);
    }
  }

  /** True when {@code column} is one of Comet's vectors (org.apache.comet.vector), by name. */
  public static boolean isComet(Object column) {
    return column.getClass().getName().startsWith("org.apache.comet.vector.");
  }

  /**
   * A converter for rows of {@code schema} from Comet's batches: the Arrow schema Spark's
   * ArrowUtils gives it, timestamps in UTC (Comet's vectors hold UTC microseconds).
   */
  public static RowbridgeConverter converter(StructType schema, ConverterOptions options) {
    return RowbridgeConverter.create(schema, ArrowSchemas.of(schema, "UTC"), options);
  }

  /**
   * Reads {@code batch}'s columns into {@link #columns()}; false when a column is not a Comet plain
   * or dictionary vector of a flat type (fixed-width, boolean, decimal, utf8, binary, fixed-size
   * binary as {@link FixedSizeBinaryColumn} reads it) or a nested vector of such leaves, or the
   * batch has another column count: then the whole batch takes Spark's path.
   */
  @Override
  public boolean read(ColumnarBatch batch) {
    if (batch.numCols() != columns.length) {
      return false;
    }
    for (int i = 0; i < columns.length; i++) {
      Object column = batch.column(i);
      if (!CometVectorAccess.of(column.getClass())
          .read(column, columns[i], dictionaries[i], fixedSizeBinaries[i])) {
        return false;
      }
    }
    return true;
  }

  /** The columns {@link #read} last described (the same array every time). */
  @Override
  public ColumnBuffers[] columns() {
    return columns;
  }

  /** Frees the memory of the fixed-size binary columns' layouts. */
  @Override
  public void close() {
    for (FixedSizeBinaryColumn column : fixedSizeBinaries) {
      column.close();
    }
  }
}
