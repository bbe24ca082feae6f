package io.rowbridge;

import java.util.function.LongConsumer;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Imports a natively decoded batch into a new VectorSchemaRoot through Arrow Java's C Data
 * importer. Only this class (and CDataExport) touches arrow-c-data.
 */
final class CDataImport {
  private CDataImport() {}

  /**
   * Calls {@code fill} with the address of an empty ArrowArray, which it fills with a struct array
   * of {@code schema}, and moves that array into a new root allocated from {@code into}; the caller
   * owns and closes the root.
   */
  static VectorSchemaRoot decode(BufferAllocator into, Schema schema, LongConsumer fill) {
    ArrowCData.require("the decoder");
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, into);
    try (ArrowArray array = ArrowArray.allocateNew(into)) {
      fill.accept(array.memoryAddress());
      try {
        Data.importIntoVectorSchemaRoot(into, array, root, null);
      } catch (RuntimeException | Error e) {
        array.release(); // no-op when the importer took it
        throw e;
      }
      return root;
    } catch (RuntimeException | Error e) {
      root.close();
      throw e;
    }
  }
}
