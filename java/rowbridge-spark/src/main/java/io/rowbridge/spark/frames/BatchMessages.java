package io.rowbridge.spark.frames;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The IPC record batch messages of a source's batches, one message (or none) per batch, made in
 * order as they are asked for: each batch's message is made before the next batch is read, as a
 * source may reuse its batches.
 *
 * @param <B> the source's batches
 */
public abstract class BatchMessages<B> implements Iterator<byte[]> {
  private final Iterator<B> batches;
  private byte[] next;

  protected BatchMessages(Iterator<B> batches) {
    this.batches = batches;
  }

  /** The message of {@code batch}, or null when it makes none (a batch of no rows). */
  protected abstract byte[] messageOf(B batch);

  @Override
  public final boolean hasNext() {
    while (next == null && batches.hasNext()) {
      next = messageOf(batches.next());
    }
    return next != null;
  }

  @Override
  public final byte[] next() {
    if (!hasNext()) {
      throw new NoSuchElementException("rowbridge: no more batch messages");
    }
    byte[] message = next;
    next = null;
    return message;
  }
}
