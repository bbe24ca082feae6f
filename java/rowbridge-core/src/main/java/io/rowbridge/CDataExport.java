package io.rowbridge;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The Arrow C Data path: each batch exported with Arrow Java's own exporter into one ArrowArray
 * struct allocated once, and released when the batch is done. Only this class touches arrow-c-data,
 * so the default path runs without it.
 */
final class CDataExport implements AutoCloseable {
  private final BufferAllocator allocator = new RootAllocator();
  private final ArrowArray array = ArrowArray.allocateNew(allocator);
  private boolean exported;

  /** Exports the vectors as one struct array of numRows rows; returns its address. */
  long export(
      List<Field> fields, ValueVector[] vectors, int numRows, DictionaryProvider dictionaries) {
    releaseBatch();
    List<FieldVector> columns = new ArrayList<>(vectors.length);
    List<Field> batchFields = new ArrayList<>(vectors.length);
    for (ValueVector vector : vectors) {
      columns.add((FieldVector) vector);
      batchFields.add(vector.getField());
    }
    VectorSchemaRoot root = new VectorSchemaRoot(batchFields, columns, numRows);
    // The exporter retains the buffers through this allocator: it must share their root.
    // (A NullVector has no allocator; Arrow Java 12's throws when asked.)
    BufferAllocator exporting = allocator;
    for (FieldVector column : columns) {
      if (!(column instanceof NullVector) && column.getAllocator() != null) {
        exporting = column.getAllocator();
        break;
      }
    }
    Data.exportVectorSchemaRoot(exporting, root, dictionaries, array);
    exported = true;
    return array.memoryAddress();
  }

  /** Releases the exported batch (its buffers' references), keeping the struct for the next. */
  void releaseBatch() {
    if (exported) {
      exported = false;
      array.release();
    }
  }

  @Override
  public void close() {
    releaseBatch();
    array.close();
    allocator.close();
  }
}
