package io.rowbridge;

import org.apache.arrow.vector.dictionary.DictionaryProvider;

/**
 * One kind of input of a {@link RowbridgeConverter}: how a batch the input has taken, in its own
 * form and with its own {@code take}, reaches the native converter. {@link RegisteredVectors} binds
 * Arrow Java vectors into the converter's registered ArrowArray, {@link CDataInput} exports them
 * with Arrow Java's C Data exporter ({@link ConverterOptions.Input#C_DATA}), and {@link
 * ColumnBuffersInput} binds {@link ColumnBuffers}. A batch whose layout is not the registered one
 * goes through the input's path that passes the batch's own schema.
 *
 * <p>The converter calls its inputs once per batch and once at each batch's end, never per row. An
 * input is owned by one converter, which closes it; the batches it takes are borrowed, never
 * closed.
 */
interface ConverterInput extends AutoCloseable {
  /**
   * Converts the first {@code numRows} rows of the batch taken with the native converter {@code
   * handle}, after checking that each column holds that many values (a RowbridgeException naming
   * the column otherwise); {@code dictionaries} are the converter's current ones. Returns the
   * address of the native result of the first chunk.
   */
  long convert(long handle, int numRows, DictionaryProvider dictionaries);

  /**
   * Lets go of what the input made for the current batch (an exported ArrowArray's references to
   * the batch's buffers); the batch taken stays taken.
   */
  void releaseBatch();

  /** Batches that went through the path passing the batch's own schema. */
  long schemaPathBatches();

  /** Frees what the input made and forgets the batch taken. Idempotent. */
  @Override
  void close();
}
