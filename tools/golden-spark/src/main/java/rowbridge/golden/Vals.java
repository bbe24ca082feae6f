package rowbridge.golden;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;

/** Value model used by the cases. */
public final class Vals {
  private Vals() {}

  /** float32 given by its raw IEEE bits. */
  public record F32(int bits) {}

  /** float64 given by its raw IEEE bits. */
  public record F64(long bits) {}

  /** interval[month_day_nano] value. */
  public record Mdn(int months, int days, long nanos) {}

  /**
   * A null (validity bit clear) whose value bytes are nevertheless written as {@code v}
   * ("garbage under nulls"; variable-width values keep a non-empty range).
   */
  public record NullWith(Object v) {}

  /** A map value: an ordered list of key/value pairs. */
  public record MapVal(List<Object[]> entries) {}

  public static F32 f32(float f) { return new F32(Float.floatToRawIntBits(f)); }
  public static F64 f64(double d) { return new F64(Double.doubleToRawLongBits(d)); }
  public static BigInteger big(String s) { return new BigInteger(s); }
  public static BigInteger big(long v) { return BigInteger.valueOf(v); }
  public static Object[] st(Object... fields) { return fields; }
  public static List<Object> ls(Object... elems) { return Arrays.asList(elems); }

  public static MapVal mp(Object... kv) {
    List<Object[]> e = new java.util.ArrayList<>();
    for (int i = 0; i < kv.length; i += 2) {
      e.add(new Object[] {kv[i], kv[i + 1]});
    }
    return new MapVal(e);
  }

  public static byte[] bytes(int... b) {
    byte[] r = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      r[i] = (byte) b[i];
    }
    return r;
  }
}
