package io.rowbridge;

import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.unsafe.Platform;

/**
 * Writes the Arrow C Data Interface ArrowSchema of a record batch (a struct of the columns) into
 * native memory owned by a {@link NativeArena}. Its release callback does nothing: the arena frees
 * the memory. Dictionary-encoded fields (Arrow Java's in-memory form: the field has the index type
 * and a DictionaryEncoding) take their value type from the dictionary provider.
 */
final class SchemaExporter {
  private SchemaExporter() {}

  /** Returns the address of the batch's ArrowSchema ("+s" with one child per field). */
  static long export(List<Field> fields, DictionaryProvider dictionaries, NativeArena arena) {
    return exportWith(fields, valuesFrom(dictionaries), arena);
  }

  /**
   * The same, with the field of each dictionary's values given by {@code dictionaryValues} (for
   * columns whose dictionaries are not Arrow Java vectors).
   */
  static long exportWith(
      List<Field> fields, UnaryOperator<Field> dictionaryValues, NativeArena arena) {
    long release = RowbridgeNative.releaseSchemaNothingAddress();
    long root = arena.allocate(CStructs.SCHEMA_SIZE);
    Platform.putLong(null, root + CStructs.SCHEMA_FORMAT, arena.string("+s"));
    Platform.putLong(null, root + CStructs.SCHEMA_NAME, arena.string(""));
    writeChildren(root, fields, dictionaryValues, arena, release);
    Platform.putLong(null, root + CStructs.SCHEMA_RELEASE, release);
    return root;
  }

  /** The values' field of each dictionary-encoded field, looked up in {@code dictionaries}. */
  static UnaryOperator<Field> valuesFrom(DictionaryProvider dictionaries) {
    return field -> dictionaryOf(field, dictionaries).getVector().getField();
  }

  /** The dictionary of a dictionary-encoded field, or a clear error when the provider lacks it. */
  static Dictionary dictionaryOf(Field field, DictionaryProvider dictionaries) {
    DictionaryEncoding encoding = field.getDictionary();
    Dictionary dictionary = dictionaries == null ? null : dictionaries.lookup(encoding.getId());
    if (dictionary == null) {
      throw new RowbridgeException(
          "rowbridge: column '"
              + field.getName()
              + "' is dictionary-encoded (dictionary id "
              + encoding.getId()
              + ") but no dictionary provider holds that id");
    }
    return dictionary;
  }

  private static void write(
      long node,
      Field field,
      UnaryOperator<Field> dictionaryValues,
      NativeArena arena,
      long release) {
    DictionaryEncoding encoding = field.getDictionary();
    ArrowType type = encoding == null ? field.getType() : encoding.getIndexType();
    long flags = field.isNullable() ? CStructs.FLAG_NULLABLE : 0;
    if (encoding != null && encoding.isOrdered()) {
      flags |= CStructs.FLAG_DICTIONARY_ORDERED;
    }
    if (type instanceof ArrowType.Map && ((ArrowType.Map) type).getKeysSorted()) {
      flags |= CStructs.FLAG_MAP_KEYS_SORTED;
    }
    Platform.putLong(null, node + CStructs.SCHEMA_FORMAT, arena.string(ArrowFormats.of(type)));
    Platform.putLong(null, node + CStructs.SCHEMA_NAME, arena.string(field.getName()));
    Platform.putLong(null, node + CStructs.SCHEMA_FLAGS, flags);
    if (field.getMetadata() != null && !field.getMetadata().isEmpty()) {
      Platform.putLong(null, node + CStructs.SCHEMA_METADATA, arena.metadata(field.getMetadata()));
    }
    if (encoding == null) {
      writeChildren(node, field.getChildren(), dictionaryValues, arena, release);
    } else {
      Field values = dictionaryValues.apply(field);
      long dictionary = arena.allocate(CStructs.SCHEMA_SIZE);
      write(dictionary, values, dictionaryValues, arena, release);
      Platform.putLong(null, node + CStructs.SCHEMA_DICTIONARY, dictionary);
    }
    Platform.putLong(null, node + CStructs.SCHEMA_RELEASE, release);
  }

  private static void writeChildren(
      long node,
      List<Field> children,
      UnaryOperator<Field> dictionaryValues,
      NativeArena arena,
      long release) {
    int count = children.size();
    Platform.putLong(null, node + CStructs.SCHEMA_N_CHILDREN, count);
    if (count == 0) {
      return;
    }
    long pointers = arena.allocate(8L * count);
    for (int i = 0; i < count; i++) {
      long child = arena.allocate(CStructs.SCHEMA_SIZE);
      write(child, children.get(i), dictionaryValues, arena, release);
      Platform.putLong(null, pointers + 8L * i, child);
    }
    Platform.putLong(null, node + CStructs.SCHEMA_CHILDREN, pointers);
  }
}
