package io.rowbridge.demo;

import java.util.List;

/** The ways a query reads its tables, for the demonstration's and the benchmark's tables. */
final class Variant {
  private Variant() {}

  static String label(String variant) {
    switch (variant) {
      case "rowbridge":
        return "rowbridge";
      case "spark-c2r":
        return "rowbridge+Spark C2R";
      case "rows":
        return "rowbridge rows";
      case "parquet":
        return "Parquet";
      default:
        throw new IllegalArgumentException(
            "unknown variant " + variant + " (rowbridge, spark-c2r, rows, parquet)");
    }
  }

  static String legend(List<String> variants) {
    StringBuilder legend = new StringBuilder();
    for (String variant : variants) {
      String text;
      switch (variant) {
        case "rowbridge":
          text = "rowbridge = format(\"rowbridge\") columnar + rowbridge's row conversion";
          break;
        case "spark-c2r":
          text = "rowbridge+Spark C2R = the same batches, Spark's own ColumnarToRow";
          break;
        case "rows":
          text = "rowbridge rows = mode rows, rows converted in the native scan's workers";
          break;
        default:
          text = "Parquet = Spark's vectorized Parquet reader on the copy Spark wrote";
      }
      legend.append(legend.length() == 0 ? "" : "\n   ").append(text);
    }
    return legend.toString();
  }
}
