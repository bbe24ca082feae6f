package io.rowbridge;

import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * An ArrowArray tree and ArrowSchema that Java allocates for batches whose layout is not the
 * converter's: the path that passes the batch's own schema. Built once for a list of fields and
 * reused while the batches keep that layout; its memory belongs to its own {@link NativeArena},
 * freed by {@link #close}.
 */
final class BatchTree implements AutoCloseable {
  final NativeArena arena = new NativeArena();
  final NodeBinder[] binders;
  final long root;
  final long schema;

  /**
   * For {@code fields}, with each dictionary's values field given by {@code dictionaryValues},
   * {@code labels} naming the columns in errors and {@code zeroes} the converter's zero block.
   */
  BatchTree(
      List<Field> fields, UnaryOperator<Field> dictionaryValues, String[] labels, long zeroes) {
    binders = new NodeBinder[fields.size()];
    try {
      long release = RowbridgeNative.releaseArrayNothingAddress();
      schema = SchemaExporter.exportWith(fields, dictionaryValues, arena);
      NodeBinder.Context context = new NodeBinder.Context(arena, release, zeroes, dictionaryValues);
      root = context.root(fields.size());
      for (int i = 0; i < binders.length; i++) {
        binders[i] = NodeBinder.create(context, fields.get(i), context.child(root, i), labels[i]);
      }
    } catch (RuntimeException | Error e) {
      close(); // a tree that failed to build holds nothing
      throw e;
    }
  }

  @Override
  public void close() {
    for (NodeBinder binder : binders) {
      if (binder != null) {
        binder.close();
      }
    }
    arena.close();
  }
}
