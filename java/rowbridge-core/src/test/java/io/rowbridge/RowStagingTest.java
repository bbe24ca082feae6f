package io.rowbridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * RowStaging on its own: the staged bytes and offsets are the rows' bytes, for rows copied word by
 * word (up to {@link RowStaging#WORD_COPY_LIMIT} bytes) and in one bulk copy (larger), on the heap
 * and off it, through the buffers' growth; the caps, the closed staging and the memory accounting.
 */
class RowStagingTest {
  private static final StructType SCHEMA =
      new StructType().add("id", DataTypes.LongType).add("text", DataTypes.StringType);
  private static final UnsafeProjection PROJECTION = UnsafeProjection.create(SCHEMA);

  /** A row of 24 + (i % 700 rounded up to 8) bytes: both sides of the word-copy limit. */
  private static UnsafeRow row(int i) {
    String text = String.valueOf((char) ('a' + i % 26)).repeat(i % 700);
    return PROJECTION
        .apply(new GenericInternalRow(new Object[] {(long) i, UTF8String.fromString(text)}))
        .copy();
  }

  /** The row's bytes at a native address, the row pointing there (the caller frees it). */
  private static long offHeap(UnsafeRow row) {
    int size = row.getSizeInBytes();
    long address = Platform.allocateMemory(size);
    Platform.copyMemory(row.getBaseObject(), row.getBaseOffset(), null, address, size);
    row.pointTo(null, address, size);
    return address;
  }

  private static byte[] staged(RowStaging staging, int r) {
    long start = Platform.getLong(null, staging.offsetsAddress() + 8L * r);
    long end = Platform.getLong(null, staging.offsetsAddress() + 8L * (r + 1));
    byte[] out = new byte[(int) (end - start)];
    Platform.copyMemory(
        null, staging.dataAddress() + start, out, Platform.BYTE_ARRAY_OFFSET, out.length);
    return out;
  }

  @Test
  void stagesEachRowsBytesSmallAndLargeOnAndOffTheHeap() {
    int n = 3000; // past the first offsets (1024 rows) and the first data block (64 KiB)
    List<Long> addresses = new ArrayList<>();
    try (RowStaging staging = new RowStaging(SCHEMA, n, Long.MAX_VALUE, null)) {
      List<byte[]> expected = new ArrayList<>();
      boolean small = false;
      boolean large = false;
      for (int i = 0; i < n; i++) {
        UnsafeRow row = row(i);
        expected.add(row.getBytes());
        small |= row.getSizeInBytes() <= RowStaging.WORD_COPY_LIMIT;
        large |= row.getSizeInBytes() > RowStaging.WORD_COPY_LIMIT;
        if (i % 2 == 1) {
          addresses.add(offHeap(row));
        }
        assertTrue(staging.add(row));
      }
      assertTrue(small && large);
      assertEquals(n, staging.numRows());
      for (int r = 0; r < n; r++) {
        assertArrayEquals(expected.get(r), staged(staging, r), "row " + r);
      }
      assertEquals(staging.dataBytes(), Platform.getLong(null, staging.offsetsAddress() + 8L * n));
    } finally {
      addresses.forEach(Platform::freeMemory);
    }
  }

  @Test
  void refusesARowPastEitherCapAndTakesAnyFirstRow() {
    try (RowStaging staging = new RowStaging(SCHEMA, 3, 1 << 20, null)) {
      for (int i = 0; i < 3; i++) {
        assertTrue(staging.add(row(i)));
      }
      assertTrue(staging.isFull());
      assertFalse(staging.add(row(3)));
      assertEquals(3, staging.numRows());
    }
    UnsafeRow big = row(600);
    try (RowStaging staging = new RowStaging(SCHEMA, 100, 100, null)) {
      assertTrue(staging.add(big)); // alone past maxBytes: taken
      assertFalse(staging.add(row(0)));
      staging.clear();
      assertTrue(staging.add(row(0)));
      assertTrue(staging.add(row(1)));
      assertFalse(staging.add(row(60)));
      assertEquals(2, staging.numRows());
      assertArrayEquals(row(1).getBytes(), staged(staging, 1));
    }
  }

  @Test
  void aClosedStagingRefusesRowsAndReleasesItsMemory() {
    CountingListener listener = new CountingListener();
    RowStaging staging = new RowStaging(SCHEMA, 4096, Long.MAX_VALUE, listener);
    for (int i = 0; i < 4096; i++) {
      assertTrue(staging.add(row(i)));
    }
    assertEquals(staging.reservedBytes(), listener.held);
    assertTrue(listener.held > 8L * 4096 + staging.dataBytes() - 8, "held " + listener.held);
    staging.close();
    assertEquals(0, listener.held);
    assertThrows(IllegalStateException.class, () -> staging.add(row(0)));
    staging.clear();
    assertThrows(IllegalStateException.class, () -> staging.add(row(0)));
  }

  @Test
  void aRowOfAnotherSchemaIsRefused() {
    try (RowStaging staging = new RowStaging(SCHEMA, 10, 1 << 20, null)) {
      staging.add(row(1));
      UnsafeRow other = new UnsafeRow(3);
      other.pointTo(new byte[32], 32);
      RowbridgeException e = assertThrows(RowbridgeException.class, () -> staging.add(other));
      assertTrue(e.getMessage().contains("row 1 of the batch has 3 fields"), e.getMessage());
      assertEquals(1, staging.numRows());
    }
  }
}
