package io.rowbridge.spark;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import scala.collection.Iterable;

/**
 * A query's answer as the Spark suites compare it: each row's text, sorted. Values print by
 * content, binary ones as hex (a byte array's own toString is its identity).
 */
public final class SortedAnswer {
  private SortedAnswer() {}

  public static List<String> of(Dataset<Row> frame) {
    List<String> rows = new ArrayList<>();
    frame.collectAsList().forEach(row -> rows.add(text(row)));
    rows.sort(null);
    return rows;
  }

  private static String text(Object value) {
    if (value instanceof byte[] bytes) {
      return "0x" + HexFormat.of().formatHex(bytes);
    }
    if (value instanceof Row row) {
      StringBuilder out = new StringBuilder("[");
      for (int i = 0; i < row.length(); i++) {
        out.append(i == 0 ? "" : ",").append(text(row.get(i)));
      }
      return out.append(']').toString();
    }
    if (value instanceof scala.collection.Map<?, ?> map) {
      StringBuilder out = new StringBuilder("Map(");
      map.foreach(
          entry -> out.append(text(entry._1())).append("->").append(text(entry._2())).append(','));
      return out.append(')').toString();
    }
    if (value instanceof Iterable<?> items) {
      StringBuilder out = new StringBuilder("Seq(");
      items.foreach(item -> out.append(text(item)).append(','));
      return out.append(')').toString();
    }
    return String.valueOf(value);
  }
}
