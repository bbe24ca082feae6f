package io.rowbridge.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.shim.SparkTypeShim;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.unsafe.types.VariantVal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Spark 4.1's TimeType and 4.0's VariantType through format("rowbridge"), with Spark as the oracle:
 * times in every Arrow unit read as the LocalTime Spark gives their nanoseconds, and variants Spark
 * itself built (parse_json) read back as the same JSON. With spark.sql.timeType.enabled off,
 * reading a time column fails with Spark's own error. Both scan modes: rows converted natively, and
 * Spark's columnar batches (through rowbridge's columnar-to-row transition where Spark reads every
 * column). On Spark 4.0, which has no TimeType, a time column is refused with an error naming it.
 */
class TimeVariantSourceTest {
  private static final String[] JSON = {
    "{\"a\":1,\"b\":[true,\"x\",null]}",
    "-12.5",
    "\"a string longer than a short string's limit of sixty-three bytes, to be sure\"",
    "{}"
  };
  private static final long[] NANOS = {0L, 1L, 43_200_123_456_789L, 86_399_999_999_999L};

  private static SparkSession spark;
  private static Path dir;

  @BeforeAll
  static void start() throws IOException {
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("rowbridge-time-variant-test")
            .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
            .config("spark.ui.enabled", "false")
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate();
    dir = Files.createTempDirectory("rowbridge-time-variant");
  }

  @AfterAll
  static void stop() throws IOException {
    if (spark != null) {
      spark.stop();
    }
    try (var files = Files.walk(dir)) {
      for (Path path : files.sorted((x, y) -> y.compareTo(x)).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  @Test
  void timesInEveryUnitReadAsSparkTimes() throws IOException {
    spark.conf().set("spark.sql.timeType.enabled", "true");
    Path file = writeTimes(dir.resolve("times.arrow"));
    if (!SparkTypeShim.hasTime()) {
      assertRefusedForWantOfTimeType(file);
      return;
    }
    for (String mode : new String[] {"rows", "auto"}) {
      List<Row> rows =
          spark
              .read()
              .format("rowbridge")
              .option("mode", mode)
              .load(file.toString())
              .orderBy("ns")
              .collectAsList();
      assertEquals(
          "struct<s:time(6),ms:time(6),us:time(6),ns:time(6)>",
          spark.read().format("rowbridge").load(file.toString()).schema().catalogString());
      assertEquals(NANOS.length + 1, rows.size());
      assertNull(rows.get(0).get(3), "the null row sorts first");
      for (int i = 0; i < NANOS.length; i++) {
        Row row = rows.get(i + 1);
        LocalTime ns = LocalTime.ofNanoOfDay(NANOS[i]);
        assertEquals(ns, row.get(3), mode);
        assertEquals(ns.withNano(ns.getNano() / 1000 * 1000), row.get(2), mode);
        assertEquals(ns.withNano(ns.getNano() / 1_000_000 * 1_000_000), row.get(1), mode);
        assertEquals(ns.withNano(0), row.get(0), mode);
      }
    }
  }

  @Test
  void timesFailAsSparkDoesWithTheSettingOff() throws IOException {
    Path file = writeTimes(dir.resolve("times-off.arrow"));
    spark.conf().set("spark.sql.timeType.enabled", "false");
    if (!SparkTypeShim.hasTime()) {
      assertRefusedForWantOfTimeType(file);
      return;
    }
    try {
      AnalysisException error =
          assertThrows(
              AnalysisException.class,
              () -> spark.read().format("rowbridge").load(file.toString()).collectAsList());
      assertEquals("UNSUPPORTED_TIME_TYPE", error.getCondition());
    } finally {
      spark.conf().set("spark.sql.timeType.enabled", "true");
    }
  }

  @Test
  void variantsSparkBuiltReadBackAsTheSameJson() throws IOException {
    List<Row> built =
        spark
            .sql(
                "SELECT parse_json(j) AS v FROM VALUES ('"
                    + JSON[0]
                    + "'), ('"
                    + JSON[1]
                    + "'), ('"
                    + JSON[2].replace("'", "\\'")
                    + "'), ('"
                    + JSON[3]
                    + "') AS t(j)")
            .collectAsList();
    Path file = dir.resolve("variants.arrow");
    writeVariants(file, built);
    for (String mode : new String[] {"rows", "auto"}) {
      var df = spark.read().format("rowbridge").option("mode", mode).load(file.toString());
      assertEquals("struct<i:int,v:variant>", df.schema().catalogString());
      List<Row> rows = df.selectExpr("i", "to_json(v)", "v").orderBy("i").collectAsList();
      assertEquals(JSON.length + 1, rows.size());
      for (int i = 0; i < JSON.length; i++) {
        VariantVal want = (VariantVal) built.get(i).get(0);
        VariantVal got = (VariantVal) rows.get(i).get(2);
        assertEquals(
            spark
                .sql("SELECT to_json(parse_json('" + JSON[i].replace("'", "\\'") + "'))")
                .first()
                .getString(0),
            rows.get(i).getString(1),
            mode);
        assertArrayEquals(want.getValue(), got.getValue(), mode);
        assertArrayEquals(want.getMetadata(), got.getMetadata(), mode);
      }
      assertNull(rows.get(JSON.length).get(2), "the null variant");
    }
  }

  /** A line without TimeType (4.0) refuses a time column by name, before any task runs. */
  private static void assertRefusedForWantOfTimeType(Path file) {
    RuntimeException error =
        assertThrows(
            RuntimeException.class,
            () -> spark.read().format("rowbridge").load(file.toString()).collectAsList());
    String message = String.valueOf(error.getMessage());
    assertTrue(message.contains("has no TIME type") && message.contains("'s'"), message);
  }

  /** Columns s, ms, us, ns: NANOS in each unit (truncated), then a null row. */
  private static Path writeTimes(Path file) throws IOException {
    Schema schema =
        new Schema(
            List.of(
                Field.nullable("s", new ArrowType.Time(TimeUnit.SECOND, 32)),
                Field.nullable("ms", new ArrowType.Time(TimeUnit.MILLISECOND, 32)),
                Field.nullable("us", new ArrowType.Time(TimeUnit.MICROSECOND, 64)),
                Field.nullable("ns", new ArrowType.Time(TimeUnit.NANOSECOND, 64))));
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      int n = NANOS.length + 1;
      root.allocateNew();
      for (int i = 0; i < NANOS.length; i++) {
        ((TimeSecVector) root.getVector(0)).set(i, (int) (NANOS[i] / 1_000_000_000L));
        ((TimeMilliVector) root.getVector(1)).set(i, (int) (NANOS[i] / 1_000_000L));
        ((TimeMicroVector) root.getVector(2)).set(i, NANOS[i] / 1_000L);
        ((TimeNanoVector) root.getVector(3)).set(i, NANOS[i]);
      }
      root.setRowCount(n);
      write(file, root);
    }
    return file;
  }

  /** Columns i and v: the variants (in Spark's Arrow form), then a null one. */
  private static void writeVariants(Path file, List<Row> variants) throws IOException {
    Field value = new Field("value", new FieldType(false, ArrowType.Binary.INSTANCE, null), null);
    Field metadata =
        new Field(
            "metadata",
            new FieldType(false, ArrowType.Binary.INSTANCE, null, Map.of("variant", "true")),
            null);
    Schema schema =
        new Schema(
            List.of(
                Field.nullable("i", new ArrowType.Int(32, true)),
                new Field(
                    "v", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(value, metadata))));
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      root.allocateNew();
      var ids = (org.apache.arrow.vector.IntVector) root.getVector(0);
      StructVector struct = (StructVector) root.getVector(1);
      VarBinaryVector values = (VarBinaryVector) struct.getChild("value");
      VarBinaryVector metadatas = (VarBinaryVector) struct.getChild("metadata");
      int n = variants.size() + 1;
      for (int i = 0; i < n; i++) {
        ids.setSafe(i, i);
        if (i < variants.size()) {
          VariantVal v = (VariantVal) variants.get(i).get(0);
          values.setSafe(i, v.getValue());
          metadatas.setSafe(i, v.getMetadata());
          struct.setIndexDefined(i);
        } else {
          values.setSafe(i, new byte[0]);
          metadatas.setSafe(i, new byte[0]);
          struct.setNull(i);
        }
      }
      values.setValueCount(n);
      metadatas.setValueCount(n);
      root.setRowCount(n);
      write(file, root);
    }
  }

  private static void write(Path file, VectorSchemaRoot root) throws IOException {
    try (FileChannel channel =
            FileChannel.open(
                file,
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        ArrowFileWriter writer = new ArrowFileWriter(root, null, channel)) {
      writer.start();
      writer.writeBatch();
      writer.end();
    }
  }
}
