package io.rowbridge;

/** A memory listener that keeps the bytes it was told are held. */
final class CountingListener implements NativeMemoryListener {
  long held;

  @Override
  public void acquire(long bytes) {
    held += bytes;
  }

  @Override
  public void release(long bytes) {
    held -= bytes;
  }
}
