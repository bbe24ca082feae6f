package io.rowbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * RowbridgeDecoder on hand-made rows: values of each kind read back from the reused root, the root
 * growing and being reused across batches of different sizes, the batch caps, rows that are not
 * UnsafeRows, the new-root path, memory accounting and damaged rows.
 */
class RowbridgeDecoderTest {
  static final StructType SCHEMA =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add("flag", DataTypes.BooleanType)
          .add("name", DataTypes.StringType)
          .add("price", DataTypes.createDecimalType(20, 2))
          .add("at", DataTypes.TimestampType)
          .add("tags", DataTypes.createArrayType(DataTypes.IntegerType))
          .add("attrs", DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType))
          .add(
              "point",
              new StructType().add("x", DataTypes.DoubleType).add("label", DataTypes.StringType));

  private BufferAllocator allocator;

  @BeforeEach
  void open() {
    allocator = new RootAllocator();
  }

  @AfterEach
  void close() {
    assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory leaked");
    allocator.close();
  }

  static InternalRow row(int i) {
    Object[] values = new Object[8];
    values[0] = (long) i * 1000;
    values[1] = i % 3 == 0 ? null : (i % 2 == 0);
    values[2] = i % 5 == 0 ? null : UTF8String.fromString("name-" + i + "-é".repeat(i % 4));
    values[3] = Decimal.apply(new BigDecimal(i + ".25"), 20, 2);
    values[4] = (long) i * 1_000_000L;
    values[5] = i % 7 == 0 ? null : new GenericArrayData(new Object[] {i, null, -i});
    values[6] =
        new ArrayBasedMapData(
            new GenericArrayData(new Object[] {UTF8String.fromString("k" + i)}),
            new GenericArrayData(new Object[] {i % 2 == 0 ? null : (Object) (long) i}));
    values[7] =
        i % 4 == 0
            ? null
            : new GenericInternalRow(new Object[] {i * 0.5, UTF8String.fromString("p" + i)});
    return new GenericInternalRow(values);
  }

  private static final UnsafeProjection PROJECTION = UnsafeProjection.create(SCHEMA);

  static UnsafeRow unsafe(int i) {
    return PROJECTION.apply(row(i)).copy();
  }

  static void checkRow(VectorSchemaRoot root, int r, int i) {
    assertEquals((long) i * 1000, ((BigIntVector) root.getVector("id")).get(r));
    BitVector flag = (BitVector) root.getVector("flag");
    if (i % 3 == 0) {
      assertTrue(flag.isNull(r));
    } else {
      assertEquals(i % 2 == 0 ? 1 : 0, flag.get(r));
    }
    VarCharVector name = (VarCharVector) root.getVector("name");
    if (i % 5 == 0) {
      assertTrue(name.isNull(r));
    } else {
      assertEquals(
          "name-" + i + "-é".repeat(i % 4), new String(name.get(r), StandardCharsets.UTF_8));
    }
    assertEquals(new BigDecimal(i + ".25"), ((DecimalVector) root.getVector("price")).getObject(r));
    assertEquals((long) i * 1_000_000L, ((TimeStampMicroTZVector) root.getVector("at")).get(r));
    ListVector tags = (ListVector) root.getVector("tags");
    if (i % 7 == 0) {
      assertTrue(tags.isNull(r));
    } else {
      assertEquals(List.of(i, -i), nonNull(tags.getObject(r)));
      assertNull(tags.getObject(r).get(1));
    }
    MapVector attrs = (MapVector) root.getVector("attrs");
    assertEquals(1, attrs.getObject(r).size());
    StructVector point = (StructVector) root.getVector("point");
    if (i % 4 == 0) {
      assertTrue(point.isNull(r));
    } else {
      assertEquals(i * 0.5, point.getChild("x").getObject(r));
      assertEquals("p" + i, point.getChild("label").getObject(r).toString());
    }
  }

  private static List<Object> nonNull(List<?> values) {
    List<Object> out = new ArrayList<>();
    for (Object value : values) {
      if (value != null) {
        out.add(value);
      }
    }
    return out;
  }

  @Test
  void decodesEveryKindIntoOneReusedRoot() {
    try (RowbridgeDecoder decoder =
        RowbridgeDecoder.create(
            SCHEMA, "America/Los_Angeles", allocator, DecoderOptions.defaults())) {
      assertEquals(
          new ArrowType.Timestamp(
              org.apache.arrow.vector.types.TimeUnit.MICROSECOND, "America/Los_Angeles"),
          decoder.arrowSchema().findField("at").getType());
      VectorSchemaRoot root = decoder.root();
      // Batches of growing and shrinking sizes: the root grows, then is reused.
      int base = 0;
      for (int size : new int[] {3, 1, 2000, 10, 0, 5000, 7}) {
        for (int r = 0; r < size; r++) {
          assertTrue(decoder.add(unsafe(base + r)));
        }
        assertSame(root, decoder.decode());
        assertEquals(size, root.getRowCount());
        assertEquals(0, decoder.stagedRows());
        for (int r = 0; r < size; r++) {
          checkRow(root, r, base + r);
        }
        base += size;
      }
    }
  }

  @Test
  void rowsThatAreNotUnsafeRowsAreProjected() {
    try (RowbridgeDecoder decoder =
        RowbridgeDecoder.create(SCHEMA, "UTC", allocator, DecoderOptions.defaults())) {
      for (int r = 0; r < 50; r++) {
        assertTrue(decoder.add(row(r)));
      }
      VectorSchemaRoot root = decoder.decode();
      for (int r = 0; r < 50; r++) {
        checkRow(root, r, r);
      }
    }
  }

  @Test
  void decodeNextHonoursTheRowAndByteCaps() {
    List<InternalRow> rows = new ArrayList<>();
    for (int r = 0; r < 1000; r++) {
      rows.add(unsafe(r));
    }
    long rowBytes = ((UnsafeRow) rows.get(999)).getSizeInBytes();
    for (DecoderOptions options :
        new DecoderOptions[] {
          DecoderOptions.defaults().maxRows(64),
          DecoderOptions.defaults().maxBytes(rowBytes * 10),
          DecoderOptions.defaults().maxBytes(1)
        }) { // one row per batch
      try (RowbridgeDecoder decoder = RowbridgeDecoder.create(SCHEMA, "UTC", allocator, options)) {
        Iterator<InternalRow> it = rows.iterator();
        int seen = 0;
        while (true) {
          VectorSchemaRoot root = decoder.decodeNext(it);
          if (root.getRowCount() == 0) {
            break;
          }
          assertTrue(root.getRowCount() <= options.maxRows());
          assertTrue(
              root.getRowCount() == 1
                  || root.getRowCount() * rowBytes <= options.maxBytes() + rowBytes);
          for (int r = 0; r < root.getRowCount(); r++) {
            checkRow(root, r, seen + r);
          }
          seen += root.getRowCount();
        }
        assertEquals(1000, seen);
      }
    }
  }

  @Test
  void decodeToNewRootHandsOutARootTheCallerCloses() {
    try (RowbridgeDecoder decoder =
        RowbridgeDecoder.create(SCHEMA, "UTC", allocator, DecoderOptions.defaults())) {
      for (int r = 0; r < 300; r++) {
        decoder.add(unsafe(r));
      }
      try (VectorSchemaRoot owned = decoder.decodeToNewRoot(allocator)) {
        assertEquals(300, owned.getRowCount());
        for (int r = 0; r < 300; r++) {
          checkRow(owned, r, r);
        }
      }
      assertEquals(0, decoder.stagedRows());
    }
  }

  @Test
  void memoryIsReportedAndReleased() {
    CountingListener listener = new CountingListener();
    try (RowbridgeDecoder decoder =
        RowbridgeDecoder.create(
            SCHEMA, "UTC", allocator, DecoderOptions.defaults().memoryListener(listener))) {
      for (int r = 0; r < 3000; r++) {
        decoder.add(unsafe(r));
      }
      decoder.decode();
      assertEquals(decoder.reservedBytes(), listener.held);
      assertTrue(listener.held > 3000 * 64, "staging and vectors: " + listener.held);
    }
    assertEquals(0, listener.held);
  }

  @Test
  void damagedRowsAreErrorsNamingTheFieldAndRow() {
    try (RowbridgeDecoder decoder =
        RowbridgeDecoder.create(SCHEMA, "UTC", allocator, DecoderOptions.defaults())) {
      for (int r = 0; r < 5; r++) {
        decoder.add(unsafe(r + 1));
      }
      // Row 3's "name" slot (field 2) points far past the row.
      RowStaging staging = decoder.staging();
      long row3 = staging.dataAddress() + Platform.getLong(null, staging.offsetsAddress() + 24);
      long slot = row3 + 8 + 2 * 8;
      Platform.putLong(null, slot, (1L << 40) | 16);
      RowbridgeException e = assertThrows(RowbridgeException.class, decoder::decode);
      assertTrue(
          e.getMessage().contains("name") && e.getMessage().contains("row 3"), e.getMessage());
      // The decoder stays usable.
      decoder.add(unsafe(9));
      assertEquals(1, decoder.decode().getRowCount());
      checkRow(decoder.root(), 0, 9);
      // A row of another schema is refused before it is staged.
      UnsafeRow other = new UnsafeRow(3);
      other.pointTo(new byte[32], 32);
      RowbridgeException wrong = assertThrows(RowbridgeException.class, () -> decoder.add(other));
      assertTrue(wrong.getMessage().contains("3 fields"), wrong.getMessage());
      assertFalse(decoder.stagedRows() > 0);
    }
  }

  @Test
  void aClosedDecoderRefusesWork() {
    RowbridgeDecoder decoder =
        RowbridgeDecoder.create(SCHEMA, "UTC", allocator, DecoderOptions.defaults());
    decoder.close();
    decoder.close();
    assertThrows(IllegalStateException.class, () -> decoder.add(unsafe(1)));
    assertThrows(IllegalStateException.class, decoder::decode);
  }

  @Test
  void timestampsNeedTheSessionTimeZone() {
    RowbridgeException e =
        assertThrows(
            RowbridgeException.class,
            () -> RowbridgeDecoder.create(SCHEMA, null, allocator, DecoderOptions.defaults()));
    assertTrue(e.getMessage().contains("'at'"), e.getMessage());
  }
}
