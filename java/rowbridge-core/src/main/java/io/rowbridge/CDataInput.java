package io.rowbridge;

import java.util.List;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Arrow Java vectors exported with Arrow Java's own exporter ({@link
 * ConverterOptions.Input#C_DATA}, {@link CDataExport}) as one struct array of the converter's
 * fields; a batch whose layout differs from the converter's schema passes its own schema, the
 * {@link FallbackTree}'s. The exporter is made at the first batch, since it needs arrow-c-data; the
 * exported batch holds references to the vectors' buffers until {@link #releaseBatch} (the vectors
 * themselves stay the caller's).
 */
final class CDataInput extends VectorInput {
  private CDataExport export;

  CDataInput(List<Field> fields, NodeBinder[] columns, long zeroes) {
    super(fields, columns, zeroes);
  }

  /**
   * {@inheritDoc} A RowbridgeException (ENOTSUP) when Arrow Java's C Data module is missing or
   * unusable.
   */
  @Override
  public long convert(long handle, int numRows, DictionaryProvider dictionaries) {
    boolean sameLayout = matchesRegistered(numRows);
    if (export == null) {
      ArrowCData.require("the converter's C Data input");
      export = new CDataExport();
    }
    long batchSchema = sameLayout ? 0 : fallbackTree(dictionaries).schema;
    long array = export.export(fields, current, numRows, dictionaries);
    return RowbridgeNative.convertArray(handle, array, batchSchema);
  }

  /** Releases the exported batch's references to its buffers, keeping the struct for the next. */
  @Override
  public void releaseBatch() {
    if (export != null) {
      export.releaseBatch();
    }
  }

  @Override
  public void close() {
    super.close();
    if (export != null) {
      export.close();
      export = null;
    }
  }
}
