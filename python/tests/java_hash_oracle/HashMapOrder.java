// The oracle of test_java_hash.py: the iteration order of real java.util.HashMaps.
//
// Run as a single source file (java HashMapOrder.java). It prints the JVM's feature version on
// the first line, then reads one case per line of standard input, "MODE KEY KEY ...", and
// prints one line per case:
//
//   sized     new HashMap<>(number of keys), each key put in turn (keys may repeat): per entry
//             in iteration order, "first:last", the positions of its key's first and last put
//   default   the same with new HashMap<>()
//   pyrolite  distinct keys in a pickled dict's order, unpickled as Pyrolite does: a new
//             HashMap<>() that each batch of 1000 keys reaches through putAll of a HashMap
//             filled with the batch from its last key to its first; per entry, its position
//
// A key is its class's letter and its value: s and the UTF-16 code units in hex, four digits
// each (String); i and l decimal (Integer, Long); d and f the raw bits in hex (Double, Float);
// b unscaled:scale in decimal (BigDecimal); z 0 or 1 (Boolean).

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class HashMapOrder {
  private static final int PICKLE_BATCH = 1000;

  public static void main(String[] args) throws Exception {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
    PrintWriter out = new PrintWriter(System.out);
    out.println(Runtime.version().feature());
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] fields = line.trim().split(" ");
      List<Object> keys = new ArrayList<>();
      for (int i = 1; i < fields.length; i++) {
        keys.add(parse(fields[i]));
      }
      StringBuilder text = new StringBuilder();
      switch (fields[0]) {
        case "sized":
          putEach(new HashMap<>(keys.size()), keys, text);
          break;
        case "default":
          putEach(new HashMap<>(), keys, text);
          break;
        case "pyrolite":
          unpickle(keys, text);
          break;
        default:
          throw new IllegalArgumentException("unknown mode " + fields[0]);
      }
      out.println(text.toString().trim());
    }
    out.flush();
  }

  private static void putEach(Map<Object, int[]> map, List<Object> keys, StringBuilder text) {
    for (int position = 0; position < keys.size(); position++) {
      int[] seen = map.get(keys.get(position));
      if (seen == null) {
        map.put(keys.get(position), new int[] {position, position});
      } else {
        seen[1] = position;
      }
    }
    for (int[] seen : map.values()) {
      text.append(seen[0]).append(':').append(seen[1]).append(' ');
    }
  }

  private static void unpickle(List<Object> keys, StringBuilder text) {
    Map<Object, Integer> dict = new HashMap<>();
    for (int start = 0; start < keys.size(); start += PICKLE_BATCH) {
      Map<Object, Integer> batch = new HashMap<>();
      for (int p = Math.min(start + PICKLE_BATCH, keys.size()) - 1; p >= start; p--) {
        batch.put(keys.get(p), p);
      }
      dict.putAll(batch);
    }
    if (dict.size() != keys.size()) {
      throw new IllegalArgumentException("pyrolite keys must be distinct");
    }
    for (int position : dict.values()) {
      text.append(position).append(' ');
    }
  }

  private static Object parse(String field) {
    String value = field.substring(1);
    switch (field.charAt(0)) {
      case 's':
        char[] units = new char[value.length() / 4];
        for (int i = 0; i < units.length; i++) {
          units[i] = (char) Integer.parseInt(value.substring(4 * i, 4 * i + 4), 16);
        }
        return new String(units);
      case 'i':
        return Integer.valueOf(value);
      case 'l':
        return Long.valueOf(value);
      case 'd':
        return Double.longBitsToDouble(Long.parseUnsignedLong(value, 16));
      case 'f':
        return Float.intBitsToFloat(Integer.parseUnsignedInt(value, 16));
      case 'b':
        String[] parts = value.split(":");
        return new BigDecimal(new BigInteger(parts[0]), Integer.parseInt(parts[1]));
      case 'z':
        return value.equals("1");
      default:
        throw new IllegalArgumentException("unknown key " + field);
    }
  }
}
