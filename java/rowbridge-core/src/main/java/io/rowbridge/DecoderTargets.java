package io.rowbridge;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.spark.unsafe.Platform;

/**
 * The native decoder's table of DecodeTarget nodes (rowbridge/row_decoder.hpp) over the vectors of
 * one VectorSchemaRoot: the fields in preorder, a map's key and value but not its entries struct,
 * whose validity is the map node's "entries" buffer. Java writes each buffer's address and capacity
 * before a batch, grows the vectors whose buffers the native side found short, and sets the
 * vectors' counts after it. Nothing is allocated on the JVM per batch unless a vector grows. The
 * table's native memory belongs to the arena given at creation.
 */
final class DecoderTargets {
  /** Bytes of one DecodeTarget and the offsets of its slots. */
  static final int SIZE = 128;

  private static final int VALIDITY = 0;
  private static final int VALUES = 16;
  private static final int DATA = 32;
  private static final int ENTRIES = 48;
  private static final int LENGTH = 64;
  private static final int VALIDITY_NEEDED = 88;
  private static final int VALUES_NEEDED = 96;
  private static final int DATA_NEEDED = 104;
  private static final int ENTRIES_NEEDED = 112;

  private enum Kind {
    NULL,
    FIXED,
    VARIABLE,
    LARGE_VARIABLE,
    STRUCT,
    LIST,
    LARGE_LIST,
    MAP
  }

  private final VectorSchemaRoot root;
  private final FieldVector[] vectors;
  private final Kind[] kinds;
  private final long table;

  DecoderTargets(VectorSchemaRoot root, NativeArena arena) {
    this.root = root;
    List<FieldVector> flat = new ArrayList<>();
    for (FieldVector vector : root.getFieldVectors()) {
      flatten(vector, flat);
    }
    this.vectors = flat.toArray(new FieldVector[0]);
    this.kinds = new Kind[vectors.length];
    for (int i = 0; i < vectors.length; i++) {
      kinds[i] = kindOf(vectors[i]);
    }
    this.table = arena.allocate((long) SIZE * Math.max(1, vectors.length));
  }

  int size() {
    return vectors.length;
  }

  long address() {
    return table;
  }

  /** Writes every node's buffer addresses and capacities into the table. */
  void lend() {
    for (int i = 0; i < vectors.length; i++) {
      long node = table + (long) SIZE * i;
      FieldVector vector = vectors[i];
      switch (kinds[i]) {
        case NULL:
          break;
        case STRUCT:
          put(node + VALIDITY, vector.getValidityBuffer());
          break;
        case FIXED:
          put(node + VALIDITY, vector.getValidityBuffer());
          put(node + VALUES, vector.getDataBuffer());
          break;
        case VARIABLE:
        case LARGE_VARIABLE:
          put(node + VALIDITY, vector.getValidityBuffer());
          put(node + VALUES, vector.getOffsetBuffer());
          put(node + DATA, vector.getDataBuffer());
          break;
        case MAP:
          put(node + ENTRIES, ((MapVector) vector).getDataVector().getValidityBuffer());
        // fall through: a map is a list of entries
        case LIST:
        case LARGE_LIST:
          put(node + VALIDITY, vector.getValidityBuffer());
          put(node + VALUES, vector.getOffsetBuffer());
          break;
      }
    }
  }

  /** Grows every vector whose buffers the last call found short. */
  void grow() {
    for (int i = 0; i < vectors.length; i++) {
      long node = table + (long) SIZE * i;
      FieldVector vector = vectors[i];
      long validity = Platform.getLong(null, node + VALIDITY_NEEDED);
      long values = Platform.getLong(null, node + VALUES_NEEDED);
      long data = Platform.getLong(null, node + DATA_NEEDED);
      switch (kinds[i]) {
        case NULL:
          break;
        case FIXED:
          {
            BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
            if (capacity(fixed.getValidityBuffer()) < validity
                || capacity(fixed.getDataBuffer()) < values) {
              int width = fixed.getTypeWidth(); // 0 for bits
              long count = Math.max(8 * validity, width == 0 ? 8 * values : values / width) + 64;
              fixed.allocateNew((int) Math.min(Integer.MAX_VALUE - 64, count + count / 4));
            }
            break;
          }
        case VARIABLE:
          {
            BaseVariableWidthVector variable = (BaseVariableWidthVector) vector;
            while (capacity(variable.getValidityBuffer()) < validity
                || capacity(variable.getOffsetBuffer()) < values) {
              variable.reallocValidityAndOffsetBuffers();
            }
            while (capacity(variable.getDataBuffer()) < data) {
              variable.reallocDataBuffer();
            }
            break;
          }
        case LARGE_VARIABLE:
          {
            BaseLargeVariableWidthVector variable = (BaseLargeVariableWidthVector) vector;
            while (capacity(variable.getValidityBuffer()) < validity
                || capacity(variable.getOffsetBuffer()) < values) {
              variable.reallocValidityAndOffsetBuffers();
            }
            while (capacity(variable.getDataBuffer()) < data) {
              variable.reallocDataBuffer();
            }
            break;
          }
        case STRUCT:
          while (capacity(vector.getValidityBuffer()) < validity) {
            vector.reAlloc();
          }
          break;
        case MAP:
          {
            long entries = Platform.getLong(null, node + ENTRIES_NEEDED);
            StructVector entriesVector =
                ((MapVector) vector).getDataVector() instanceof StructVector
                    ? (StructVector) ((MapVector) vector).getDataVector()
                    : null;
            while (entriesVector != null && capacity(entriesVector.getValidityBuffer()) < entries) {
              entriesVector.reAlloc();
            }
          }
        // fall through: a map is a list of entries
        case LIST:
        case LARGE_LIST:
          while (capacity(vector.getValidityBuffer()) < validity
              || capacity(vector.getOffsetBuffer()) < values) {
            vector.reAlloc();
          }
          break;
      }
    }
  }

  /** Sets every vector's counts from the decoded table: the batch then reads as numRows rows. */
  void publish(int numRows) {
    for (int i = 0; i < vectors.length; i++) {
      int length = (int) Platform.getLong(null, table + (long) SIZE * i + LENGTH);
      switch (kinds[i]) {
        case VARIABLE:
          ((BaseVariableWidthVector) vectors[i]).setLastSet(length - 1);
          break;
        case LARGE_VARIABLE:
          ((BaseLargeVariableWidthVector) vectors[i]).setLastSet(length - 1);
          break;
        case LIST:
        case MAP:
          ((ListVector) vectors[i]).setLastSet(length - 1);
          break;
        case LARGE_LIST:
          ((LargeListVector) vectors[i]).setLastSet(length - 1);
          break;
        default:
          break;
      }
    }
    root.setRowCount(numRows);
  }

  /** Bytes of every buffer the vectors hold. */
  long heldBytes() {
    long total = 0;
    for (int i = 0; i < vectors.length; i++) {
      FieldVector vector = vectors[i];
      switch (kinds[i]) {
        case NULL:
          break;
        case STRUCT:
          total += capacity(vector.getValidityBuffer());
          break;
        case FIXED:
          total += capacity(vector.getValidityBuffer()) + capacity(vector.getDataBuffer());
          break;
        case VARIABLE:
        case LARGE_VARIABLE:
          total +=
              capacity(vector.getValidityBuffer())
                  + capacity(vector.getOffsetBuffer())
                  + capacity(vector.getDataBuffer());
          break;
        case MAP:
          total += capacity(((MapVector) vector).getDataVector().getValidityBuffer());
        // fall through
        case LIST:
        case LARGE_LIST:
          total += capacity(vector.getValidityBuffer()) + capacity(vector.getOffsetBuffer());
          break;
      }
    }
    return total;
  }

  private static void flatten(FieldVector vector, List<FieldVector> out) {
    out.add(vector);
    if (vector instanceof MapVector) {
      FieldVector entries = ((MapVector) vector).getDataVector();
      for (FieldVector child : entries.getChildrenFromFields()) {
        flatten(child, out);
      }
    } else {
      for (FieldVector child : vector.getChildrenFromFields()) {
        flatten(child, out);
      }
    }
  }

  private static Kind kindOf(FieldVector vector) {
    if (vector instanceof NullVector) {
      return Kind.NULL;
    } else if (vector instanceof BaseFixedWidthVector) {
      return Kind.FIXED;
    } else if (vector instanceof BaseVariableWidthVector) {
      return Kind.VARIABLE;
    } else if (vector instanceof BaseLargeVariableWidthVector) {
      return Kind.LARGE_VARIABLE;
    } else if (vector instanceof MapVector) {
      return Kind.MAP;
    } else if (vector instanceof ListVector) {
      return Kind.LIST;
    } else if (vector instanceof LargeListVector) {
      return Kind.LARGE_LIST;
    } else if (vector instanceof StructVector) {
      return Kind.STRUCT;
    }
    throw new RowbridgeException(
        "rowbridge: field '"
            + vector.getName()
            + "': the decoder does "
            + "not fill "
            + vector.getClass().getSimpleName()
            + "s",
        RowbridgeException.ENOTSUP);
  }

  private static void put(long slot, ArrowBuf buffer) {
    Platform.putLong(null, slot, buffer.memoryAddress());
    Platform.putLong(null, slot + 8, buffer.capacity());
  }

  private static long capacity(ArrowBuf buffer) {
    return buffer.capacity();
  }
}
