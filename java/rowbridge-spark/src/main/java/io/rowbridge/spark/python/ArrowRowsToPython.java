package io.rowbridge.spark.python;

import io.rowbridge.NativeIpcWriter;
import io.rowbridge.RowStaging;
import io.rowbridge.spark.arrow.RowbridgeArrow;
import io.rowbridge.spark.arrow.StagedBatches;
import io.rowbridge.spark.memory.TaskMemoryAccounting;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.util.TaskCompletionListener;

/**
 * A task's rows on their way to a Python worker: Arrow IPC record batch messages made natively (the
 * rows are staged in native memory, decoded to Arrow and encoded by the native workers, up to
 * {@link #IN_FLIGHT} batches ahead of the task) and written straight into the worker's stream, in
 * place of Spark's {@code ArrowWriter}, framed as Spark frames them ({@link Framing}). With {@link
 * Framing#ROWS}, Spark's own stream writer has written the schema message before the first batch,
 * and writes the end of the stream after the last.
 *
 * <p>Batches hold {@link Settings#maxRows} rows each ({@code
 * spark.sql.execution.arrow.maxRecordsPerBatch}), the last one fewer, as Spark's writer cuts them.
 * Spark's writer also closes a batch once its Arrow data reaches {@link Settings#maxArrowBytes}
 * ({@code spark.sql.execution.arrow.maxBytesPerBatch}). A batch's Arrow data is at most twice its
 * rows' bytes plus {@code 16} bytes per schema node, so a batch whose rows stay below half the
 * limit is cut by the row count alone. A batch that may reach the limit is not written here: the
 * rows from its first on are handed back ({@link #handedOver}, {@link #remainingRows}, {@link
 * #remainingGroups}) for Spark's own writer, which measures them as it writes, after the batches
 * before them. Native memory (the stagings, and the encoded messages sampled at each batch) is
 * taken on the first {@link #writeNext}, accounted to the task, and freed when the rows end, at
 * {@link #close} or at the end of the task ({@link Settings#closeAtTaskEnd}). One thread at a time.
 */
public final class ArrowRowsToPython implements PythonInput {
  /** Batches encoded ahead of the one being written: the native workers' share of the work. */
  static final int IN_FLIGHT = 2;

  /** The name of the one column a map or grouped UDF's rows travel in (Spark's). */
  public static final String ONE_COLUMN = "struct";

  /** What a plan ships to its tasks: the rows' schema and the stream's Arrow settings. */
  public static final class Settings implements Serializable {
    private static final long serialVersionUID = 1L;

    final StructType rowSchema;
    final boolean inOneColumn;
    final String timeZoneId;
    final boolean largeVarTypes;
    final int maxRows;
    final long maxArrowBytes;
    final NativeIpcWriter.Codec codec;
    final int zstdLevel;
    final boolean closeAtTaskEnd;

    /**
     * @param rowSchema the rows' schema
     * @param inOneColumn whether the rows travel as one struct column named {@link #ONE_COLUMN}
     *     (map and grouped UDFs) rather than as the batch's columns
     * @param timeZoneId the session time zone, which timestamp columns carry
     * @param largeVarTypes spark.sql.execution.arrow.useLargeVarTypes
     * @param maxRows rows per batch (at least 1)
     * @param maxArrowBytes the Arrow data at which Spark's writer closes a batch (Long.MAX_VALUE:
     *     none)
     * @param codec the codec of the record batch bodies
     *     (spark.sql.execution.arrow.compression.codec)
     * @param zstdLevel ZSTD's level
     * @param closeAtTaskEnd whether the end of the task frees the native memory (false when a
     *     thread of Spark's own writes the rows and frees it when it stops)
     */
    public Settings(
        StructType rowSchema,
        boolean inOneColumn,
        String timeZoneId,
        boolean largeVarTypes,
        int maxRows,
        long maxArrowBytes,
        String codec,
        int zstdLevel,
        boolean closeAtTaskEnd) {
      if (maxRows < 1) {
        throw new IllegalArgumentException("rowbridge: " + maxRows + " rows per batch");
      }
      this.rowSchema = rowSchema;
      this.inOneColumn = inOneColumn;
      this.timeZoneId = timeZoneId;
      this.largeVarTypes = largeVarTypes;
      this.maxRows = maxRows;
      this.maxArrowBytes = maxArrowBytes;
      this.codec = NativeIpcWriter.Codec.of(codec);
      this.zstdLevel = zstdLevel;
      this.closeAtTaskEnd = closeAtTaskEnd;
    }

    /** The same settings for rows of {@code schema}, sent as the batch's columns. */
    public Settings forColumns(StructType schema) {
      return new Settings(
          schema,
          false,
          timeZoneId,
          largeVarTypes,
          maxRows,
          maxArrowBytes,
          codec.name(),
          zstdLevel,
          closeAtTaskEnd);
    }

    /** Whether the record batch bodies are compressed. */
    public boolean compressed() {
      return codec != NativeIpcWriter.Codec.NONE;
    }

    /** The schema of the stream: Spark's Arrow schema of what the worker is sent. */
    public StructType streamSchema() {
      return inOneColumn
          ? new StructType(new StructField[] {StructField.apply(ONE_COLUMN, rowSchema, true, null)})
          : rowSchema;
    }

    /** The Arrow schema of the stream, as Spark's writer writes it. */
    public Schema arrowSchema() {
      return ArrowUtils.toArrowSchema(streamSchema(), timeZoneId, true, largeVarTypes);
    }

    /**
     * Checks that the native writer takes the stream's schema; throws a RowbridgeException naming
     * the field it does not take. For the planner, which keeps Spark's operator then.
     */
    public void check() {
      makeWriter().close();
    }

    NativeIpcWriter makeWriter() {
      Schema schema = arrowSchema();
      return inOneColumn
          ? NativeIpcWriter.createStreamInOneColumn(schema, codec, zstdLevel, IN_FLIGHT)
          : NativeIpcWriter.createStream(schema, codec, zstdLevel, IN_FLIGHT);
    }

    /** The writer of {@code rows}; nothing native is taken before its first batch. */
    public ArrowRowsToPython open(Iterator<InternalRow> rows) {
      return new ArrowRowsToPython(this, Collections.singletonList(rows).iterator(), Framing.ROWS);
    }

    /** The writer of {@code groups}, framed as {@code framing} says. */
    public ArrowRowsToPython openGroups(
        Iterator<? extends Iterator<InternalRow>> groups, Framing framing) {
      return new ArrowRowsToPython(this, groups, framing);
    }
  }

  /** How the batches are framed in the worker's stream. */
  public enum Framing {
    /** One stream of batches of up to maxRows rows; Spark writes its schema and its end. */
    ROWS,
    /** One stream, one batch per group (Spark 3.5 and 4.0's grouped input). */
    BATCH_PER_GROUP,
    /**
     * A stream per group, written here: an int 1, the schema, the group's batches of up to maxRows
     * rows, the end of the stream; after the last group an int 0 (Spark 4.1's grouped input).
     */
    STREAM_PER_GROUP
  }

  private static final int FIRST_OF_GROUP = 1;
  private static final int LAST_OF_GROUP = 2;

  private final Settings settings;
  private final Iterator<? extends Iterator<InternalRow>> groups;
  private final Framing framing;

  /** Arrow bytes a batch may have beyond twice its rows' bytes: 16 per schema node. */
  private final long slackBytes;

  private StagedBatches batches;
  private NativeIpcWriter writer;

  /** The encoded messages waiting for the task, sampled at each batch; null off Spark. */
  private TaskMemoryAccounting encoded;

  private byte[] schemaMessage;

  /** Per batch with the encoders, in order: FIRST_OF_GROUP and LAST_OF_GROUP. */
  private final ArrayDeque<Integer> submitted = new ArrayDeque<>();

  private Iterator<InternalRow> group = Collections.emptyIterator();
  private boolean groupStarted;
  private boolean groupOpened;
  private boolean inputDone;
  private RowStaging handedOver;
  private boolean closed;

  private ArrowRowsToPython(
      Settings settings, Iterator<? extends Iterator<InternalRow>> groups, Framing framing) {
    this.settings = settings;
    this.groups = groups;
    this.framing = framing;
    this.slackBytes = 16L * (1 + nodes(settings.rowSchema));
  }

  /**
   * Writes the next batch's record batch message to {@code out}, with the framing around it;
   * returns false once every row has been written (after the end of the last group's stream, with
   * {@link Framing#STREAM_PER_GROUP}), or {@link #handedOver}.
   */
  @Override
  public boolean writeNext(DataOutputStream out) throws IOException {
    if (closed) {
      return false;
    }
    if (batches == null) {
      start();
    }
    while (!inputDone && writer.pending() < IN_FLIGHT) {
      stageAndSubmit();
    }
    if (writer.pending() == 0) {
      if (handedOver == null) {
        if (framing == Framing.STREAM_PER_GROUP) {
          out.writeInt(0);
        }
        close();
      }
      return false;
    }
    int flags = submitted.poll();
    if (framing == Framing.STREAM_PER_GROUP && (flags & FIRST_OF_GROUP) != 0) {
      out.writeInt(1);
      out.write(schemaMessage);
      groupOpened = true;
    }
    writer.writeOne(out);
    if (encoded != null) {
      encoded.hold(writer.bytesHeld());
    }
    if (framing == Framing.STREAM_PER_GROUP && (flags & LAST_OF_GROUP) != 0) {
      out.write(RowbridgeArrow.END_OF_STREAM);
      groupOpened = false;
    }
    return true;
  }

  /** The schema message of the stream (after the first {@link #writeNext}). */
  public byte[] schemaMessage() {
    return schemaMessage;
  }

  /** Whether the rows travel as one struct column. */
  @Override
  public boolean inOneColumn() {
    return settings.inOneColumn;
  }

  /**
   * Whether the rows from a batch that may reach {@link Settings#maxArrowBytes} on are left to
   * Spark's writer; true once {@link #writeNext} has returned false for that reason.
   */
  @Override
  public boolean handedOver() {
    return handedOver != null;
  }

  /**
   * Once {@link #handedOver}, whether the stream of the group the remaining rows start in is open
   * (its schema and earlier batches written), with {@link Framing#STREAM_PER_GROUP}.
   */
  public boolean groupOpened() {
    return groupOpened;
  }

  /**
   * The groups not written here, in order, once {@link #handedOver}: the first is the rest of the
   * group that batch belongs to (its staged rows, each valid until the next, then its unread rows),
   * then every later group. The staging stays until {@link #close}.
   */
  public Iterator<Iterator<InternalRow>> remainingGroups() {
    if (handedOver == null) {
      throw new IllegalStateException("rowbridge: the rows were not handed over");
    }
    Iterator<InternalRow> first = stagedThen(handedOver, group);
    return new Iterator<Iterator<InternalRow>>() {
      private boolean firstTaken;

      @Override
      public boolean hasNext() {
        return !firstTaken || groups.hasNext();
      }

      @Override
      public Iterator<InternalRow> next() {
        if (!firstTaken) {
          firstTaken = true;
          return first;
        }
        return groups.next();
      }
    };
  }

  /** The rows not written here, once {@link #handedOver}: the remaining groups' rows in order. */
  @Override
  public Iterator<InternalRow> remainingRows() {
    Iterator<Iterator<InternalRow>> rest = remainingGroups();
    return new Iterator<InternalRow>() {
      private Iterator<InternalRow> current = Collections.emptyIterator();

      @Override
      public boolean hasNext() {
        while (!current.hasNext() && rest.hasNext()) {
          current = rest.next();
        }
        return current.hasNext();
      }

      @Override
      public InternalRow next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return current.next();
      }
    };
  }

  /** The staged rows of {@code staged} (one reused row), then {@code rest}. */
  private Iterator<InternalRow> stagedThen(RowStaging staged, Iterator<InternalRow> rest) {
    UnsafeRow row = new UnsafeRow(settings.rowSchema.fields().length);
    return new Iterator<InternalRow>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < staged.numRows() || rest.hasNext();
      }

      @Override
      public InternalRow next() {
        if (next < staged.numRows()) {
          long start = Platform.getLong(null, staged.offsetsAddress() + 8L * next);
          long end = Platform.getLong(null, staged.offsetsAddress() + 8L * (next + 1));
          row.pointTo(null, staged.dataAddress() + start, (int) (end - start));
          next++;
          return row;
        }
        return rest.next();
      }
    };
  }

  private void start() {
    int maxRows = framing == Framing.BATCH_PER_GROUP ? Integer.MAX_VALUE - 1 : settings.maxRows;
    batches =
        new StagedBatches(
            settings.rowSchema,
            maxRows,
            Long.MAX_VALUE,
            IN_FLIGHT,
            "rowbridge's row staging for a Python worker",
            "lower spark.sql.execution.arrow.maxRecordsPerBatch (now " + settings.maxRows + ")",
            settings::makeWriter);
    writer = batches.writer();
    // Spark's stream writer has written the schema message, or each group's stream carries it.
    schemaMessage = writer.startBytes();
    TaskContext task = TaskContext.get();
    if (task != null) {
      encoded =
          new TaskMemoryAccounting(
              task.taskMemoryManager(),
              "rowbridge's encoded record batches for a Python worker",
              "lower spark.sql.execution.arrow.maxRecordsPerBatch (now " + settings.maxRows + ")");
    }
    if (settings.closeAtTaskEnd && task != null) {
      task.addTaskCompletionListener((TaskCompletionListener) context -> close());
    }
  }

  /**
   * Stages the next batch of rows (never across groups) and hands it to the encoders, or keeps it
   * for Spark's writer when its Arrow data may reach the byte limit.
   */
  private void stageAndSubmit() throws IOException {
    if (!group.hasNext()) {
      if (!groups.hasNext()) {
        inputDone = true;
        return;
      }
      group = groups.next();
      groupStarted = false;
    }
    RowStaging staging = batches.current();
    while (!staging.isFull() && group.hasNext()) {
      staging.add(group.next());
    }
    if (2 * staging.dataBytes() + slackBytes >= settings.maxArrowBytes) {
      handedOver = staging;
      inputDone = true;
      return;
    }
    if (staging.numRows() == 0) {
      return; // an empty group: nothing to send
    }
    int flags = (groupStarted ? 0 : FIRST_OF_GROUP) | (group.hasNext() ? 0 : LAST_OF_GROUP);
    groupStarted = true;
    if ((flags & LAST_OF_GROUP) != 0) {
      // Spark's grouped iterator reuses a group's iterator for the next group once that one is
      // asked for: this one is not read again.
      group = Collections.emptyIterator();
    }
    batches.submit(
        () -> {
          throw new IllegalStateException("rowbridge: more batches with the encoders than room");
        });
    submitted.add(flags);
  }

  /** The schema's nodes: every field, array element, map key and value, at any depth. */
  private static long nodes(DataType type) {
    if (type instanceof StructType struct) {
      long count = 0;
      for (StructField field : struct.fields()) {
        count += 1 + nodes(field.dataType());
      }
      return count;
    }
    if (type instanceof ArrayType array) {
      return 1 + nodes(array.elementType());
    }
    if (type instanceof MapType map) {
      return 2 + nodes(map.keyType()) + nodes(map.valueType());
    }
    return 0;
  }

  /** Frees the native memory; idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (batches != null) {
      batches.close();
    }
    if (encoded != null) {
      encoded.releaseAll();
    }
  }
}
