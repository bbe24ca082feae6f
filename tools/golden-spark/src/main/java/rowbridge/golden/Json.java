package rowbridge.golden;

import java.util.List;
import java.util.Map;

/** Minimal deterministic JSON writer (objects are LinkedHashMaps, arrays are Lists). */
public final class Json {
  private Json() {}

  public static String write(Object v) {
    StringBuilder sb = new StringBuilder();
    write(sb, v, 0, null);
    sb.append('\n');
    return sb.toString();
  }

  static boolean scalar(Object v) {
    return !(v instanceof Map) && !(v instanceof List);
  }

  static void indent(StringBuilder sb, int d) {
    sb.append('\n');
    for (int i = 0; i < d; i++) {
      sb.append("  ");
    }
  }

  static void write(StringBuilder sb, Object v, int d, String key) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof String s) {
      str(sb, s);
    } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long) {
      sb.append(v);
    } else if (v instanceof Map<?, ?> m) {
      if (m.isEmpty()) {
        sb.append("{}");
        return;
      }
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        indent(sb, d + 1);
        str(sb, (String) e.getKey());
        sb.append(": ");
        write(sb, e.getValue(), d + 1, (String) e.getKey());
      }
      indent(sb, d);
      sb.append('}');
    } else if (v instanceof List<?> l) {
      boolean inline = l.stream().allMatch(Json::scalar) && !"rows".equals(key)
          && (key == null || !key.startsWith("rows_"));
      if (l.isEmpty()) {
        sb.append("[]");
        return;
      }
      sb.append('[');
      for (int i = 0; i < l.size(); i++) {
        if (i > 0) {
          sb.append(inline ? ", " : ",");
        }
        if (!inline) {
          indent(sb, d + 1);
        }
        write(sb, l.get(i), d + 1, null == key ? "" : key + "[]");
      }
      if (!inline) {
        indent(sb, d);
      }
      sb.append(']');
    } else {
      throw new IllegalArgumentException("cannot write " + v.getClass());
    }
  }

  static void str(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        case '\r' -> sb.append("\\r");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }

  public static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder(b.length * 2);
    for (byte x : b) {
      sb.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
    }
    return sb.toString();
  }
}
