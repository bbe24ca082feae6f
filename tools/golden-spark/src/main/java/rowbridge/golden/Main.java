package rowbridge.golden;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Golden-vector generator: Arrow batches plus the exact bytes of the UnsafeRows that Spark's own
 * UnsafeProjection writes for them. Usage: Main OUT_DIR (normally tests/golden).
 */
public final class Main {

  /** One golden case. */
  public record Case(String dir, String name, List<Col> cols, List<Object[]> rows,
      List<Col> readCols, List<Object[]> readRows) {
    public Case(String dir, String name, List<Col> cols, List<Object[]> rows) {
      this(dir, name, cols, rows, null, null);
    }
  }

  static final List<String> NOTES = new ArrayList<>();

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args.length > 0 ? args[0] : "../../tests/golden").toAbsolutePath()
        .normalize();
    for (String d : List.of("flat", "nested", "derived")) {
      Path dir = out.resolve(d);
      Files.createDirectories(dir);
      try (var files = Files.list(dir)) { // drop outputs of cases that no longer exist
        for (Path p : files.toList()) {
          String f = p.getFileName().toString();
          if (f.endsWith(".json") || f.endsWith(".arrow")) {
            Files.delete(p);
          }
        }
      }
    }
    List<Case> cases = new ArrayList<>();
    cases.addAll(FlatCases.all());
    cases.addAll(NestedCases.all());
    cases.addAll(DerivedCases.all());
    cases.addAll(EncodedCases.all());
    try (BufferAllocator alloc = new RootAllocator(Long.MAX_VALUE)) {
      for (Case c : cases) {
        run(alloc, out, c);
      }
      String probe = Probe.run(alloc);
      Files.writeString(out.resolve("type_mapping.txt"), probe, StandardCharsets.UTF_8);
    }
    StringBuilder sb = new StringBuilder();
    for (String n : NOTES) {
      sb.append(n).append('\n');
    }
    Files.writeString(out.resolve("findings.txt"), sb.toString(), StandardCharsets.UTF_8);
    System.out.println("golden-spark: wrote " + cases.size() + " cases to " + out);
    System.out.print(sb);
  }

  static void note(String s) {
    NOTES.add(s);
  }

  static List<Col> nameCols(List<Col> in) {
    List<Col> cols = new ArrayList<>();
    for (int i = 0; i < in.size(); i++) {
      Col col = in.get(i);
      cols.add(col.name().isEmpty() ? col.named("c" + i) : col);
    }
    return cols;
  }

  static List<Enc.Node> encodeAll(String name, List<Col> cols, List<Object[]> rows) {
    List<Enc.Node> nodes = new ArrayList<>();
    for (int i = 0; i < cols.size(); i++) {
      List<Object> vals = new ArrayList<>(rows.size());
      for (Object[] r : rows) {
        if (r.length != cols.size()) {
          throw new IllegalStateException(name + ": row width " + r.length);
        }
        vals.add(r[i]);
      }
      nodes.add(Enc.encode(cols.get(i), vals));
    }
    return nodes;
  }

  static Schema schemaOf(List<Col> cols) {
    List<Field> fields = new ArrayList<>();
    for (Col col : cols) {
      fields.add(col.toField());
    }
    return new Schema(fields);
  }

  static VectorSchemaRoot load(BufferAllocator alloc, Schema schema, int n,
      List<Enc.Node> nodes) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, alloc);
    try (ArrowRecordBatch rb = Enc.toRecordBatch(alloc, n, nodes)) {
      new VectorLoader(root).load(rb);
    }
    for (FieldVector v : root.getFieldVectors()) {
      // Arrow Java 18.3's validators are wrong for decimals of exactly p digits (they use <)
      // and for maps (MapVector is checked as a List), so only the structural check, and not
      // for maps.
      if (!hasMap(v.getField())) {
        v.validate();
      }
    }
    return root;
  }

  static void run(BufferAllocator alloc, Path out, Case c) throws IOException {
    int n = c.rows().size();
    List<Col> cols = nameCols(c.cols());
    List<Enc.Node> nodes = encodeAll(c.name(), cols, c.rows());
    Schema schema = schemaOf(cols);
    // what Spark reads: the input itself, or (derived cases) the equivalent converted by CONTRACTS.md §2
    List<Col> readCols = c.readCols() == null ? cols : nameCols(c.readCols());
    Schema readSchema = schemaOf(readCols);
    List<Enc.Node> readNodes = c.readCols() == null ? nodes
        : encodeAll(c.name(), readCols, c.readRows());
    StructType derived = ArrowUtils.fromArrowSchema(readSchema);
    StructType bySpec;
    try {
      bySpec = SpecTypes.schema(schema);
    } catch (IllegalArgumentException e) {
      note(c.name() + ": CONTRACTS.md §2 has no mapping (" + e.getMessage() + "); Spark reads it as "
          + derived.catalogString());
      bySpec = derived;
    }
    if (!derived.equals(bySpec)) {
      note(c.name() + ": Spark-derived schema " + derived.catalogString()
          + " differs from CONTRACTS.md §2 schema " + bySpec.catalogString());
    }

    List<String> rows;
    List<String> rowsReused;
    List<String> rowsInterp;
    // Arrow Java cannot load every layout (list_view, dictionaries, run-end encoding): such an
    // input gets no .arrow file, and Spark reads its plain equivalent (readCols).
    boolean javaLoadable = cols.stream().allMatch(Col::javaLoadable);
    try (VectorSchemaRoot inRoot = javaLoadable ? load(alloc, schema, n, nodes) : null;
        VectorSchemaRoot root = c.readCols() == null ? null
            : load(alloc, readSchema, n, readNodes)) {
      VectorSchemaRoot sparkRoot = root == null ? inRoot : root;
      ColumnVector[] cvs = new ColumnVector[sparkRoot.getFieldVectors().size()];
      for (int i = 0; i < cvs.length; i++) {
        cvs[i] = new ArrowColumnVector(sparkRoot.getVector(i));
        if (!cvs[i].dataType().equals(derived.fields()[i].dataType())) {
          throw new IllegalStateException("column type mismatch in " + c.name());
        }
      }
      ColumnarBatch batch = new ColumnarBatch(cvs, n);
      rows = project(batch, derived, true);
      rowsReused = project(batch, derived, false);
      SQLConf conf = SQLConf.get();
      conf.setConfString("spark.sql.codegen.factoryMode", "NO_CODEGEN");
      try {
        rowsInterp = project(batch, derived, true);
      } finally {
        conf.unsetConf("spark.sql.codegen.factoryMode");
      }
      if (inRoot != null) {
        writeIpc(out.resolve(c.dir()).resolve(c.name() + ".arrow"), inRoot);
      }
    }
    if (!rowsInterp.equals(rows)) {
      note(c.name() + ": interpreted UnsafeProjection differs from generated code at rows "
          + diffRows(rows, rowsInterp));
    }

    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("case", c.name());
    doc.put("spark_schema", derived.catalogString());
    if (c.readCols() != null) {
      List<Object> fmts = new ArrayList<>();
      for (Col rc : readCols) {
        fmts.add(Enc.format(rc.type()));
      }
      doc.put("derived_from", "Spark cannot read this input; rows are Spark's projection of "
          + "the same values converted per CONTRACTS.md §2 into Arrow types " + fmts);
    }
    Map<String, Object> top = new LinkedHashMap<>();
    top.put("format", "+s");
    top.put("name", "");
    top.put("nullable", false);
    List<Object> kids = new ArrayList<>();
    for (Col col : cols) {
      kids.add(schemaJson(col));
    }
    top.put("children", kids);
    top.put("dictionary", null);
    doc.put("schema", top);
    Map<String, Object> batchJson = new LinkedHashMap<>();
    batchJson.put("length", n);
    batchJson.put("null_count", 0);
    batchJson.put("offset", 0);
    List<Object> nb = new ArrayList<>();
    nb.add(null);
    batchJson.put("buffers", nb);
    List<Object> bk = new ArrayList<>();
    for (Enc.Node node : nodes) {
      bk.add(arrayJson(node));
    }
    batchJson.put("children", bk);
    batchJson.put("dictionary", null);
    doc.put("batch", batchJson);
    doc.put("rows", rows);
    if (!rowsReused.equals(rows)) {
      note(c.name() + ": a projection reused across rows leaves different bytes than a fresh"
          + " one at rows " + diffRows(rows, rowsReused)
          + " (stale buffer contents); \"rows\" holds the fresh-projection bytes,"
          + " \"rows_reused_projection\" the reused ones");
      doc.put("rows_reused_projection", rowsReused);
    }
    Files.writeString(out.resolve(c.dir()).resolve(c.name() + ".json"), Json.write(doc),
        StandardCharsets.UTF_8);
    System.out.println("  " + c.dir() + "/" + c.name() + ": " + n + " rows, "
        + derived.catalogString());
  }

  static boolean hasMap(Field f) {
    if (f.getType() instanceof org.apache.arrow.vector.types.pojo.ArrowType.Map) {
      return true;
    }
    for (Field k : f.getChildren()) {
      if (hasMap(k)) {
        return true;
      }
    }
    return false;
  }

  static String diffRows(List<String> a, List<String> b) {
    List<Integer> d = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).equals(b.get(i))) {
        d.add(i);
      }
    }
    return d.toString();
  }

  /**
   * Projects every row of the batch. With {@code fresh}, each row gets a new UnsafeProjection
   * (hence a new zeroed buffer), so its bytes depend on that row alone; otherwise one projection
   * is reused for the whole batch, as Spark does.
   */
  static List<String> project(ColumnarBatch batch, StructType schema, boolean fresh) {
    List<String> out = new ArrayList<>();
    UnsafeProjection proj = UnsafeProjection.create(schema);
    if (!proj.getClass().getName().contains("Interpreted")
        == "NO_CODEGEN".equals(SQLConf.get().getConfString("spark.sql.codegen.factoryMode",
            "FALLBACK"))) {
      throw new IllegalStateException("unexpected projection class " + proj.getClass());
    }
    Iterator<InternalRow> it = batch.rowIterator();
    while (it.hasNext()) {
      InternalRow r = it.next();
      if (fresh) {
        proj = UnsafeProjection.create(schema);
      }
      UnsafeRow u = proj.apply(r);
      byte[] b = u.getBytes();
      if (b.length != u.getSizeInBytes() || b.length % 8 != 0) {
        throw new IllegalStateException("bad row size " + b.length + "/" + u.getSizeInBytes());
      }
      out.add(Json.hex(b)); // hexed at once: getBytes() may alias the projection's buffer
    }
    return out;
  }

  static void writeIpc(Path p, VectorSchemaRoot root) throws IOException {
    try (FileOutputStream fos = new FileOutputStream(p.toFile());
        ArrowFileWriter w = new ArrowFileWriter(root, null, Channels.newChannel(fos))) {
      w.start();
      w.writeBatch();
      w.end();
    }
  }

  static Map<String, Object> schemaJson(Col c) {
    Map<String, Object> m = new LinkedHashMap<>();
    if (c.dictionaryIndex() != null) {
      m.put("format", Enc.format(c.dictionaryIndex()));
      m.put("name", c.name());
      m.put("nullable", c.nullable());
      m.put("children", new ArrayList<>());
      m.put("dictionary", schemaJson(c.plain().named("")));
      return m;
    }
    m.put("format", Enc.format(c.type()));
    m.put("name", c.name());
    m.put("nullable", c.nullable());
    List<Object> kids = new ArrayList<>();
    for (Col k : c.children()) {
      kids.add(schemaJson(k));
    }
    m.put("children", kids);
    m.put("dictionary", null);
    if (!c.metadata().isEmpty()) {
      m.put("metadata", new java.util.TreeMap<>(c.metadata()));
    }
    return m;
  }

  static Map<String, Object> arrayJson(Enc.Node n) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("length", n.length);
    m.put("null_count", n.nullCount);
    m.put("offset", 0);
    List<Object> bufs = new ArrayList<>();
    for (byte[] b : n.buffers) {
      bufs.add(Json.hex(b));
    }
    m.put("buffers", bufs);
    List<Object> kids = new ArrayList<>();
    for (Enc.Node k : n.children) {
      kids.add(arrayJson(k));
    }
    m.put("children", kids);
    m.put("dictionary", n.dictionary == null ? null : arrayJson(n.dictionary));
    return m;
  }
}
