package io.rowbridge;

/**
 * Told how many bytes of native memory a converter's row buffers hold, so that a host (Spark's task
 * memory manager) can account for them. Called on the converting thread: {@link #acquire} when the
 * converter's buffers have grown (after the growth), {@link #release} once at close with everything
 * acquired. {@code acquire} may throw to refuse the memory; the converter then rethrows it from the
 * convert call.
 */
public interface NativeMemoryListener {
  void acquire(long bytes);

  void release(long bytes);
}
