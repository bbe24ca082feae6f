package rowbridge.golden;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * A column (Arrow field) description used by the case tables. With {@code dictionaryIndex}, the
 * column is dictionary-encoded: indices of that type over a dictionary of {@code type}.
 */
public record Col(String name, ArrowType type, boolean nullable, List<Col> children,
    ArrowType.Int dictionaryIndex, Map<String, String> metadata) {

  public Col(String name, ArrowType type, boolean nullable, List<Col> children,
      ArrowType.Int dictionaryIndex) {
    this(name, type, nullable, children, dictionaryIndex, Map.of());
  }

  public Col(String name, ArrowType type, boolean nullable, List<Col> children) {
    this(name, type, nullable, children, null);
  }

  public Field toField() {
    List<Field> kids = new ArrayList<>();
    for (Col c : children) {
      kids.add(c.toField());
    }
    DictionaryEncoding encoding =
        dictionaryIndex == null ? null : new DictionaryEncoding(0, false, dictionaryIndex);
    return new Field(name, new FieldType(nullable, type, encoding,
        metadata.isEmpty() ? null : metadata), kids);
  }

  public Col named(String n) {
    return new Col(n, type, nullable, children, dictionaryIndex, metadata);
  }

  public Col notNull() {
    return new Col(name, type, false, children, dictionaryIndex, metadata);
  }

  /** The same column with plain values (no dictionary). */
  public Col plain() {
    return new Col(name, type, nullable, children, null, metadata);
  }

  /** The same column with field metadata. */
  public Col withMetadata(Map<String, String> m) {
    return new Col(name, type, nullable, children, dictionaryIndex, m);
  }

  /**
   * True when Arrow Java 18.3 can load this column from its buffers and write it to an IPC file
   * (no dictionary, list_view or run_end_encoded node anywhere in it).
   */
  public boolean javaLoadable() {
    if (dictionaryIndex != null || type instanceof ArrowType.ListView
        || type instanceof ArrowType.LargeListView || type instanceof ArrowType.RunEndEncoded) {
      return false;
    }
    for (Col c : children) {
      if (!c.javaLoadable()) {
        return false;
      }
    }
    return true;
  }

  // ---- factories (all nullable, name filled in by the case) ----

  static Col of(ArrowType t, Col... kids) {
    return new Col("", t, true, Arrays.asList(kids));
  }

  static Col bool() { return of(ArrowType.Bool.INSTANCE); }
  static Col i8() { return of(new ArrowType.Int(8, true)); }
  static Col i16() { return of(new ArrowType.Int(16, true)); }
  static Col i32() { return of(new ArrowType.Int(32, true)); }
  static Col i64() { return of(new ArrowType.Int(64, true)); }
  static Col f32() { return of(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)); }
  static Col f64() { return of(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)); }
  static Col dec(int p, int s) { return of(new ArrowType.Decimal(p, s, 128)); }
  static Col utf8() { return of(ArrowType.Utf8.INSTANCE); }
  static Col largeUtf8() { return of(ArrowType.LargeUtf8.INSTANCE); }
  static Col binary() { return of(ArrowType.Binary.INSTANCE); }
  static Col largeBinary() { return of(ArrowType.LargeBinary.INSTANCE); }
  static Col date32() { return of(new ArrowType.Date(DateUnit.DAY)); }
  static Col tsUs(String tz) { return of(new ArrowType.Timestamp(TimeUnit.MICROSECOND, tz)); }
  static Col time64ns() { return of(new ArrowType.Time(TimeUnit.NANOSECOND, 64)); }
  static Col nul() { return of(ArrowType.Null.INSTANCE); }
  static Col intervalYm() { return of(new ArrowType.Interval(IntervalUnit.YEAR_MONTH)); }
  static Col intervalMdn() { return of(new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO)); }
  static Col durationUs() { return of(new ArrowType.Duration(TimeUnit.MICROSECOND)); }

  static Col list(Col elem) { return of(ArrowType.List.INSTANCE, elem.named("item")); }

  static Col largeList(Col elem) { return of(ArrowType.LargeList.INSTANCE, elem.named("item")); }

  static Col fixedList(int n, Col elem) {
    return of(new ArrowType.FixedSizeList(n), elem.named("item"));
  }

  static Col listView(Col elem) { return of(ArrowType.ListView.INSTANCE, elem.named("item")); }

  static Col largeListView(Col elem) {
    return of(ArrowType.LargeListView.INSTANCE, elem.named("item"));
  }

  /** {@code values} dictionary-encoded with signed indices of {@code bits} bits. */
  static Col dict(int bits, Col values) {
    return new Col("", values.type(), true, values.children(), new ArrowType.Int(bits, true));
  }

  /** {@code values} run-end encoded with int32 run ends. */
  static Col ree(Col values) {
    return of(ArrowType.RunEndEncoded.INSTANCE, i32().named("run_ends").notNull(),
        values.named("values"));
  }

  static Col struct(Col... fields) { return of(ArrowType.Struct.INSTANCE, fields); }

  /**
   * A variant as Spark's ArrowUtils writes it (values: Object[] {value bytes, metadata bytes}):
   * children value and metadata, not null, only metadata tagged variant=true.
   */
  static Col variant() {
    return struct(binary().named("value").notNull(),
        binary().named("metadata").notNull().withMetadata(Map.of("variant", "true")));
  }

  static Col map(Col key, Col value) {
    Col entries = new Col("entries", ArrowType.Struct.INSTANCE, false,
        List.of(key.named("key").notNull(), value.named("value")));
    return of(new ArrowType.Map(false), entries);
  }
}
