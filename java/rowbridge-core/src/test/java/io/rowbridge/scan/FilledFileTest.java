package io.rowbridge.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.RowbridgeException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scans of files the caller fills (as the Spark source does through Hadoop), against scans of the
 * same file mapped: only the ranges a batch's selected columns need are written, by another thread,
 * batch by batch, and the batches must be the same.
 */
class FilledFileTest {
  static final int[] BATCH_ROWS = {300, 1, 0, 257, 64, 1000};
  static final long SEED = 20261202L;

  @TempDir Path directory;
  private BufferAllocator allocator;
  private ScanFiles.Written written;
  private byte[] bytes;

  @BeforeEach
  void setUp() throws IOException {
    allocator = new RootAllocator();
    System.out.println("FilledFileTest seed " + SEED);
    written = ScanFiles.write(allocator, directory.resolve("filled.arrow"), BATCH_ROWS, SEED);
    bytes = Files.readAllBytes(written.path);
  }

  @AfterEach
  void tearDown() {
    assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory left allocated");
    allocator.close();
  }

  private long write(FilledFile file, long offset, long length) {
    assertTrue(file.write(offset, ByteBuffer.wrap(bytes, (int) offset, (int) length)));
    return length;
  }

  /** Writes the head, the footer and the dictionaries; opens the file for {@code columns}. */
  private FileLayout openFilled(FilledFile file, int[] columns) {
    int footer =
        ByteBuffer.wrap(bytes, bytes.length - 10, 4)
            .order(java.nio.ByteOrder.LITTLE_ENDIAN)
            .getInt();
    long head = write(file, 0, 8) + write(file, bytes.length - footer - 10, footer + 10);
    FileLayout layout = file.open(columns, true);
    for (int i = 0; i < layout.numDictionaries(); i++) {
      head += write(file, layout.dictionaryOffset(i), layout.dictionaryBytes(i));
    }
    file.filled(-1, head);
    return layout;
  }

  private List<String> mapped(int[] columns) {
    List<String> batches = new ArrayList<>();
    try (ArrowScan scan =
        NativeScan.openArrow(
            written.path.toString(), ScanOptions.defaults().columns(columns), allocator)) {
      while (scan.loadNextBatch()) {
        batches.add(scan.getVectorSchemaRoot().contentToTSVString());
      }
    }
    return batches;
  }

  @Test
  void batchesEqualTheMappedFilesWithOnlyTheirRangesWritten() throws Exception {
    for (int[] columns : new int[][] {null, {4, 0}, {2}}) {
      try (FilledFile file = FilledFile.create(written.path.toString(), bytes.length)) {
        FileLayout layout = openFilled(file, columns);
        assertEquals(BATCH_ROWS.length, layout.numBatches());
        long[] written = {0};
        List<String> batches = new ArrayList<>();
        try (ArrowScan scan =
            NativeScan.openArrow(file, ScanOptions.defaults().columns(columns), allocator)) {
          Thread fetcher =
              new Thread(
                  () -> {
                    for (int b = 0; b < layout.numBatches(); b++) {
                      write(file, layout.batchOffset(b), layout.batchMetadataBytes(b));
                      long[] ranges = file.batchRanges(b);
                      long batchBytes = 0;
                      for (int i = 0; i < ranges.length; i += 2) {
                        batchBytes += write(file, ranges[i], ranges[i + 1]);
                      }
                      file.filled(b, batchBytes);
                      written[0] += batchBytes;
                      scan.batchesReady(b + 1);
                    }
                  });
          fetcher.start();
          while (scan.loadNextBatch()) {
            batches.add(scan.getVectorSchemaRoot().contentToTSVString());
          }
          fetcher.join();
          assertTrue(scan.bytesHeld() >= 0);
        }
        assertEquals(mapped(columns), batches, "columns " + java.util.Arrays.toString(columns));
        if (columns != null && columns.length == 1) {
          assertTrue(written[0] < bytes.length / 2, "pruned columns were written: " + written[0]);
        }
      }
    }
  }

  @Test
  void aScanWaitsForItsBatchesAndMustSelectTheOpenedColumns() {
    try (FilledFile file = FilledFile.create("waits.arrow", bytes.length)) {
      openFilled(file, new int[] {0});
      assertThrows(
          IllegalArgumentException.class,
          () ->
              NativeScan.openArrow(file, ScanOptions.defaults().columns(new int[] {1}), allocator));
      try (ArrowScan scan =
          NativeScan.openArrow(
              file,
              ScanOptions.defaults()
                  .columns(new int[] {0})
                  .wakePeriodMillis(10)
                  .interrupted(
                      new java.util.function.BooleanSupplier() {
                        private int wakes;

                        @Override
                        public boolean getAsBoolean() {
                          return ++wakes > 5; // no batch is ever written: give up after 5 wake-ups
                        }
                      }),
              allocator)) {
        RowbridgeException stopped = assertThrows(RowbridgeException.class, scan::loadNextBatch);
        assertEquals(RowbridgeException.ECANCELED, stopped.code());
        assertFalse(scan.batchesRead() > 0);
      }
    }
  }

  @Test
  void aFileThatIsNotArrowIsANamedError() {
    try (FilledFile file = FilledFile.create("garbage.arrow", 64)) {
      file.write(0, ByteBuffer.wrap(new byte[64]));
      RowbridgeException bad = assertThrows(RowbridgeException.class, () -> file.open(null, true));
      assertTrue(bad.getMessage().contains("garbage.arrow"), bad.getMessage());
    }
    try (FilledFile closed = FilledFile.create("closed.arrow", 64)) {
      closed.close();
      assertFalse(closed.write(0, ByteBuffer.wrap(new byte[8])));
      assertThrows(IllegalStateException.class, () -> closed.batchRanges(0));
    }
  }
}
