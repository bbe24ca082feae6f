package io.rowbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.hash.ArrowBufHasher;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * Arrow extension types on the JVM side (CONTRACTS.md §2): SparkTypes maps an extension, Arrow
 * Java's own type or an unregistered one (its storage with the extension's keys), to its storage's
 * Spark type and keeps the keys in the StructField metadata at every depth; the converter reads an
 * extension vector as its storage, to the same rows byte for byte; ArrowSchemas gives them back to
 * the Arrow fields, except where the Arrow type rows decode to cannot be the extension's storage.
 */
class ExtensionFieldsTest {
  /** An extension type of Arrow Java, as a registered one reads. */
  static final class JavaExtension extends ArrowType.ExtensionType {
    private final ArrowType storage;

    JavaExtension(ArrowType storage) {
      this.storage = storage;
    }

    @Override
    public ArrowType storageType() {
      return storage;
    }

    @Override
    public String extensionName() {
      return "example.java";
    }

    @Override
    public boolean extensionEquals(ArrowType.ExtensionType other) {
      return other instanceof JavaExtension java && java.storage.equals(storage);
    }

    @Override
    public String serialize() {
      return "m1";
    }

    @Override
    public ArrowType deserialize(ArrowType storageType, String serializedData) {
      return new JavaExtension(storageType);
    }

    @Override
    public FieldVector getNewVector(String name, FieldType fieldType, BufferAllocator allocator) {
      return new JavaExtensionVector(name, allocator, new IntVector(name, allocator));
    }
  }

  /** The vector of {@link JavaExtension} over int32. */
  static final class JavaExtensionVector extends ExtensionTypeVector<IntVector> {
    JavaExtensionVector(String name, BufferAllocator allocator, IntVector storage) {
      super(name, allocator, storage);
    }

    @Override
    public Object getObject(int index) {
      return getUnderlyingVector().getObject(index);
    }

    @Override
    public int hashCode(int index) {
      return getUnderlyingVector().hashCode(index);
    }

    @Override
    public int hashCode(int index, ArrowBufHasher hasher) {
      return getUnderlyingVector().hashCode(index, hasher);
    }
  }

  private static Field field(String name, ArrowType type, Map<String, String> metadata) {
    return new Field(name, new FieldType(true, type, null, metadata), List.of());
  }

  private static Map<String, String> keys(String name, String metadata) {
    return Map.of(ExtensionFields.NAME, name, ExtensionFields.METADATA, metadata);
  }

  private static Metadata spark(String name, String metadata) {
    return new MetadataBuilder()
        .putString(ExtensionFields.NAME, name)
        .putString(ExtensionFields.METADATA, metadata)
        .build();
  }

  @Test
  void extensionsMapAsTheirStorageAndKeepTheirKeys() {
    Field java = field("java", new JavaExtension(new ArrowType.Int(8, true)), null);
    Field unknown = field("unknown", ArrowType.Utf8.INSTANCE, keys("example.unknown", "x"));
    Field child = field("c", new JavaExtension(new ArrowType.Int(64, true)), null);
    Field struct =
        new Field(
            "s",
            new FieldType(true, ArrowType.Struct.INSTANCE, null, keys("example.s", "")),
            List.of(child));
    Field plain = field("plain", ArrowType.Bool.INSTANCE, Map.of("other", "kept out"));
    StructType schema = SparkTypes.of(List.of(java, unknown, struct, plain), null);
    assertEquals(
        "struct<java:tinyint,unknown:string,s:struct<c:bigint>,plain:boolean>",
        schema.catalogString());
    StructField[] fields = schema.fields();
    assertEquals(spark("example.java", "m1"), fields[0].metadata());
    assertEquals(spark("example.unknown", "x"), fields[1].metadata());
    assertEquals(spark("example.s", ""), fields[2].metadata());
    assertEquals(
        spark("example.java", "m1"), ((StructType) fields[2].dataType()).fields()[0].metadata());
    assertEquals(Metadata.empty(), fields[3].metadata());
    assertEquals(DataTypes.ByteType, SparkTypes.of(java, null));
    assertEquals("c", ArrowFormats.of(java.getType()));
  }

  /** The rows of {@code column} (one column, values 7, null, -1) as the converter writes them. */
  private static List<String> rowsOf(Field column, BufferAllocator allocator) {
    Schema schema = new Schema(List.of(column));
    List<String> rows = new ArrayList<>();
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        RowbridgeConverter converter =
            RowbridgeConverter.create(schema, ConverterOptions.defaults())) {
      FieldVector vector = root.getVector(0);
      IntVector values =
          vector instanceof JavaExtensionVector extension
              ? extension.getUnderlyingVector()
              : (IntVector) vector;
      values.allocateNew(3);
      values.set(0, 7);
      values.setNull(1);
      values.set(2, -1);
      values.setValueCount(3);
      vector.setValueCount(3);
      root.setRowCount(3);
      assertEquals(3, converter.convert(root));
      while (converter.next()) {
        rows.add(HexFormat.of().formatHex(converter.row().getBytes()));
      }
    }
    return rows;
  }

  @Test
  void vectorsOfAnExtensionConvertAsTheirStorage() {
    try (BufferAllocator allocator = new RootAllocator()) {
      List<String> storage = rowsOf(field("v", new ArrowType.Int(32, true), null), allocator);
      assertEquals(
          List.of(
              "0000000000000000" + "0700000000000000",
              "0100000000000000" + "0000000000000000",
              "0000000000000000" + "ffffffff00000000"),
          storage);
      assertEquals(
          storage,
          rowsOf(field("v", new JavaExtension(new ArrowType.Int(32, true)), null), allocator));
    }
  }

  @Test
  void rowsToArrowGiveTheExtensionsBack() {
    StructType inner =
        new StructType(
            new StructField[] {
              new StructField("a", DataTypes.LongType, true, spark("example.a", "m"))
            });
    StructType schema =
        new StructType(
            new StructField[] {
              new StructField("json", DataTypes.StringType, true, spark("arrow.json", "")),
              new StructField("bool8", DataTypes.ByteType, true, spark("arrow.bool8", "")),
              new StructField("wide", DataTypes.LongType, true, spark("arrow.bool8", "")),
              new StructField("uuid", DataTypes.BinaryType, true, spark("arrow.uuid", "")),
              new StructField("s", inner, true, spark("example.s", "")),
              new StructField("plain", DataTypes.IntegerType, true, Metadata.empty()),
            });
    Schema arrow = ArrowSchemas.of(schema, "UTC");
    List<Field> fields = arrow.getFields();
    assertEquals(keys("arrow.json", ""), fields.get(0).getMetadata());
    assertEquals(keys("arrow.bool8", ""), fields.get(1).getMetadata());
    // Arrow readers refuse arrow.bool8 over int64 and arrow.uuid over binary.
    assertEquals(Map.of(), fields.get(2).getMetadata());
    assertEquals(Map.of(), fields.get(3).getMetadata());
    assertEquals(keys("example.s", ""), fields.get(4).getMetadata());
    assertEquals(keys("example.a", "m"), fields.get(4).getChildren().get(0).getMetadata());
    assertEquals(Map.of(), fields.get(5).getMetadata());
    assertEquals(
        new ArrowType.Int(64, true), fields.get(4).getChildren().get(0).getType(), "storage only");
    // Read back: the same fields, but those whose extension was left out.
    StructType back = SparkTypes.of(fields, null);
    for (int i : new int[] {0, 1, 4, 5}) {
      assertEquals(schema.fields()[i], back.fields()[i]);
    }
    assertEquals(Metadata.empty(), back.fields()[3].metadata());
  }
}
