package io.rowbridge.spark.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.rowbridge.spark.RowbridgeExtensions;
import io.rowbridge.spark.SortedAnswer;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Arrow extension types through {@code format("rowbridge")} (CONTRACTS.md §2), over the extension
 * case of make_source_files.py: arrow.json, arrow.uuid, arrow.bool8 and an unregistered extension
 * over a struct, a dictionary, a list's elements and a struct's child. They read as their storage
 * types (SourceTypesTest compares their rows byte for byte with Spark's), each StructField keeping
 * the extension's name and metadata; {@code df.write.format("rowbridge")} writes the extensions
 * back, and pyarrow reads them as its extension types.
 */
class ExtensionTypesTest {
  private static final String NAME = "ARROW:extension:name";
  private static final String METADATA = "ARROW:extension:metadata";

  private static SparkSession spark;
  private static Path files;

  @BeforeAll
  static void start(@TempDir Path dir) throws Exception {
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("rowbridge-extension-types-test")
            .config("spark.sql.extensions", RowbridgeExtensions.class.getName())
            .config("spark.ui.enabled", "false")
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate();
    files = dir.resolve("pyarrow");
    PyarrowFiles.write(files);
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  private static Dataset<Row> read(Path path) {
    return spark.read().format("rowbridge").load(path.toString());
  }

  /** "name=metadata" of a field's extension, or "" for a field without one. */
  private static String extension(Metadata metadata) {
    if (!metadata.contains(NAME)) {
      return "";
    }
    return metadata.getString(NAME) + "=" + metadata.getString(METADATA);
  }

  /** Each field's extension, by path ("inner.a"), where there is one. */
  private static Map<String, String> extensions(StructType schema, String prefix) {
    Map<String, String> out = new LinkedHashMap<>();
    for (StructField field : schema.fields()) {
      String path = prefix + field.name();
      if (!extension(field.metadata()).isEmpty()) {
        out.put(path, extension(field.metadata()));
      }
      if (field.dataType() instanceof StructType struct) {
        out.putAll(extensions(struct, path + "."));
      }
    }
    return out;
  }

  /** Each field's extension in an Arrow schema, by path, where there is one. */
  private static Map<String, String> extensions(List<Field> fields, String prefix) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Field field : fields) {
      String path = prefix + field.getName();
      Map<String, String> metadata = field.getMetadata();
      if (metadata.containsKey(NAME)) {
        out.put(path, metadata.get(NAME) + "=" + metadata.getOrDefault(METADATA, ""));
      }
      out.putAll(extensions(field.getChildren(), path + "."));
    }
    return out;
  }

  /** The extensions of the source file that a Spark schema can hold: not a list's elements. */
  private static Map<String, String> sparkExtensions() {
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("json", "arrow.json=");
    expected.put("uuid", "arrow.uuid=");
    expected.put("bool8", "arrow.bool8=");
    expected.put("point", "example.unregistered=v1");
    expected.put("label", "example.unregistered=v1");
    expected.put("inner.a", "example.unregistered=v1");
    return expected;
  }

  @Test
  void extensionsReadAsTheirStorageAndKeepTheirNames() {
    Dataset<Row> frame = read(files.resolve("extension.arrow"));
    Dataset<Row> storage = read(files.resolve("extension.readable.arrow"));
    // catalogString leaves field metadata out, so nested types compare by type alone.
    assertEquals(
        "struct<json:string,uuid:binary,bool8:tinyint,point:struct<x:double,tag:string>,"
            + "label:string,items:array<smallint>,inner:struct<a:bigint,b:string>>",
        frame.schema().catalogString());
    assertEquals(storage.schema().catalogString(), frame.schema().catalogString());
    assertEquals(sparkExtensions(), extensions(frame.schema(), ""));
    assertEquals(Map.of(), extensions(storage.schema(), ""));
    assertEquals(SortedAnswer.of(storage), SortedAnswer.of(frame));
    assertEquals(
        SortedAnswer.of(storage.selectExpr("json", "bool8", "inner.a")),
        SortedAnswer.of(frame.selectExpr("json", "bool8", "inner.a")));
  }

  @Test
  void writesPutTheExtensionsBack(@TempDir Path dir) throws Exception {
    Dataset<Row> frame = read(files.resolve("extension.arrow"));
    Path out = dir.resolve("written");
    frame.write().format("rowbridge").save(out.toString());
    List<Path> written = new ArrayList<>();
    try (Stream<Path> listed = Files.list(out)) {
      listed.filter(f -> f.getFileName().toString().endsWith(".arrow")).forEach(written::add);
    }
    assertFalse(written.isEmpty(), "no file written under " + out);
    // arrow.uuid is left out: rows decode it to binary, which Arrow readers refuse it over.
    Map<String, String> expected = new LinkedHashMap<>(sparkExtensions());
    expected.remove("uuid");
    try (BufferAllocator allocator = new RootAllocator()) {
      for (Path file : written) {
        try (ArrowFileReader reader = new ArrowFileReader(FileChannel.open(file), allocator)) {
          Schema schema = reader.getVectorSchemaRoot().getSchema();
          assertEquals(expected, extensions(schema.getFields(), ""), file.toString());
        }
      }
    }
    assertEquals(
        "json extension<arrow.json>\nbool8 extension<arrow.bool8>\nuuid binary",
        pyarrowTypes(written.get(0), "json", "bool8", "uuid"));
    Dataset<Row> back = read(out);
    assertEquals(expected, extensions(back.schema(), ""));
    assertEquals(SortedAnswer.of(frame), SortedAnswer.of(back));
  }

  /** The types pyarrow reads for the given columns of {@code file}, "NAME TYPE" per line. */
  private static String pyarrowTypes(Path file, String... columns)
      throws IOException, InterruptedException {
    String python = System.getProperty("rowbridge.test.python", "build/venv/bin/python3");
    String program =
        "import sys, pyarrow.ipc as ipc\n"
            + "schema = ipc.open_file(sys.argv[1]).schema\n"
            + "print('\\n'.join(c + ' ' + str(schema.field(c).type) for c in sys.argv[2:]))";
    List<String> command = new ArrayList<>(List.of(python, "-c", program, file.toString()));
    command.addAll(List.of(columns));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String log = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), "pyarrow failed to read " + file + ": " + log);
    return log.trim();
  }
}
