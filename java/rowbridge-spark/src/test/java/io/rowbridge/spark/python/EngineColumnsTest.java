package io.rowbridge.spark.python;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rowbridge.ColumnBuffers;
import io.rowbridge.RowbridgeException;
import io.rowbridge.spark.engine.EngineInput;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Another engine's flat columns, given as {@link ColumnBuffers}, into record batches for a Python
 * worker: the batches built from the buffers (plain or dictionary-encoded) must be byte-identical
 * to those built from Arrow Java vectors of the same values, range by range, with the same sizes
 * for Spark's byte limit; a column whose buffers say more than they hold must give an error naming
 * it. Values are random; the seed is printed (-Drowbridge.test.seed=SEED reruns one).
 */
class EngineColumnsTest {
  private static final int ROWS = 1000;

  private BufferAllocator allocator;
  private final List<ValueVector> vectors = new ArrayList<>();
  private Random random;

  @BeforeEach
  void start() {
    allocator = new RootAllocator();
    String given = System.getProperty("rowbridge.test.seed", "");
    long seed = given.isEmpty() ? System.nanoTime() % 1_000_000 : Long.parseLong(given.trim());
    System.out.println("EngineColumnsTest: seed " + seed + " (-Drowbridge.test.seed)");
    random = new Random(seed);
  }

  @AfterEach
  void stop() {
    vectors.forEach(ValueVector::close);
    allocator.close();
  }

  /** A reader that describes the same columns for every batch. */
  private record FixedReader(ColumnBuffers[] columns) implements EngineInput.BatchReader {
    @Override
    public boolean read(ColumnarBatch batch) {
      return true;
    }
  }

  private <V extends FieldVector> V track(V vector) {
    vectors.add(vector);
    return vector;
  }

  private FieldVector[] randomColumns() {
    IntVector ints = track(new IntVector("i", allocator));
    BigIntVector longs = track(new BigIntVector("l", allocator));
    BitVector bits = track(new BitVector("b", allocator));
    DecimalVector decimals = track(new DecimalVector("d", allocator, 20, 3));
    TimeStampMicroTZVector times = track(new TimeStampMicroTZVector("t", allocator, "UTC"));
    VarCharVector strings = track(new VarCharVector("s", allocator));
    for (FieldVector vector : List.of(ints, longs, bits, decimals, times, strings)) {
      vector.allocateNew();
    }
    for (int row = 0; row < ROWS; row++) {
      boolean isNull = random.nextInt(5) == 0;
      if (isNull) {
        ints.setNull(row);
        longs.setNull(row);
        bits.setNull(row);
        decimals.setNull(row);
        times.setNull(row);
        strings.setNull(row);
        continue;
      }
      ints.setSafe(row, random.nextInt());
      longs.setSafe(row, random.nextLong());
      bits.setSafe(row, random.nextBoolean() ? 1 : 0);
      decimals.setSafe(row, BigDecimal.valueOf(random.nextLong() % 1_000_000_000L, 3));
      times.setSafe(row, random.nextLong() >> 8);
      byte[] bytes = ("v" + "é".repeat(random.nextInt(6)) + row).getBytes(StandardCharsets.UTF_8);
      strings.setSafe(row, bytes);
    }
    FieldVector[] columns = {ints, longs, bits, decimals, times, strings};
    for (FieldVector column : columns) {
      column.setValueCount(ROWS);
    }
    return columns;
  }

  private static List<Field> fields(FieldVector[] columns) {
    List<Field> fields = new ArrayList<>();
    for (FieldVector column : columns) {
      fields.add(column.getField());
    }
    return fields;
  }

  /** {@code vector} as the primitives an engine's reader gives. */
  private static ColumnBuffers described(FieldVector vector) {
    ColumnBuffers column =
        new ColumnBuffers().layout(vector.getMinorType(), vector.getValueCount(), 0);
    column.nullCount = vector.getNullCount();
    if (vector instanceof DecimalVector decimal) {
      column.precision = decimal.getPrecision();
      column.scale = decimal.getScale();
    }
    ArrowBuf offsets =
        vector instanceof BaseVariableWidthVector variable ? variable.getOffsetBuffer() : null;
    ArrowBuf data =
        vector instanceof BaseFixedWidthVector fixed
            ? fixed.getDataBuffer()
            : ((BaseVariableWidthVector) vector).getDataBuffer();
    return column.buffers(
        vector.getValidityBuffer().memoryAddress(),
        vector.getValidityBuffer().capacity(),
        offsets == null ? 0 : offsets.memoryAddress(),
        offsets == null ? 0 : offsets.capacity(),
        data.memoryAddress(),
        data.capacity());
  }

  private ColumnarBatch batchOf(FieldVector[] columns) {
    ColumnVector[] wrapped = new ColumnVector[columns.length];
    for (int i = 0; i < columns.length; i++) {
      wrapped[i] = new ArrowColumnVector(columns[i]);
    }
    return new ColumnarBatch(wrapped, columns[0].getValueCount());
  }

  private static byte[] serialized(RecordBatchBuilder builder) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ArrowRecordBatch batch = builder.recordBatch()) {
      MessageSerializer.serialize(new WriteChannel(Channels.newChannel(bytes)), batch);
    }
    return bytes.toByteArray();
  }

  /** The same random ranges appended from the vectors and from the buffers give the same bytes. */
  private void assertSameBatches(FieldVector[] expected, ColumnBuffers[] given, List<Field> targets)
      throws IOException {
    try (RecordBatchBuilder fromVectors = new RecordBatchBuilder(targets, true, allocator);
        RecordBatchBuilder fromBuffers = new RecordBatchBuilder(targets, true, allocator);
        EngineColumns engine =
            new EngineColumns("test", new FixedReader(given), targets, allocator)) {
      ColumnBuffers[] plain = engine.read(batchOf(expected));
      for (int round = 0; round < 4; round++) {
        int position = 0;
        while (position < ROWS) {
          int take = Math.min(ROWS - position, 1 + random.nextInt(300));
          assertEquals(
              fromVectors.sparkSizeWith(expected, position, take),
              fromBuffers.sparkSizeWith(plain, position, take),
              "Spark's size of rows " + position + " to " + (position + take));
          fromVectors.append(expected, position, take);
          fromBuffers.append(plain, position, take);
          position += take;
          if (random.nextInt(3) == 0 || position == ROWS) {
            assertArrayEquals(serialized(fromVectors), serialized(fromBuffers));
            fromVectors.reset();
            fromBuffers.reset();
          }
        }
      }
    }
  }

  @Test
  void plainColumnsGiveTheVectorsBatches() throws IOException {
    FieldVector[] columns = randomColumns();
    ColumnBuffers[] given = new ColumnBuffers[columns.length];
    for (int i = 0; i < columns.length; i++) {
      given[i] = described(columns[i]);
    }
    assertSameBatches(columns, given, fields(columns));
  }

  @Test
  void dictionaryColumnsGiveTheDecodedValuesBatches() throws IOException {
    FieldVector[] plain = randomColumns();
    VarCharVector strings = (VarCharVector) plain[5];
    DecimalVector decimals = (DecimalVector) plain[3];
    // Dictionaries of the first 50 rows' values (nulls among them), and random indices into them.
    VarCharVector stringValues = track(new VarCharVector("s", allocator));
    DecimalVector decimalValues = track(new DecimalVector("d", allocator, 20, 3));
    stringValues.allocateNew();
    decimalValues.allocateNew();
    for (int i = 0; i < 50; i++) {
      stringValues.copyFromSafe(i, i, strings);
      decimalValues.copyFromSafe(i, i, decimals);
    }
    stringValues.setValueCount(50);
    decimalValues.setValueCount(50);
    IntVector indices = track(new IntVector("indices", allocator));
    indices.allocateNew(ROWS);
    VarCharVector decodedStrings = track(new VarCharVector("s", allocator));
    DecimalVector decodedDecimals = track(new DecimalVector("d", allocator, 20, 3));
    decodedStrings.allocateNew();
    decodedDecimals.allocateNew();
    for (int row = 0; row < ROWS; row++) {
      if (random.nextInt(7) == 0) {
        indices.setNull(row);
        decodedStrings.setNull(row);
        decodedDecimals.setNull(row);
      } else {
        int index = random.nextInt(50);
        indices.set(row, index);
        decodedStrings.copyFromSafe(index, row, stringValues);
        decodedDecimals.copyFromSafe(index, row, decimalValues);
      }
    }
    indices.setValueCount(ROWS);
    decodedStrings.setValueCount(ROWS);
    decodedDecimals.setValueCount(ROWS);
    ColumnBuffers stringIndices = described(indices);
    stringIndices.dictionary = described(stringValues);
    ColumnBuffers decimalIndices = described(indices);
    decimalIndices.dictionary = described(decimalValues);
    FieldVector[] expected = {decodedStrings, plain[0], decodedDecimals};
    ColumnBuffers[] given = {stringIndices, described(plain[0]), decimalIndices};
    assertSameBatches(expected, given, fields(expected));
  }

  @Test
  void aColumnOfAnotherTypeDoesNotFit() {
    FieldVector[] columns = randomColumns();
    ColumnBuffers[] given = {described(columns[0])};
    List<Field> targets = List.of(columns[1].getField()); // bigint, given int
    try (EngineColumns engine =
        new EngineColumns("test", new FixedReader(given), targets, allocator)) {
      assertNull(engine.read(batchOf(new FieldVector[] {columns[0]})));
    }
  }

  /**
   * The message of reading {@code given} as the one column, of {@code column}'s type, of a batch.
   */
  private String failure(FieldVector column, ColumnBuffers given) {
    List<Field> targets = List.of(column.getField());
    ColumnarBatch batch = new ColumnarBatch(new ColumnVector[1], ROWS);
    try (EngineColumns engine =
        new EngineColumns(
            "test", new FixedReader(new ColumnBuffers[] {given}), targets, allocator)) {
      return assertThrows(RowbridgeException.class, () -> engine.read(batch)).getMessage();
    }
  }

  @Test
  void buffersThatSayMoreThanTheyHoldAreNamed() {
    FieldVector[] columns = randomColumns();
    ColumnBuffers noBitmap = described(columns[0]);
    noBitmap.validityAddress = 0;
    noBitmap.validityCapacity = 0;
    assertTrue(failure(columns[0], noBitmap).contains("column 0 (i) of test's batch"));

    ColumnBuffers shortData = described(columns[1]);
    shortData.dataCapacity = 8L * ROWS - 1;
    assertTrue(failure(columns[1], shortData).contains("values"), failure(columns[1], shortData));

    ColumnBuffers fewValues = described(columns[2]);
    fewValues.valueCount = ROWS - 1;
    assertTrue(failure(columns[2], fewValues).contains("values for " + ROWS + " rows"));

    ColumnBuffers strings = described(columns[5]);
    strings.dataCapacity = 3; // the offsets leave the data
    assertTrue(failure(columns[5], strings).contains("has offset"), failure(columns[5], strings));
  }

  @Test
  void aDictionaryIndexOutOfRangeIsNamed() {
    FieldVector[] columns = randomColumns();
    IntVector indices = track(new IntVector("indices", allocator));
    indices.allocateNew(ROWS);
    for (int row = 0; row < ROWS; row++) {
      indices.set(row, row == 700 ? 1000 : row % 10);
    }
    indices.setValueCount(ROWS);
    VarCharVector values = (VarCharVector) columns[5];
    values.setValueCount(10);
    ColumnBuffers given = described(indices);
    given.dictionary = described(values);
    String message = failure(columns[5], given);
    assertTrue(message.contains("index 1000 at row 700"), message);
  }
}
