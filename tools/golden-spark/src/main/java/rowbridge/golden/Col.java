package rowbridge.golden;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/** A column (Arrow field) description used by the case tables. */
public record Col(String name, ArrowType type, boolean nullable, List<Col> children) {

  public Field toField() {
    List<Field> kids = new ArrayList<>();
    for (Col c : children) {
      kids.add(c.toField());
    }
    return new Field(name, new FieldType(nullable, type, null), kids);
  }

  public Col named(String n) {
    return new Col(n, type, nullable, children);
  }

  public Col notNull() {
    return new Col(name, type, false, children);
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

  static Col struct(Col... fields) { return of(ArrowType.Struct.INSTANCE, fields); }

  static Col map(Col key, Col value) {
    Col entries = new Col("entries", ArrowType.Struct.INSTANCE, false,
        List.of(key.named("key").notNull(), value.named("value")));
    return of(new ArrowType.Map(false), entries);
  }
}
