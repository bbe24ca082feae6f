package io.rowbridge.demo;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A query of the demonstration, or of the data source benchmark (io.rowbridge.bench.SourceBench).
 * {@code {record}} and {@code {nested}} stand for the tables of the variant being run. Answers are
 * exact (integer sums, counts, min/max), so every variant must give the same. {@code sink}: the
 * rows are written to Spark's no-op sink (every row materialised, none collected; no answer to
 * compare).
 */
public record Query(String name, String sql, boolean sink) {
  static List<Query> demo() {
    return List.of(
        new Query(
            "filter",
            "SELECT a, b, round(c, 3) AS c, d FROM {record} "
                + "WHERE d LIKE '%77777' AND b < 500000 ORDER BY a LIMIT 8",
            false),
        new Query(
            "aggregation",
            "SELECT b % 4 AS bucket, count(*) AS n, sum(a) AS sum_a, max(c) AS max_c, "
                + "max(d) AS max_d FROM {record} GROUP BY 1 ORDER BY 1",
            false),
        new Query(
            "join",
            "SELECT size(n.ints) AS ints, count(*) AS n, sum(r.b) AS sum_b, "
                + "sum(n.tags['k1']) AS sum_k1, max(n.s.b) AS max_label "
                + "FROM {record} r JOIN {nested} n ON r.a = n.id GROUP BY 1 ORDER BY 1",
            false),
        new Query(
            "nested",
            "SELECT n.s.a % 3 AS k, count(*) AS n, sum(size(n.points)) AS points, "
                + "max(p.y) AS max_y FROM {nested} n LATERAL VIEW OUTER explode(n.points) t AS p "
                + "GROUP BY 1 ORDER BY 1",
            false));
  }

  /** Runs the query on the views of {@code variant} (TABLE_VARIANT); returns the answer. */
  List<String> run(SparkSession spark, String variant) {
    Dataset<Row> frame =
        spark.sql(
            sql.replace("{record}", "record_" + variant).replace("{nested}", "nested_" + variant));
    List<String> answer = new ArrayList<>();
    if (sink) {
      frame.write().format("noop").mode("overwrite").save();
      answer.add("(every row written to the no-op sink)");
      return answer;
    }
    answer.add(String.join(" | ", frame.columns()));
    for (Row row : frame.collectAsList()) {
      answer.add(row.mkString(" | "));
    }
    return answer;
  }
}
