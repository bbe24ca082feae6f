package io.rowbridge.spark;

import io.rowbridge.SparkTypes;
import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * A DataSource V2 test source whose scan yields batches of ArrowColumnVectors, as an Arrow-native
 * producer does. Columns: id bigint, k int (id % 7), s string (null every 11th), d double, dec
 * decimal(20,4), ts timestamp, arr array<int>, st struct<a:int,b:string>, m map<string,bigint>.
 * Options: rows (per partition), partitions, batchRows, constantEvery (every n-th batch has k as a
 * ConstantColumnVector of 42, which only Spark's own path reads), offset (added to id). Supports
 * column pruning.
 */
public final class ArrowTestSource implements TableProvider {
  static List<Field> fields() {
    Field entries =
        new Field(
            "entries",
            FieldType.notNullable(new ArrowType.Struct()),
            List.of(
                Field.notNullable("key", new ArrowType.Utf8()),
                Field.nullable("value", new ArrowType.Int(64, true))));
    return List.of(
        Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.notNullable("k", new ArrowType.Int(32, true)),
        Field.nullable("s", new ArrowType.Utf8()),
        Field.nullable("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
        Field.nullable("dec", new ArrowType.Decimal(20, 4, 128)),
        Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
        new Field(
            "arr",
            FieldType.nullable(new ArrowType.List()),
            List.of(Field.nullable("element", new ArrowType.Int(32, true)))),
        new Field(
            "st",
            FieldType.nullable(new ArrowType.Struct()),
            List.of(
                Field.nullable("a", new ArrowType.Int(32, true)),
                Field.nullable("b", new ArrowType.Utf8()))),
        new Field("m", FieldType.nullable(new ArrowType.Map(false)), List.of(entries)));
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return SparkTypes.of(fields(), null);
  }

  @Override
  public Table getTable(
      StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return new TestTable(schema);
  }

  @Override
  public boolean supportsExternalMetadata() {
    return false;
  }

  static final class TestTable implements Table, SupportsRead {
    private final StructType schema;

    TestTable(StructType schema) {
      this.schema = schema;
    }

    @Override
    public String name() {
      return "arrow_test_source";
    }

    @Override
    public StructType schema() {
      return schema;
    }

    @Override
    public Set<TableCapability> capabilities() {
      return Set.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
      return new TestScan(schema, options);
    }
  }

  /** Options of a scan, sent to the executors. */
  record Settings(int rows, int partitions, int batchRows, int constantEvery, long offset)
      implements Serializable {
    static Settings of(CaseInsensitiveStringMap options) {
      return new Settings(
          options.getInt("rows", 1000),
          options.getInt("partitions", 2),
          options.getInt("batchRows", 128),
          options.getInt("constantEvery", 0),
          options.getLong("offset", 0));
    }
  }

  record Partition(int index, Settings settings, String[] columns) implements InputPartition {}

  static final class TestScan implements ScanBuilder, SupportsPushDownRequiredColumns, Scan, Batch {
    private StructType schema;
    private final Settings settings;

    TestScan(StructType schema, CaseInsensitiveStringMap options) {
      this.schema = schema;
      this.settings = Settings.of(options);
    }

    @Override
    public void pruneColumns(StructType required) {
      schema = required;
    }

    @Override
    public Scan build() {
      return this;
    }

    @Override
    public StructType readSchema() {
      return schema;
    }

    @Override
    public Batch toBatch() {
      return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
      InputPartition[] partitions = new InputPartition[settings.partitions()];
      for (int i = 0; i < partitions.length; i++) {
        partitions[i] = new Partition(i, settings, schema.fieldNames());
      }
      return partitions;
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
      return new ReaderFactory();
    }
  }

  static final class ReaderFactory implements PartitionReaderFactory {
    @Override
    public boolean supportColumnarReads(InputPartition partition) {
      return true;
    }

    @Override
    public PartitionReader<org.apache.spark.sql.catalyst.InternalRow> createReader(
        InputPartition partition) {
      throw new UnsupportedOperationException("columnar reads only");
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
      return new Reader((Partition) partition);
    }
  }

  /** Yields the partition's rows in batches; each batch stays open until the next. */
  static final class Reader implements PartitionReader<ColumnarBatch> {
    private final Partition partition;
    private final BufferAllocator allocator = new RootAllocator();
    private ColumnarBatch current;
    private int produced;
    private int batchIndex;

    Reader(Partition partition) {
      this.partition = partition;
    }

    @Override
    public boolean next() {
      closeCurrent();
      Settings settings = partition.settings();
      if (produced >= settings.rows()) {
        return false;
      }
      int rows = Math.min(settings.batchRows(), settings.rows() - produced);
      long firstId = settings.offset() + (long) partition.index() * settings.rows() + produced;
      boolean constant =
          settings.constantEvery() > 0
              && batchIndex % settings.constantEvery() == settings.constantEvery() - 1;
      List<Field> all = fields();
      ColumnVector[] columns = new ColumnVector[partition.columns().length];
      for (int c = 0; c < columns.length; c++) {
        String name = partition.columns()[c];
        Field field = all.stream().filter(f -> f.getName().equals(name)).findFirst().orElseThrow();
        if (constant && name.equals("k")) {
          ConstantColumnVector k = new ConstantColumnVector(rows, DataTypes.IntegerType);
          k.setInt(42);
          columns[c] = k;
        } else {
          FieldVector vector = field.createVector(allocator);
          fill(vector, name, firstId, rows);
          columns[c] = new ArrowColumnVector(vector);
        }
      }
      current = new ColumnarBatch(columns, rows);
      produced += rows;
      batchIndex++;
      return true;
    }

    @Override
    public ColumnarBatch get() {
      return current;
    }

    private void closeCurrent() {
      if (current != null) {
        current.close();
        current = null;
      }
    }

    @Override
    public void close() {
      closeCurrent();
      allocator.close();
    }
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static void fill(FieldVector vector, String name, long firstId, int rows) {
    vector.setInitialCapacity(rows);
    vector.allocateNew();
    for (int r = 0; r < rows; r++) {
      long id = firstId + r;
      switch (name) {
        case "id":
          ((BigIntVector) vector).set(r, id);
          break;
        case "k":
          ((IntVector) vector).set(r, (int) (id % 7));
          break;
        case "s":
          if (id % 11 == 0) {
            ((VarCharVector) vector).setNull(r);
          } else {
            ((VarCharVector) vector)
                .setSafe(
                    r,
                    utf8(
                        id % 3 == 0
                            ? ""
                            : "s"
                                + (id % 13)
                                + (id % 2 == 0 ? " a string beyond the inline size, é" : "")));
          }
          break;
        case "d":
          if (id % 17 == 0) {
            ((Float8Vector) vector).setNull(r);
          } else {
            ((Float8Vector) vector).set(r, id * 0.25 - 100);
          }
          break;
        case "dec":
          ((DecimalVector) vector).setSafe(r, BigDecimal.valueOf(id * 1234567L - 99999L, 4));
          break;
        case "ts":
          ((TimeStampMicroTZVector) vector).set(r, 1_700_000_000_000_000L + id * 1_000_003L);
          break;
        case "arr":
          {
            ListVector list = (ListVector) vector;
            if (id % 9 == 0) {
              list.setNull(r);
              break;
            }
            IntVector element = (IntVector) list.getDataVector();
            int start = list.startNewValue(r);
            int size = (int) (id % 4);
            for (int i = 0; i < size; i++) {
              if ((id + i) % 5 == 0) {
                element.setNull(start + i);
              } else {
                element.setSafe(start + i, (int) (id * 10 + i));
              }
            }
            list.endValue(r, size);
            break;
          }
        case "st":
          {
            StructVector struct = (StructVector) vector;
            if (id % 10 == 0) {
              struct.setNull(r);
              break;
            }
            ((IntVector) struct.getChild("a")).setSafe(r, (int) (id % 100));
            ((VarCharVector) struct.getChild("b")).setSafe(r, utf8("b" + (id % 6)));
            struct.setIndexDefined(r);
            break;
          }
        case "m":
          {
            MapVector map = (MapVector) vector;
            StructVector entries = (StructVector) map.getDataVector();
            VarCharVector keys = (VarCharVector) entries.getChild("key");
            BigIntVector values = (BigIntVector) entries.getChild("value");
            int start = map.startNewValue(r);
            int size = (int) (id % 3);
            for (int i = 0; i < size; i++) {
              keys.setSafe(start + i, utf8("k" + i));
              if (i == 1 && id % 2 == 0) {
                values.setNull(start + i);
              } else {
                values.setSafe(start + i, id + i);
              }
              entries.setIndexDefined(start + i);
            }
            map.endValue(r, size);
            break;
          }
        default:
          throw new IllegalArgumentException(name);
      }
    }
    vector.setValueCount(rows);
  }

  /** The Spark schema of the source's columns, for tests. */
  static StructType schema() {
    return new StructType(
        new ArrayList<>(List.of(SparkTypes.of(fields(), null).fields()))
            .toArray(new StructField[0]));
  }
}
