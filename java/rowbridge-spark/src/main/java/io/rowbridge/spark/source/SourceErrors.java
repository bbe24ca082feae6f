package io.rowbridge.spark.source;

/** Messages of the source's errors: each names the file (and the batches) and the problem. */
final class SourceErrors {
  private SourceErrors() {}

  /**
   * "rowbridge: cannot read FILE (batches a-b): PROBLEM"; the native message is kept whole (it may
   * name the file too). {@code firstBatch} &lt; 0: the footer.
   */
  static String describe(String file, int firstBatch, int batchCount, Throwable problem) {
    String where =
        firstBatch < 0
            ? " (footer)"
            : batchCount < 0
                ? " (batches " + firstBatch + "-)"
                : batchCount == 1
                    ? " (batch " + firstBatch + ")"
                    : " (batches " + firstBatch + "-" + (firstBatch + batchCount - 1) + ")";
    return "rowbridge: cannot read " + file + where + ": " + problem.getMessage();
  }
}
