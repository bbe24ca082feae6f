package io.rowbridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;
import org.apache.spark.unsafe.Platform;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * NativeIpcWriter on the rows of RowbridgeDecoderTest: files and streams that Arrow Java reads back
 * value by value with every codec, the bound on batches ahead, a damaged row named after the
 * batches before it, and a cancelled wait.
 */
class NativeIpcWriterTest {
  private static final int BATCHES = 7;
  private static final int ROWS = 300;

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

  /** Batch b's staged rows: row r holds value b * ROWS + r + 1. */
  private static RowStaging[] stagings(int count) {
    RowStaging[] stagings = new RowStaging[count];
    for (int s = 0; s < count; s++) {
      stagings[s] = new RowStaging(RowbridgeDecoderTest.SCHEMA, ROWS, 64L << 20, null);
    }
    return stagings;
  }

  private static void stage(RowStaging staging, int batch) {
    staging.clear();
    for (int r = 0; r < ROWS; r++) {
      assertTrue(staging.add(RowbridgeDecoderTest.unsafe(batch * ROWS + r + 1)));
    }
  }

  /** Writes BATCHES batches through a writer with K = inFlight, as a write task does. */
  private static byte[] write(NativeIpcWriter writer, int inFlight) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RowStaging[] stagings = stagings(inFlight + 1);
    try {
      int written = 0;
      for (int b = 0; b < BATCHES; b++) {
        while (b - written >= inFlight) {
          written += writer.drainTo(out, true);
        }
        RowStaging staging = stagings[b % stagings.length];
        stage(staging, b);
        writer.submit(staging.dataAddress(), staging.offsetsAddress(), staging.numRows());
        written += writer.drainTo(out, false);
      }
      writer.finish(out);
    } finally {
      for (RowStaging staging : stagings) {
        staging.close();
      }
    }
    return out.toByteArray();
  }

  private static void checkBatches(VectorSchemaRoot root, int batch) {
    assertEquals(ROWS, root.getRowCount());
    for (int r = 0; r < ROWS; r++) {
      RowbridgeDecoderTest.checkRow(root, r, batch * ROWS + r + 1);
    }
  }

  @Test
  void filesReadBackWithEveryCodec() throws IOException {
    for (NativeIpcWriter.Codec codec : NativeIpcWriter.Codec.values()) {
      for (int inFlight : new int[] {1, 3}) {
        byte[] file;
        try (NativeIpcWriter writer =
            NativeIpcWriter.create(
                ArrowSchemas.of(RowbridgeDecoderTest.SCHEMA, "UTC"), codec, 3, inFlight)) {
          file = write(writer, inFlight);
        }
        try (ArrowFileReader reader =
            new ArrowFileReader(
                new ByteArrayReadableSeekableByteChannel(file),
                allocator,
                CommonsCompressionFactory.INSTANCE)) {
          assertEquals(BATCHES, reader.getRecordBlocks().size(), codec + " K=" + inFlight);
          for (int b = 0; b < BATCHES; b++) {
            assertTrue(reader.loadNextBatch());
            checkBatches(reader.getVectorSchemaRoot(), b);
          }
        }
      }
    }
  }

  @Test
  void streamsReadBackAndMessagesTravelApart() throws IOException {
    byte[] stream;
    try (NativeIpcWriter writer =
        NativeIpcWriter.createStream(
            ArrowSchemas.of(RowbridgeDecoderTest.SCHEMA, "UTC"),
            NativeIpcWriter.Codec.NONE,
            0,
            2)) {
      stream = write(writer, 2);
    }
    try (ArrowStreamReader reader =
        new ArrowStreamReader(
            Channels.newChannel(new java.io.ByteArrayInputStream(stream)),
            allocator,
            CommonsCompressionFactory.INSTANCE)) {
      for (int b = 0; b < BATCHES; b++) {
        assertTrue(reader.loadNextBatch());
        checkBatches(reader.getVectorSchemaRoot(), b);
      }
      assertTrue(!reader.loadNextBatch());
    }
    // The same batch as a message of its own: startBytes + message + end marker is a stream.
    RowStaging[] one = stagings(1);
    try (NativeIpcWriter writer =
        NativeIpcWriter.createStream(
            ArrowSchemas.of(RowbridgeDecoderTest.SCHEMA, "UTC"),
            NativeIpcWriter.Codec.ZSTD,
            1,
            1)) {
      stage(one[0], 4);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(writer.startBytes());
      assertNull(writer.takeMessage(false), "nothing submitted, nothing to take");
      writer.submit(one[0].dataAddress(), one[0].offsetsAddress(), one[0].numRows());
      out.write(writer.takeMessage(true));
      out.write(new byte[] {-1, -1, -1, -1, 0, 0, 0, 0});
      try (ArrowStreamReader reader =
          new ArrowStreamReader(
              Channels.newChannel(new java.io.ByteArrayInputStream(out.toByteArray())),
              allocator,
              CommonsCompressionFactory.INSTANCE)) {
        assertTrue(reader.loadNextBatch());
        checkBatches(reader.getVectorSchemaRoot(), 4);
      }
    } finally {
      one[0].close();
    }
  }

  @Test
  void aDamagedRowIsNamedAfterTheBatchesBeforeIt() throws IOException {
    RowStaging[] stagings = stagings(3);
    try (NativeIpcWriter writer =
        NativeIpcWriter.create(
            ArrowSchemas.of(RowbridgeDecoderTest.SCHEMA, "UTC"),
            NativeIpcWriter.Codec.LZ4_FRAME,
            0,
            2)) {
      stage(stagings[0], 0);
      stage(stagings[1], 1);
      // Row 5 of batch 1: its "name" slot (field 2) points far past the row.
      long row5 =
          stagings[1].dataAddress() + Platform.getLong(null, stagings[1].offsetsAddress() + 40);
      Platform.putLong(null, row5 + 8 + 2 * 8, (1L << 40) | 16);
      writer.submit(stagings[0].dataAddress(), stagings[0].offsetsAddress(), ROWS);
      writer.submit(stagings[1].dataAddress(), stagings[1].offsetsAddress(), ROWS);
      RowbridgeException full =
          assertThrows(
              RowbridgeException.class,
              () -> writer.submit(stagings[2].dataAddress(), stagings[2].offsetsAddress(), 0));
      assertTrue(full.getMessage().contains("2 batches already wait"), full.getMessage());
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int start;
      try (NativeIpcWriter other =
          NativeIpcWriter.create(
              ArrowSchemas.of(RowbridgeDecoderTest.SCHEMA, "UTC"),
              NativeIpcWriter.Codec.NONE,
              0,
              1)) {
        start = other.startBytes().length;
      }
      RowbridgeException damaged =
          assertThrows(
              RowbridgeException.class,
              () -> {
                for (; ; ) {
                  writer.drainTo(out, true);
                }
              });
      String message = damaged.getMessage();
      assertTrue(
          message.contains("batch 1") && message.contains("name") && message.contains("row 5"),
          message);
      assertTrue(out.size() > start, "batch 0 was written before the error: " + out.size());
    } finally {
      for (RowStaging staging : stagings) {
        staging.close();
      }
    }
  }

  @Test
  void aCancelledWriterStopsWaiting() {
    RowStaging[] stagings = stagings(1);
    try (NativeIpcWriter writer =
        NativeIpcWriter.create(
            ArrowSchemas.of(RowbridgeDecoderTest.SCHEMA, "UTC"),
            NativeIpcWriter.Codec.ZSTD,
            19,
            1)) {
      stage(stagings[0], 0);
      writer.submit(stagings[0].dataAddress(), stagings[0].offsetsAddress(), ROWS);
      writer.cancel(); // as a killed task's interruption check does
      RowbridgeException stopped =
          assertThrows(
              RowbridgeException.class, () -> writer.drainTo(new ByteArrayOutputStream(), true));
      assertEquals(RowbridgeException.ECANCELED, stopped.code(), stopped.getMessage());
    } finally {
      stagings[0].close();
    }
  }
}
