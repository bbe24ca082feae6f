package rowbridge.golden;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The C Data layouts Spark's ArrowColumnVector cannot read (list_view, dictionary-encoded and
 * run-end encoded nodes), built from the same per-row values as {@link Enc} so that a case can
 * give rowbridge this layout and Spark the plain one.
 */
final class EncodedLayouts {
  private EncodedLayouts() {}

  static boolean same(Object a, Object b) {
    return Objects.deepEquals(a, b);
  }

  /**
   * Dictionary-encoded values: the distinct non-null values in reverse order of first use, then a
   * null entry. Every other null row points at that null entry (a valid index to a null value);
   * the others have a null index whose slot holds a garbage index.
   */
  static Enc.Node dictionary(Col col, List<Object> vals) {
    List<Object> distinct = new ArrayList<>();
    for (Object v : vals) {
      Object p = Enc.payload(v);
      if (!Enc.isNull(v) && distinct.stream().noneMatch(d -> same(d, p))) {
        distinct.add(p);
      }
    }
    Collections.reverse(distinct);
    List<Object> dictionary = new ArrayList<>(distinct);
    dictionary.add(null);
    int width = col.dictionaryIndex().getBitWidth() / 8;
    ByteBuffer indices = ByteBuffer.allocate(vals.size() * width).order(ByteOrder.LITTLE_ENDIAN);
    byte[] validity = new byte[(vals.size() + 7) / 8];
    int nulls = 0;
    int nullRows = 0;
    for (int i = 0; i < vals.size(); i++) {
      Object v = vals.get(i);
      long index;
      boolean indexValid = true;
      if (Enc.isNull(v)) {
        indexValid = nullRows++ % 2 == 1;
        index = indexValid ? dictionary.size() - 1 : 0x5a;
      } else {
        Object p = Enc.payload(v);
        int at = 0;
        while (!same(dictionary.get(at), p)) {
          at++;
        }
        index = at;
      }
      if (indexValid) {
        validity[i >> 3] |= (byte) (1 << (i & 7));
      } else {
        nulls++;
      }
      Enc.putInt(indices, width, index);
    }
    Enc.Node node = new Enc.Node(Col.of(col.dictionaryIndex()).named(col.name()), vals.size(),
        nulls);
    node.buffers.add(validity);
    node.buffers.add(indices.array());
    node.dictionary = Enc.encode(col.plain().named(""), dictionary);
    return node;
  }

  /** Run-end encoded values: equal neighbours (nulls included) share a run. */
  static Enc.Node runEnds(Col col, List<Object> vals) {
    List<Object> runValues = new ArrayList<>();
    List<Object> ends = new ArrayList<>();
    for (int i = 0; i < vals.size(); i++) {
      Object v = Enc.isNull(vals.get(i)) ? null : Enc.payload(vals.get(i));
      if (runValues.isEmpty() || !same(runValues.get(runValues.size() - 1), v)) {
        runValues.add(v);
        ends.add((long) i + 1);
      } else {
        ends.set(ends.size() - 1, (long) i + 1);
      }
    }
    Enc.Node node = new Enc.Node(col, vals.size(), 0); // no validity: nulls are null values
    node.children.add(Enc.encode(col.children().get(0), ends));
    node.children.add(Enc.encode(col.children().get(1), runValues));
    return node;
  }

  /**
   * List views whose ranges are out of order (rows are laid out last row first) and overlap
   * (a list equal to a run of elements already laid out points into it); a null row points at
   * real elements, which must not be read.
   */
  static Enc.Node listView(Col col, List<Object> vals) {
    boolean large = col.type() instanceof ArrowType.LargeListView;
    int width = large ? 8 : 4;
    int n = vals.size();
    List<Object> elements = new ArrayList<>();
    long[] offsets = new long[n];
    long[] sizes = new long[n];
    for (int i = n - 1; i >= 0; i--) {
      Object v = vals.get(i);
      if (Enc.isNull(v)) {
        continue;
      }
      List<?> list = (List<?>) Enc.payload(v);
      int at = find(elements, list);
      if (at < 0) {
        at = elements.size();
        elements.addAll(list);
      }
      offsets[i] = at;
      sizes[i] = list.size();
    }
    for (int i = 0; i < n; i++) {
      if (Enc.isNull(vals.get(i)) && !elements.isEmpty()) {
        offsets[i] = elements.size() / 2;
        sizes[i] = elements.size() - elements.size() / 2;
      }
    }
    ByteBuffer offsetBuffer = ByteBuffer.allocate(n * width).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer sizeBuffer = ByteBuffer.allocate(n * width).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      Enc.putInt(offsetBuffer, width, offsets[i]);
      Enc.putInt(sizeBuffer, width, sizes[i]);
    }
    Enc.Node node = new Enc.Node(col, n, Enc.nullCount(vals));
    node.buffers.add(Enc.validity(vals));
    node.buffers.add(offsetBuffer.array());
    node.buffers.add(sizeBuffer.array());
    node.children.add(Enc.encode(col.children().get(0), elements));
    return node;
  }

  /** The first position where {@code list} occurs as a run of {@code elements}, or -1. */
  static int find(List<Object> elements, List<?> list) {
    if (list.isEmpty()) {
      return elements.size();
    }
    for (int start = 0; start + list.size() <= elements.size(); start++) {
      boolean match = true;
      for (int k = 0; k < list.size() && match; k++) {
        match = same(elements.get(start + k), list.get(k));
      }
      if (match) {
        return start;
      }
    }
    return -1;
  }
}
