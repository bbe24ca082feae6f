package io.rowbridge.spark;

import io.rowbridge.NewerLayouts;
import java.util.List;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * What the C Data module of the Arrow Java on the class path does with run-end encoding, found by
 * trying it once: Arrow Java 18.1.0 (Spark 4.0) neither imports nor exports a run-end encoded
 * schema and exports such a vector's array with a length of 0; 18.3.0 does all three; 12.0.1 has no
 * run-end encoding.
 */
public final class ArrowJavaCData {
  private ArrowJavaCData() {}

  private static final boolean[] PROBED = probe();

  /** Whether Data.importField takes a run-end encoded field. */
  public static boolean importsRunEnds() {
    return PROBED[0];
  }

  /** Whether Data.exportVector gives a run-end encoded vector its length. */
  public static boolean exportsRunEndLength() {
    return PROBED[1];
  }

  private static boolean[] probe() {
    if (!NewerLayouts.available()) {
      return new boolean[] {false, false};
    }
    Field field =
        new Field(
            "r",
            FieldType.nullable(NewerLayouts.runEndEncoded()),
            List.of(
                new Field("run_ends", FieldType.notNullable(new ArrowType.Int(32, true)), null),
                Field.nullable("values", new ArrowType.Int(32, true))));
    boolean imports;
    boolean length;
    try (BufferAllocator allocator = new RootAllocator();
        FieldVector vector = field.createVector(allocator)) {
      IntVector ends = (IntVector) vector.getChildrenFromFields().get(0);
      IntVector values = (IntVector) vector.getChildrenFromFields().get(1);
      ends.setSafe(0, 3);
      ends.setValueCount(1);
      values.setSafe(0, 7);
      values.setValueCount(1);
      vector.setValueCount(3);
      try (ArrowSchema schema = ArrowSchema.allocateNew(allocator)) {
        Data.exportField(allocator, field, null, schema);
        Data.importField(allocator, schema, null);
        imports = true;
      } catch (UnsupportedOperationException refused) {
        imports = false; // 18.1.0 neither exports nor imports the schema
      }
      try (ArrowArray array = ArrowArray.allocateNew(allocator);
          ArrowSchema schema = ArrowSchema.allocateNew(allocator)) {
        Data.exportVector(allocator, vector, null, array, schema);
        length = array.snapshot().length == 3;
        array.release();
        schema.release();
      } catch (UnsupportedOperationException refused) {
        length = false;
      }
    }
    return new boolean[] {imports, length};
  }
}
