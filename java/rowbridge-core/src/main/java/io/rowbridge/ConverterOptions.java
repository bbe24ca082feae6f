package io.rowbridge;

import io.rowbridge.shim.SparkTypeShim;
import java.util.Objects;
import org.apache.arrow.vector.dictionary.DictionaryProvider;

/** How a {@link RowbridgeConverter} checks its input, chunks its output and hands out rows. */
public final class ConverterOptions {
  /** How much of each batch is checked before conversion (rowbridge.h, RowbridgeValidation). */
  public enum Validation {
    /** Lengths, buffer sizes, null counts and row sizes: O(columns). For trusted producers. */
    CHEAP,
    /** Also every offset, view, dictionary index and run end: O(values). For untrusted data. */
    FULL
  }

  /** How a batch's buffers reach the native converter. */
  public enum Input {
    /**
     * Java writes the buffer addresses into the converter's registered ArrowArray and makes one JNI
     * call with primitive arguments; nothing is allocated per batch. The default.
     */
    REGISTERED,
    /**
     * Arrow Java's C Data export ({@code Data.exportVectorSchemaRoot}, needs arrow-c-data on the
     * class path) into an ArrowArray allocated once, then released after the batch: for comparison,
     * and for producers whose vectors only Arrow's exporter understands.
     */
    C_DATA
  }

  /**
   * Which instruction set the native kernels are built for (rowbridge.h, RowbridgeKernels). The
   * rows never depend on it; a set the CPU or the library lacks is refused when the converter is
   * made.
   */
  public enum Kernels {
    /** The best set the CPU runs. The default. Each ordinal is the native enum value. */
    AUTO,
    PORTABLE,
    AVX2,
    AVX512
  }

  /**
   * How nested and string columns are written (rowbridge.h, RowbridgeNestedWriter). The rows never
   * depend on it.
   */
  public enum NestedWriter {
    /**
     * The depth-first writer for the schemas it is faster on, the level writer otherwise. Each
     * ordinal is the native enum value.
     */
    AUTO,
    /** One pass per row over every nested and string column, where the schema allows it. */
    DEPTH_FIRST,
    /** One pass per column and nesting level over a tile of rows. */
    LEVELS
  }

  /** The default cap on one output chunk: 64 MiB of rows. */
  public static final long DEFAULT_MAX_CHUNK_BYTES = 64L << 20;

  private Validation validation = Validation.CHEAP;
  private long maxChunkBytes = DEFAULT_MAX_CHUNK_BYTES;
  private boolean variants = SparkTypeShim.hasVariant();
  private boolean copyRows;
  private Input input = Input.REGISTERED;
  private NativeMemoryListener memoryListener;
  private DictionaryProvider dictionaries;
  private boolean timed;
  private Kernels kernels = Kernels.AUTO;
  private NestedWriter nestedWriter = NestedWriter.AUTO;

  public static ConverterOptions defaults() {
    return new ConverterOptions();
  }

  public Validation validation() {
    return validation;
  }

  public ConverterOptions validation(Validation value) {
    this.validation = value;
    return this;
  }

  /**
   * The most bytes of rows the native output buffer holds at once: a larger batch is converted in
   * several chunks, and a single row larger than this is an error (E2BIG).
   */
  public long maxChunkBytes() {
    return maxChunkBytes;
  }

  public ConverterOptions maxChunkBytes(long value) {
    if (value <= 0) {
      throw new IllegalArgumentException("maxChunkBytes must be positive: " + value);
    }
    this.maxChunkBytes = value;
    return this;
  }

  /**
   * Whether a struct in Spark's variant form is a VariantType (the default on Spark 4.0+) or a
   * struct (always on Spark 3.5, which has no VariantType), as this Spark line reads it.
   */
  public boolean variants() {
    return variants;
  }

  public ConverterOptions variants(boolean value) {
    if (value && !SparkTypeShim.hasVariant()) {
      throw new IllegalArgumentException("this Spark line has no VariantType");
    }
    this.variants = value;
    return this;
  }

  public Kernels kernels() {
    return kernels;
  }

  public ConverterOptions kernels(Kernels value) {
    this.kernels = Objects.requireNonNull(value, "kernels");
    return this;
  }

  public NestedWriter nestedWriter() {
    return nestedWriter;
  }

  public ConverterOptions nestedWriter(NestedWriter value) {
    this.nestedWriter = Objects.requireNonNull(value, "nestedWriter");
    return this;
  }

  /**
   * Copying mode. Off (the default): {@link RowbridgeConverter#row()} returns one reused UnsafeRow
   * pointing into native memory, valid until the next row, batch or close (Spark's row reuse
   * contract). On: every row is copied into its own on-heap UnsafeRow, for consumers that keep rows
   * (collect, broadcast, caches).
   */
  public boolean copyRows() {
    return copyRows;
  }

  public ConverterOptions copyRows(boolean value) {
    this.copyRows = value;
    return this;
  }

  public Input input() {
    return input;
  }

  /** How each batch's buffers reach the native converter; read when the converter is made. */
  public ConverterOptions input(Input value) {
    this.input = value;
    return this;
  }

  public NativeMemoryListener memoryListener() {
    return memoryListener;
  }

  /** Told about the native row buffers' size; null (the default) for none. */
  public ConverterOptions memoryListener(NativeMemoryListener value) {
    this.memoryListener = value;
    return this;
  }

  public boolean timed() {
    return timed;
  }

  /**
   * Whether the converter adds up the wall time of its conversions (the convert and next-chunk
   * calls, two clock reads each) for {@link RowbridgeConverter#conversionNanos()}; off by default.
   */
  public ConverterOptions timed(boolean value) {
    this.timed = value;
    return this;
  }

  public DictionaryProvider dictionaries() {
    return dictionaries;
  }

  /** The dictionaries of dictionary-encoded columns (Arrow Java keeps them apart from vectors). */
  public ConverterOptions dictionaries(DictionaryProvider value) {
    this.dictionaries = value;
    return this;
  }
}
