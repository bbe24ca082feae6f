package io.rowbridge.spark;

import static io.rowbridge.spark.RandomColumns.*;
import static io.rowbridge.spark.RandomLeaves.*;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * A variant in the form Spark's ArrowUtils writes (values: byte[][] {value, metadata}). Its input
 * children are binary, large_binary or binary_view; Spark reads binary ones. The bytes are random:
 * neither Spark's projection nor rowbridge interprets them.
 */
final class RandomVariantKind extends Kind {
  final ArrowType childType;

  RandomVariantKind(ArrowType childType) {
    this.childType = childType;
  }

  @Override
  String describe() {
    return "variant<" + childType + ">";
  }

  @Override
  Field input(String name, boolean nullable, Dictionaries dictionaries) {
    return field(name, nullable, childType);
  }

  @Override
  Field readable(String name, boolean nullable) {
    return field(name, nullable, ArrowType.Binary.INSTANCE);
  }

  private static Field field(String name, boolean nullable, ArrowType childType) {
    Field value = new Field("value", new FieldType(false, childType, null), null);
    Field metadata =
        new Field(
            "metadata", new FieldType(false, childType, null, Map.of("variant", "true")), null);
    return new Field(
        name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null), List.of(value, metadata));
  }

  @Override
  Object random(Random random) {
    return new byte[][] {
      randomBytes(random, random.nextInt(4) == 0 ? 0 : random.nextInt(40)),
      randomBytes(random, 1 + random.nextInt(20))
    };
  }

  @Override
  void fill(
      FieldVector vector,
      List<Object> rows,
      boolean readable,
      Random random,
      Dictionaries dictionaries) {
    StructVector struct = (StructVector) vector;
    struct.setInitialCapacity(rows.size());
    struct.allocateNew();
    for (int part = 0; part < 2; part++) {
      FieldVector child = (FieldVector) struct.getChildByOrdinal(part);
      for (int i = 0; i < rows.size(); i++) {
        byte[][] row = (byte[][]) rows.get(i);
        // under a null variant, the children hold anything
        NewerKinds.setBytes(
            child, i, row == null ? randomBytes(random, random.nextInt(6)) : row[part]);
      }
      child.setValueCount(rows.size());
    }
    RandomNestedKinds.setValidity(struct, rows);
  }
}
