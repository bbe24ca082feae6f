package rowbridge.golden;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Encodes per-row Java values into Arrow buffers, laid out exactly as the Arrow C Data
 * Interface defines them for {@code length} elements (validity bitmap first, then offsets and
 * values). The same bytes are loaded into Arrow Java vectors (so what Spark reads is exactly
 * what the JSON lists) and printed as hex.
 */
public final class Enc {
  private Enc() {}

  /** One encoded array (C Data Interface ArrowArray equivalent; offset is always 0). */
  public static final class Node {
    final Col col;
    final int length;
    final int nullCount;
    final List<byte[]> buffers = new ArrayList<>();
    final List<Node> children = new ArrayList<>();
    Node dictionary; // the values of a dictionary-encoded node (which holds the indices)

    Node(Col col, int length, int nullCount) {
      this.col = col;
      this.length = length;
      this.nullCount = nullCount;
    }
  }

  static boolean isNull(Object v) {
    return v == null || v instanceof Vals.NullWith;
  }

  static Object payload(Object v) {
    return v instanceof Vals.NullWith nw ? nw.v() : v;
  }

  static byte[] validity(List<Object> vals) {
    int n = vals.size();
    byte[] b = new byte[(n + 7) / 8];
    for (int i = 0; i < n; i++) {
      if (!isNull(vals.get(i))) {
        b[i >> 3] |= (byte) (1 << (i & 7));
      }
    }
    return b;
  }

  static int nullCount(List<Object> vals) {
    int k = 0;
    for (Object v : vals) {
      if (isNull(v)) {
        k++;
      }
    }
    return k;
  }

  public static Node encode(Col col, List<Object> vals) {
    int n = vals.size();
    ArrowType t = col.type();
    if (col.dictionaryIndex() != null) {
      return EncodedLayouts.dictionary(col, vals);
    }
    if (t instanceof ArrowType.RunEndEncoded) {
      return EncodedLayouts.runEnds(col, vals);
    }
    if (t instanceof ArrowType.ListView || t instanceof ArrowType.LargeListView) {
      return EncodedLayouts.listView(col, vals);
    }
    if (t instanceof ArrowType.Null) {
      return new Node(col, n, n); // the null type has no buffers at all
    }
    Node node = new Node(col, n, nullCount(vals));
    node.buffers.add(validity(vals));
    switch (t.getTypeID()) {
      case Bool -> {
        byte[] b = new byte[(n + 7) / 8];
        for (int i = 0; i < n; i++) {
          Object p = payload(vals.get(i));
          if (p != null && (Boolean) p) {
            b[i >> 3] |= (byte) (1 << (i & 7));
          }
        }
        node.buffers.add(b);
      }
      case Int -> {
        int w = ((ArrowType.Int) t).getBitWidth() / 8;
        node.buffers.add(fixed(vals, w, (bb, p) -> putInt(bb, w, ((Number) p).longValue())));
      }
      case FloatingPoint -> {
        if (((ArrowType.FloatingPoint) t).getPrecision() == FloatingPointPrecision.SINGLE) {
          node.buffers.add(fixed(vals, 4, (bb, p) -> bb.putInt(((Vals.F32) p).bits())));
        } else {
          node.buffers.add(fixed(vals, 8, (bb, p) -> bb.putLong(((Vals.F64) p).bits())));
        }
      }
      case Decimal -> {
        int w = ((ArrowType.Decimal) t).getBitWidth() / 8;
        node.buffers.add(fixed(vals, w, (bb, p) -> bb.put(twosLe((BigInteger) p, w))));
      }
      case Date, Time, Timestamp, Duration -> {
        int w = 8;
        if (t instanceof ArrowType.Date d) {
          w = d.getUnit() == org.apache.arrow.vector.types.DateUnit.DAY ? 4 : 8;
        } else if (t instanceof ArrowType.Time tt) {
          w = tt.getBitWidth() / 8;
        }
        final int ww = w;
        node.buffers.add(fixed(vals, ww, (bb, p) -> putInt(bb, ww, ((Number) p).longValue())));
      }
      case Interval -> {
        IntervalUnit u = ((ArrowType.Interval) t).getUnit();
        if (u == IntervalUnit.YEAR_MONTH) {
          node.buffers.add(fixed(vals, 4, (bb, p) -> bb.putInt(((Number) p).intValue())));
        } else if (u == IntervalUnit.MONTH_DAY_NANO) {
          node.buffers.add(fixed(vals, 16, (bb, p) -> {
            Vals.Mdn m = (Vals.Mdn) p;
            bb.putInt(m.months()).putInt(m.days()).putLong(m.nanos());
          }));
        } else {
          throw new IllegalArgumentException("unsupported interval " + u);
        }
      }
      case Utf8, Binary, LargeUtf8, LargeBinary -> {
        boolean large = t instanceof ArrowType.LargeUtf8 || t instanceof ArrowType.LargeBinary;
        int ow = large ? 8 : 4;
        ByteBuffer off = ByteBuffer.allocate((n + 1) * ow).order(ByteOrder.LITTLE_ENDIAN);
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        putInt(off, ow, 0);
        for (Object v : vals) {
          Object p = payload(v);
          if (p != null) {
            byte[] b = p instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : (byte[]) p;
            data.writeBytes(b);
          }
          putInt(off, ow, data.size());
        }
        node.buffers.add(off.array());
        node.buffers.add(data.toByteArray());
      }
      case Struct -> {
        for (int c = 0; c < col.children().size(); c++) {
          List<Object> kid = new ArrayList<>(n);
          for (Object v : vals) {
            Object p = payload(v);
            kid.add(p == null ? null : ((Object[]) p)[c]);
          }
          node.children.add(encode(col.children().get(c), kid));
        }
      }
      case FixedSizeBinary -> {
        int w = ((ArrowType.FixedSizeBinary) t).getByteWidth();
        node.buffers.add(fixed(vals, w, (bb, p) -> {
          if (((byte[]) p).length != w) {
            throw new IllegalArgumentException("fixed_size_binary value of wrong width");
          }
          bb.put((byte[]) p);
        }));
      }
      case FixedSizeList -> {
        int size = ((ArrowType.FixedSizeList) t).getListSize();
        List<Object> kid = new ArrayList<>();
        for (Object v : vals) {
          Object p = payload(v);
          List<?> l = p == null ? java.util.Collections.nCopies(size, null) : (List<?>) p;
          if (l.size() != size) {
            throw new IllegalArgumentException("fixed_size_list value of wrong size");
          }
          kid.addAll(l);
        }
        node.children.add(encode(col.children().get(0), kid));
      }
      case List, Map, LargeList -> {
        boolean isMap = t instanceof ArrowType.Map;
        int ow = t instanceof ArrowType.LargeList ? 8 : 4;
        ByteBuffer off = ByteBuffer.allocate((n + 1) * ow).order(ByteOrder.LITTLE_ENDIAN);
        List<Object> kid = new ArrayList<>();
        putInt(off, ow, 0);
        for (Object v : vals) {
          Object p = payload(v);
          if (p != null) {
            if (isMap) {
              kid.addAll(((Vals.MapVal) p).entries());
            } else {
              kid.addAll((List<?>) p);
            }
          }
          putInt(off, ow, kid.size());
        }
        node.buffers.add(off.array());
        node.children.add(encode(col.children().get(0), kid));
      }
      default -> throw new IllegalArgumentException("unsupported type " + t);
    }
    return node;
  }

  interface Put {
    void put(ByteBuffer bb, Object payload);
  }

  static byte[] fixed(List<Object> vals, int width, Put put) {
    ByteBuffer bb = ByteBuffer.allocate(vals.size() * width).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < vals.size(); i++) {
      Object p = payload(vals.get(i));
      bb.position(i * width);
      if (p != null) {
        put.put(bb, p);
      }
    }
    return bb.array();
  }

  static void putInt(ByteBuffer bb, int width, long v) {
    switch (width) {
      case 1 -> bb.put((byte) v);
      case 2 -> bb.putShort((short) v);
      case 4 -> bb.putInt((int) v);
      case 8 -> bb.putLong(v);
      default -> throw new IllegalArgumentException("width " + width);
    }
  }

  /** Little-endian two's complement of {@code v} in {@code width} bytes. */
  static byte[] twosLe(BigInteger v, int width) {
    byte[] be = v.toByteArray();
    if (be.length > width) {
      throw new IllegalArgumentException("decimal does not fit " + width + " bytes: " + v);
    }
    byte[] le = new byte[width];
    byte fill = (byte) (v.signum() < 0 ? 0xff : 0);
    java.util.Arrays.fill(le, fill);
    for (int i = 0; i < be.length; i++) {
      le[i] = be[be.length - 1 - i];
    }
    return le;
  }

  // ---- to an ArrowRecordBatch (IPC buffer order == C Data buffer order for these types) ----

  public static ArrowRecordBatch toRecordBatch(BufferAllocator alloc, int length, List<Node> cols) {
    List<ArrowFieldNode> nodes = new ArrayList<>();
    List<ArrowBuf> bufs = new ArrayList<>();
    for (Node c : cols) {
      flatten(alloc, c, nodes, bufs);
    }
    ArrowRecordBatch rb = new ArrowRecordBatch(length, nodes, bufs);
    for (ArrowBuf b : bufs) {
      b.close(); // the record batch holds its own reference
    }
    return rb;
  }

  static void flatten(BufferAllocator alloc, Node n, List<ArrowFieldNode> nodes,
      List<ArrowBuf> bufs) {
    nodes.add(new ArrowFieldNode(n.length, n.nullCount));
    for (byte[] b : n.buffers) {
      ArrowBuf ab = alloc.buffer(Math.max(b.length, 1));
      ab.setZero(0, ab.capacity());
      ab.setBytes(0, b);
      bufs.add(ab.slice(0, b.length));
      ab.getReferenceManager().retain();
      ab.close();
    }
    for (Node k : n.children) {
      flatten(alloc, k, nodes, bufs);
    }
  }

  // ---- Arrow C Data Interface format strings ----

  public static String format(ArrowType t) {
    return switch (t.getTypeID()) {
      case Null -> "n";
      case Bool -> "b";
      case Int -> {
        ArrowType.Int i = (ArrowType.Int) t;
        String s = switch (i.getBitWidth()) {
          case 8 -> "c";
          case 16 -> "s";
          case 32 -> "i";
          default -> "l";
        };
        yield i.getIsSigned() ? s : s.toUpperCase();
      }
      case FloatingPoint -> switch (((ArrowType.FloatingPoint) t).getPrecision()) {
        case HALF -> "e";
        case SINGLE -> "f";
        case DOUBLE -> "g";
      };
      case Decimal -> {
        ArrowType.Decimal d = (ArrowType.Decimal) t;
        String s = "d:" + d.getPrecision() + "," + d.getScale();
        yield d.getBitWidth() == 128 ? s : s + "," + d.getBitWidth();
      }
      case Utf8 -> "u";
      case LargeUtf8 -> "U";
      case Binary -> "z";
      case LargeBinary -> "Z";
      case FixedSizeBinary -> "w:" + ((ArrowType.FixedSizeBinary) t).getByteWidth();
      case Date -> ((ArrowType.Date) t).getUnit() == org.apache.arrow.vector.types.DateUnit.DAY
          ? "tdD" : "tdm";
      case Time -> "tt" + unit(((ArrowType.Time) t).getUnit());
      case Timestamp -> {
        ArrowType.Timestamp ts = (ArrowType.Timestamp) t;
        yield "ts" + unit(ts.getUnit()) + ":" + (ts.getTimezone() == null ? "" : ts.getTimezone());
      }
      case Duration -> "tD" + unit(((ArrowType.Duration) t).getUnit());
      case Interval -> switch (((ArrowType.Interval) t).getUnit()) {
        case YEAR_MONTH -> "tiM";
        case DAY_TIME -> "tiD";
        case MONTH_DAY_NANO -> "tin";
      };
      case Struct -> "+s";
      case List -> "+l";
      case LargeList -> "+L";
      case FixedSizeList -> "+w:" + ((ArrowType.FixedSizeList) t).getListSize();
      case Map -> "+m";
      case ListView -> "+vl";
      case LargeListView -> "+vL";
      case RunEndEncoded -> "+r";
      default -> throw new IllegalArgumentException("no format for " + t);
    };
  }

  static String unit(TimeUnit u) {
    return switch (u) {
      case SECOND -> "s";
      case MILLISECOND -> "m";
      case MICROSECOND -> "u";
      case NANOSECOND -> "n";
    };
  }
}
