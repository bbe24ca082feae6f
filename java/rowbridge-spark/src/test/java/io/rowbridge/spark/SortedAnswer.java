package io.rowbridge.spark;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** A query's answer as the Spark suites compare it: each row's text, sorted. */
public final class SortedAnswer {
  private SortedAnswer() {}

  public static List<String> of(Dataset<Row> frame) {
    List<String> rows = new ArrayList<>();
    frame.collectAsList().forEach(row -> rows.add(row.toString()));
    rows.sort(null);
    return rows;
  }
}
