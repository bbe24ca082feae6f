package io.rowbridge.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.ConverterOptions;
import io.rowbridge.RowbridgeConverter;
import io.rowbridge.RowbridgeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** NativeScan over files Arrow Java writes: values, projection, ranges, footer, rows, errors. */
class NativeScanTest {
  static final int[] BATCH_ROWS = {100, 1, 0, 257, 64};
  static final long SEED = 20261130L;

  @TempDir Path directory;
  private BufferAllocator allocator;
  private ScanFiles.Written written;

  @BeforeEach
  void setUp() throws IOException {
    allocator = new RootAllocator();
    System.out.println("NativeScanTest seed " + SEED);
    written = ScanFiles.write(allocator, directory.resolve("scan.arrow"), BATCH_ROWS, SEED);
  }

  @AfterEach
  void tearDown() {
    assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory left allocated");
    allocator.close();
  }

  /**
   * The schema as text, dictionary ids left out: the C Data Interface carries none, so Arrow Java
   * numbers the imported dictionaries itself.
   */
  static String withoutDictionaryIds(org.apache.arrow.vector.types.pojo.Schema schema) {
    return schema.toString().replaceAll("dictionary: [0-9]+", "dictionary");
  }

  private String path() {
    return written.path.toString();
  }

  /** The TSV of every batch of the scan. */
  private List<String> readAll(ScanOptions options) {
    List<String> batches = new ArrayList<>();
    try (ArrowScan scan = NativeScan.openArrow(path(), options, allocator)) {
      while (scan.loadNextBatch()) {
        batches.add(scan.getVectorSchemaRoot().contentToTSVString());
      }
      assertFalse(scan.loadNextBatch());
      assertEquals(batches.size(), scan.batchesRead());
    }
    return batches;
  }

  @Test
  void readsBackWhatArrowJavaWrote() {
    for (int w : new int[] {1, 2, 4}) {
      assertEquals(written.batches, readAll(ScanOptions.defaults().inFlight(w)), "W=" + w);
    }
    assertEquals(written.batches, readAll(ScanOptions.defaults().prefetch(0)));
    try (ArrowScan scan = NativeScan.openArrow(path(), ScanOptions.defaults(), allocator)) {
      assertEquals(withoutDictionaryIds(ScanFiles.schema()), withoutDictionaryIds(scan.schema()));
      assertTrue(scan.loadNextBatch());
      // The dictionary-encoded column holds indices; its dictionary comes along.
      Field word = scan.schema().findField("word");
      Dictionary dictionary = scan.dictionaries().lookup(word.getDictionary().getId());
      VarCharVector values = (VarCharVector) dictionary.getVector();
      assertEquals(ScanFiles.WORDS.length, values.getValueCount());
      for (int i = 0; i < ScanFiles.WORDS.length; i++) {
        assertEquals(ScanFiles.WORDS[i], values.getObject(i).toString());
      }
      assertTrue(scan.bytesRead() > 0);
      assertTrue(scan.decodeNanos() > 0);
    }
  }

  @Test
  void projectionReadsTheSelectedColumnsInOrder() {
    int[] columns = {4, 0, 3};
    try (ArrowScan scan =
            NativeScan.openArrow(path(), ScanOptions.defaults().columns(columns), allocator);
        ArrowScan full = NativeScan.openArrow(path(), ScanOptions.defaults(), allocator)) {
      List<Field> fields = scan.schema().getFields();
      assertEquals(
          List.of("point", "id", "word"),
          List.of(fields.get(0).getName(), fields.get(1).getName(), fields.get(2).getName()));
      while (full.loadNextBatch()) {
        assertTrue(scan.loadNextBatch());
        VectorSchemaRoot expected = full.getVectorSchemaRoot();
        VectorSchemaRoot actual = scan.getVectorSchemaRoot();
        assertEquals(expected.getRowCount(), actual.getRowCount());
        for (int c = 0; c < columns.length; c++) {
          FieldVector want = expected.getVector(columns[c]);
          FieldVector got = actual.getVector(c);
          for (int r = 0; r < expected.getRowCount(); r++) {
            assertEquals(String.valueOf(want.getObject(r)), String.valueOf(got.getObject(r)));
          }
        }
      }
      assertFalse(scan.loadNextBatch());
      assertTrue(scan.bytesRead() > 0);
    }
    // No column: batches keep their row counts.
    try (ArrowScan scan =
        NativeScan.openArrow(path(), ScanOptions.defaults().columns(new int[0]), allocator)) {
      assertEquals(0, scan.schema().getFields().size());
      for (int rows : BATCH_ROWS) {
        assertTrue(scan.loadNextBatch());
        assertEquals(rows, scan.getVectorSchemaRoot().getRowCount());
      }
      assertFalse(scan.loadNextBatch());
    }
    RowbridgeException bad =
        assertThrows(
            RowbridgeException.class,
            () ->
                NativeScan.openArrow(
                    path(), ScanOptions.defaults().columns(new int[] {5}), allocator));
    assertTrue(bad.getMessage().contains("column 5"), bad.getMessage());
    assertThrows(
        RowbridgeException.class,
        () ->
            NativeScan.openArrow(
                path(), ScanOptions.defaults().columns(new int[] {1, 1}), allocator));
  }

  @Test
  void batchRangesSplitTheFile() {
    assertEquals(written.batches.subList(1, 3), readAll(ScanOptions.defaults().batchRange(1, 2)));
    assertEquals(written.batches.subList(3, 5), readAll(ScanOptions.defaults().batchRange(3, -1)));
    assertEquals(List.of(), readAll(ScanOptions.defaults().batchRange(5, 0)));
    List<String> joined = new ArrayList<>();
    for (int first = 0; first < BATCH_ROWS.length; first += 2) {
      joined.addAll(
          readAll(
              ScanOptions.defaults().batchRange(first, Math.min(2, BATCH_ROWS.length - first))));
    }
    assertEquals(written.batches, joined);
    RowbridgeException past =
        assertThrows(
            RowbridgeException.class,
            () -> NativeScan.openArrow(path(), ScanOptions.defaults().batchRange(4, 2), allocator));
    assertTrue(past.getMessage().contains(path()), past.getMessage());
  }

  @Test
  void inspectReadsTheFooter() throws IOException {
    IpcFileInfo info = NativeScan.inspect(path());
    assertTrue(info.isFileFormat());
    assertEquals(withoutDictionaryIds(ScanFiles.schema()), withoutDictionaryIds(info.schema()));
    assertEquals(BATCH_ROWS.length, info.numBatches());
    for (int i = 0; i < BATCH_ROWS.length; i++) {
      assertEquals(BATCH_ROWS[i], info.batchRows(i));
      assertEquals(written.blocks.get(i).getBodyLength(), info.batchBodyBytes(i));
      // Uncompressed bodies: the buffers without the padding between them.
      assertTrue(info.batchUncompressedBytes(i) <= info.batchBodyBytes(i));
    }
    assertEquals(Files.size(written.path), info.inputBytes());
    RowbridgeException missing =
        assertThrows(
            RowbridgeException.class,
            () -> NativeScan.inspect(directory.resolve("missing.arrow").toString()));
    assertTrue(missing.getMessage().contains("missing.arrow"), missing.getMessage());
  }

  @Test
  void rowScanEqualsTheConverterOnTheSameBatches() {
    for (int[] columns : new int[][] {null, {3, 1}}) {
      ScanOptions options = ScanOptions.defaults().columns(columns);
      List<byte[]> expected = new ArrayList<>();
      try (ArrowScan scan = NativeScan.openArrow(path(), options, allocator)) {
        try (RowbridgeConverter converter =
            RowbridgeConverter.create(
                scan.schema(), ConverterOptions.defaults().dictionaries(scan.dictionaries()))) {
          while (scan.loadNextBatch()) {
            converter.convert(scan.getVectorSchemaRoot());
            while (converter.next()) {
              expected.add(converter.row().getBytes());
            }
          }
        }
      }
      List<byte[]> actual = new ArrayList<>();
      try (RowScan scan =
          NativeScan.openRows(
              path(), options.converterOptions(ConverterOptions.defaults().maxChunkBytes(4096)))) {
        assertEquals(columns == null ? 5 : 2, scan.sparkSchema().size());
        while (scan.nextBatch()) {
          int rows = 0;
          while (scan.next()) {
            actual.add(scan.row().getBytes());
            rows++;
          }
          assertEquals(scan.numRows(), rows);
        }
        assertFalse(scan.nextBatch());
        assertEquals(BATCH_ROWS.length, scan.batchesRead());
      }
      assertEquals(expected.size(), actual.size());
      for (int i = 0; i < expected.size(); i++) {
        assertArrayEquals(expected.get(i), actual.get(i), "row " + i);
      }
    }
  }

  @Test
  void rowScanAppendsConstantColumnsToEveryRow() {
    ScanOptions options = ScanOptions.defaults().columns(new int[] {3, 1});
    List<Object[]> expected = new ArrayList<>();
    try (RowScan scan = NativeScan.openRows(path(), options)) {
      while (scan.nextBatch()) {
        while (scan.next()) {
          expected.add(
              new Object[] {
                String.valueOf(scan.row().get(0, scan.sparkSchema().fields()[0].dataType())),
                String.valueOf(scan.row().get(1, scan.sparkSchema().fields()[1].dataType()))
              });
        }
      }
    }
    try (BigIntVector k = new BigIntVector("k", allocator);
        VarCharVector v = new VarCharVector("v", allocator);
        IntVector n = new IntVector("n", allocator)) {
      k.setSafe(0, 7);
      v.setSafe(0, "day=2026-12-01".getBytes(StandardCharsets.UTF_8));
      n.setNull(0);
      k.setValueCount(1);
      v.setValueCount(1);
      n.setValueCount(1);
      List<Object[]> actual = new ArrayList<>();
      try (VectorSchemaRoot constants = new VectorSchemaRoot(List.of(k, v, n))) {
        constants.setRowCount(1);
        try (RowScan scan =
            NativeScan.openRows(
                path(),
                options.converterOptions(ConverterOptions.defaults().maxChunkBytes(4096)),
                constants)) {
          assertEquals(
              "struct<"
                  + scan.sparkSchema().fields()[0].name()
                  + ":"
                  + scan.sparkSchema().fields()[0].dataType().simpleString()
                  + ","
                  + scan.sparkSchema().fields()[1].name()
                  + ":"
                  + scan.sparkSchema().fields()[1].dataType().simpleString()
                  + ",k:bigint,v:string,n:int>",
              scan.sparkSchema().simpleString());
          while (scan.nextBatch()) {
            while (scan.next()) {
              UnsafeRow row = scan.row();
              assertEquals(5, row.numFields());
              assertEquals(7L, row.getLong(2));
              assertEquals("day=2026-12-01", row.getUTF8String(3).toString());
              assertTrue(row.isNullAt(4));
              actual.add(
                  new Object[] {
                    String.valueOf(row.get(0, scan.sparkSchema().fields()[0].dataType())),
                    String.valueOf(row.get(1, scan.sparkSchema().fields()[1].dataType()))
                  });
            }
          }
        }
      }
      assertEquals(expected.size(), actual.size());
      for (int i = 0; i < expected.size(); i++) {
        assertArrayEquals(expected.get(i), actual.get(i), "row " + i);
      }
    }
  }

  /**
   * Files pyarrow writes (tests/stream/make_scan_files.py with build/venv, which make deps
   * installs): ZSTD and LZ4_FRAME bodies, file and stream format, read back equal to what Arrow
   * Java's own reader reads from the uncompressed file of the same values.
   */
  @Test
  void readsCompressedFilesPyarrowWrote() throws Exception {
    Path root = Path.of(System.getProperty("rowbridge.root", "../..")).toAbsolutePath();
    Path python = root.resolve("build/venv/bin/python3");
    assertTrue(Files.isExecutable(python), python + " is missing: run make deps");
    Path out = directory.resolve("pyarrow");
    Process process =
        new ProcessBuilder(
                python.toString(),
                root.resolve("tests/stream/make_scan_files.py").toString(),
                out.toString(),
                "--batches",
                "3",
                "--batch-rows",
                "700")
            .inheritIO()
            .start();
    assertEquals(0, process.waitFor(), "make_scan_files.py failed");
    for (String kind : new String[] {"flat", "lists"}) {
      List<String> expected = new ArrayList<>();
      try (java.nio.channels.FileChannel channel =
              java.nio.channels.FileChannel.open(out.resolve(kind + ".none.arrow"));
          org.apache.arrow.vector.ipc.ArrowFileReader reader =
              new org.apache.arrow.vector.ipc.ArrowFileReader(channel, allocator)) {
        while (reader.loadNextBatch()) {
          expected.add(reader.getVectorSchemaRoot().contentToTSVString());
        }
      }
      assertEquals(3, expected.size());
      for (String suffix :
          new String[] {".zstd.arrow", ".lz4.arrow", ".zstd.arrows", ".none.arrows"}) {
        String file = out.resolve(kind + suffix).toString();
        List<String> actual = new ArrayList<>();
        try (ArrowScan scan = NativeScan.openArrow(file, ScanOptions.defaults(), allocator)) {
          while (scan.loadNextBatch()) {
            actual.add(scan.getVectorSchemaRoot().contentToTSVString());
          }
        }
        assertEquals(expected, actual, file);
      }
    }
  }

  @Test
  void aCorruptBatchFailsAfterTheGoodOnes() throws IOException {
    ScanFiles.corruptBatch(written, 3);
    for (int w : new int[] {1, 3}) {
      int good = 0;
      try (ArrowScan scan =
          NativeScan.openArrow(path(), ScanOptions.defaults().inFlight(w), allocator)) {
        RowbridgeException error = null;
        try {
          while (scan.loadNextBatch()) {
            assertEquals(
                written.batches.get(good), scan.getVectorSchemaRoot().contentToTSVString());
            good++;
          }
        } catch (RowbridgeException e) {
          error = e;
        }
        assertEquals(3, good);
        assertTrue(error != null, "no error after the good batches");
        assertTrue(error.getMessage().contains(path()), error.getMessage());
        assertTrue(error.getMessage().contains("record batch 3"), error.getMessage());
        // Every later call reports the same failure.
        RowbridgeException again = assertThrows(RowbridgeException.class, scan::loadNextBatch);
        assertEquals(error.getMessage(), again.getMessage());
      }
      try (RowScan rows = NativeScan.openRows(path(), ScanOptions.defaults().inFlight(w))) {
        int batches = 0;
        RowbridgeException error =
            assertThrows(
                RowbridgeException.class,
                () -> {
                  while (rows.nextBatch()) {
                    // drain
                  }
                });
        assertTrue(error.getMessage().contains("record batch 3"), error.getMessage());
        assertEquals(3, rows.batchesRead());
      }
    }
  }

  @Test
  void closeMidStreamFreesEverything() {
    ArrowScan scan = NativeScan.openArrow(path(), ScanOptions.defaults().prefetch(3), allocator);
    assertTrue(scan.loadNextBatch());
    scan.close();
    scan.close();
    assertThrows(IllegalStateException.class, scan::loadNextBatch);
    assertEquals(1, scan.batchesRead());
    RowScan rows = NativeScan.openRows(path(), ScanOptions.defaults());
    assertTrue(rows.nextBatch());
    assertTrue(rows.next());
    rows.close();
    assertEquals(0, rows.row().getLong(0)); // zeroed heap memory, never freed memory
    assertThrows(IllegalStateException.class, rows::nextBatch);
  }

  /**
   * bytesHeld with K = 0 and W = 1 (at most two items, so two converters): while a batch is held,
   * at least what its converter holds, itself at least the batch's rows plus offsets; once every
   * batch is read, exactly what the one or two converters hold, each as it was after its last batch
   * (converters never shrink; an uncompressed file's batches own no buffers); 0 after close.
   */
  @Test
  void rowScanReportsTheNativeBytesItHolds() {
    List<Long> converters = new ArrayList<>();
    try (RowScan scan =
        NativeScan.openRows(path(), ScanOptions.defaults().prefetch(0).inFlight(1))) {
      assertEquals(0, scan.converterBytes());
      while (scan.nextBatch()) {
        long footprint = 8L * (scan.numRows() + 1);
        while (scan.next()) {
          footprint += scan.row().getSizeInBytes();
        }
        long converter = scan.converterBytes();
        converters.add(converter);
        assertTrue(converter >= footprint, converter + " < " + footprint);
        assertTrue(scan.bytesHeld() >= converter, scan.bytesHeld() + " < " + converter);
      }
      assertEquals(BATCH_ROWS.length, converters.size());
      long held = scan.bytesHeld();
      boolean possible = false;
      for (int i = 0; i < converters.size(); i++) {
        possible |= held == converters.get(i);
        for (int j = i + 1; j < converters.size(); j++) {
          possible |= held == converters.get(i) + converters.get(j);
        }
      }
      assertTrue(
          held >= java.util.Collections.max(converters) && possible,
          held + " from converter sizes " + converters);
      scan.close();
      assertEquals(0, scan.bytesHeld());
      assertEquals(0, scan.converterBytes());
    }
  }

  @Test
  void cancelBeforeTheNextBatch() {
    try (ArrowScan scan = NativeScan.openArrow(path(), ScanOptions.defaults(), allocator)) {
      assertTrue(scan.loadNextBatch());
      scan.cancel();
      RowbridgeException cancelled = assertThrows(RowbridgeException.class, scan::loadNextBatch);
      assertEquals(RowbridgeException.ECANCELED, cancelled.code());
    }
  }
}
