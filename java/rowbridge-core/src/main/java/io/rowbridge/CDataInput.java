package io.rowbridge;

import java.util.List;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The Arrow C Data input path ({@link ConverterOptions.Input#C_DATA}): each batch's vectors
 * exported with Arrow Java's own exporter ({@link CDataExport}) as one struct array of the
 * converter's fields. Made only when used, since it needs arrow-c-data. Owned by the {@link
 * VectorInput} that made it, which closes it; the exported batch holds references to the vectors'
 * buffers until {@link #releaseBatch} (the vectors themselves stay the caller's).
 */
final class CDataInput implements AutoCloseable {
  private final List<Field> fields;
  private final CDataExport export;

  /**
   * For batches of {@code fields}; a RowbridgeException (ENOTSUP) when Arrow Java's C Data module
   * is missing or unusable.
   */
  CDataInput(List<Field> fields) {
    ArrowCData.require("the converter's C Data input");
    this.fields = fields;
    this.export = new CDataExport();
  }

  /**
   * Exports the first {@code numRows} rows of {@code vectors}; returns the ArrowArray's address.
   */
  long export(ValueVector[] vectors, int numRows, DictionaryProvider dictionaries) {
    return export.export(fields, vectors, numRows, dictionaries);
  }

  /** Releases the exported batch's references to its buffers, keeping the struct for the next. */
  void releaseBatch() {
    export.releaseBatch();
  }

  @Override
  public void close() {
    export.close();
  }
}
