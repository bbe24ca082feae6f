package io.rowbridge;

import java.util.function.BooleanSupplier;

/**
 * The interruption check of a thread waiting for native workers: polled at each wake-up, it cancels
 * the native work and throws when the check says so (or fails).
 */
public final class Interruption {
  private Interruption() {}

  /**
   * Polls {@code interrupted} (null: never); when it returns true, runs {@code cancel} and throws a
   * {@link RowbridgeException} (ECANCELED) with {@code message}. When it throws, runs {@code
   * cancel} and lets the exception through.
   */
  public static void check(BooleanSupplier interrupted, Runnable cancel, String message) {
    if (interrupted == null) {
      return;
    }
    boolean stop;
    try {
      stop = interrupted.getAsBoolean();
    } catch (RuntimeException | Error e) {
      cancel.run();
      throw e;
    }
    if (stop) {
      cancel.run();
      throw new RowbridgeException(message, RowbridgeException.ECANCELED);
    }
  }
}
