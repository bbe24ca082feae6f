package io.rowbridge.comet;

/** The seeds of the randomized tests: -Drowbridge.test.seed reruns one; each is printed. */
final class TestSeeds {
  private TestSeeds() {}

  /** The seed of {@code test} (named in the printed line). */
  static long of(String test) {
    String given = System.getProperty("rowbridge.test.seed", "");
    long seed = given.isEmpty() ? System.nanoTime() : Long.parseLong(given.trim());
    System.out.println(test + ": seed " + seed + " (-Drowbridge.test.seed)");
    return seed;
  }
}
