package io.rowbridge.spark;

import static io.rowbridge.spark.RandomEncodings.*;
import static io.rowbridge.spark.RandomLeaves.*;
import static io.rowbridge.spark.RandomNestedKinds.*;

import io.rowbridge.NewerLayouts;
import io.rowbridge.shim.SparkTypeShim;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The column types of the differential suite. Each kind gives the Arrow type rowbridge reads (the
 * input), the Arrow type Spark's ArrowColumnVector can read (the same when Spark reads the input),
 * random values (including extremes, empties and nulls), and writes a list of values into either
 * vector with Arrow Java. The Spark-readable vector is built from the same values by the
 * CONTRACTS.md §2 conversion (uint widened, date64 to days, units to microseconds with floor
 * division, dictionaries and run-end encodings decoded, large, view and fixed-size layouts to the
 * plain ones): normalised with Arrow Java, never with rowbridge.
 */
final class RandomColumns {
  private RandomColumns() {}

  /** One column type. Values: null, or a kind-specific object (see each kind). */
  abstract static class Kind {
    /** The input field (what rowbridge reads). */
    abstract Field input(String name, boolean nullable, Dictionaries dictionaries);

    /** The field Spark reads. */
    abstract Field readable(String name, boolean nullable);

    /** A random non-null value. */
    abstract Object random(Random random);

    /** Fills {@code vector} (created from input() or readable()) with values; sets the count. */
    abstract void fill(
        FieldVector vector,
        List<Object> values,
        boolean readable,
        Random random,
        Dictionaries dictionaries);

    abstract String describe();

    /** True when the Spark side can read the input vector itself. */
    boolean sparkReadsInput() {
      return false;
    }

    boolean hasCalendarInterval() {
      return false;
    }

    /** The null type cannot be a map key or hold a non-null value. */
    boolean isNullType() {
      return false;
    }
  }

  /** Dictionaries of the current batch, by id. */
  static final class Dictionaries {
    final BufferAllocator allocator;
    final DictionaryProvider.MapDictionaryProvider provider =
        new DictionaryProvider.MapDictionaryProvider();
    final Map<Long, Kind> kinds = new HashMap<>();
    long nextId;

    Dictionaries(BufferAllocator allocator) {
      this.allocator = allocator;
    }

    void close() {
      for (long id : provider.getDictionaryIds()) {
        provider.lookup(id).getVector().close();
      }
    }
  }

  /** A value of {@code kind} for a field of this nullability: null with probability 1/8. */
  static Object value(Kind kind, boolean nullable, Random random) {
    if (kind.isNullType() || (nullable && random.nextInt(8) == 0)) {
      return nullable || kind.isNullType() ? null : kind.random(random);
    }
    return kind.random(random);
  }

  /** A random kind: a leaf, or (depth permitting) a struct, list or map of kinds. */
  static Kind randomKind(Random random, int depth, boolean nested, boolean encodings) {
    List<Leaf> leaves = leaves(random);
    int pick = random.nextInt(100);
    if (nested && depth > 0 && pick < 30) {
      int which = random.nextInt(3);
      if (which == 0) {
        int count = 1 + random.nextInt(4);
        List<Kind> children = new ArrayList<>();
        boolean[] nullable = new boolean[count];
        for (int i = 0; i < count; i++) {
          children.add(randomKind(random, depth - 1, true, false));
          nullable[i] = children.get(i).isNullType() || random.nextInt(4) != 0;
        }
        return new StructKind(children, nullable);
      }
      if (which == 1) {
        Kind element = randomKind(random, depth - 1, true, false);
        // LIST_VIEW, the last, only where Arrow Java has list views (not Arrow Java 12)
        int layouts = ListLayout.values().length - (NewerLayouts.available() ? 0 : 1);
        ListLayout layout = ListLayout.values()[random.nextInt(layouts)];
        return new ListKind(
            element, element.isNullType() || random.nextInt(4) != 0, layout, 1 + random.nextInt(4));
      }
      Leaf key;
      do {
        key = leaves.get(random.nextInt(leaves.size()));
      } while (key.isNullType());
      Kind value = randomKind(random, depth - 1, true, false);
      return new MapKind(key, value, value.isNullType() || random.nextInt(4) != 0);
    }
    if (SparkTypeShim.hasVariant() && pick >= 30 && pick < 33) {
      ArrowType[] children = NewerKinds.variantChildTypes();
      return new RandomVariantKind(children[random.nextInt(children.length)]);
    }
    Leaf leaf = leaves.get(random.nextInt(leaves.size()));
    if (encodings && !leaf.isNullType() && pick >= 88) {
      if (pick < 94 || !NewerLayouts.available()) {
        int[] bits = {8, 16, 32, 64};
        int b = bits[random.nextInt(bits.length)];
        return new DictionaryKind(new ArrowType.Int(b, b == 8 ? random.nextBoolean() : true), leaf);
      }
      return new RunEndKind(new int[] {16, 32, 64}[random.nextInt(3)], leaf);
    }
    return leaf;
  }
}
