package io.rowbridge.spark.memory;

import io.rowbridge.NativeMemoryListener;
import io.rowbridge.RowbridgeException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.memory.MemoryConsumer;
import org.apache.spark.memory.TaskMemoryManager;

/**
 * Accounts native memory rowbridge holds for a task (a converter's row buffers, a row-mode scan's
 * batches and row buffers) to the task's memory manager, in the task's Tungsten memory mode
 * (off-heap when spark.memory.offHeap.enabled, execution memory otherwise). Used on the task's
 * thread. The memory cannot be spilled; when the manager grants less than asked, the caller fails
 * with a RowbridgeException (ENOMEM) that names the settings to lower.
 */
public final class TaskMemoryAccounting extends MemoryConsumer implements NativeMemoryListener {
  /** Bytes accounted to tasks by every instance in this JVM now. */
  private static final AtomicLong HELD = new AtomicLong();

  private final String holder;
  private final String remedy;

  /**
   * @param holder what holds the memory, for the error ("the native row buffer")
   * @param remedy what to lower, for the error ("lower spark.rowbridge.maxChunkBytes (now 64m)")
   */
  public TaskMemoryAccounting(TaskMemoryManager manager, String holder, String remedy) {
    super(manager, manager.getTungstenMemoryMode());
    this.holder = holder;
    this.remedy = remedy;
  }

  /** The native bytes rowbridge holds for tasks in this JVM now, as accounted to them. */
  public static long heldInThisJvm() {
    return HELD.get();
  }

  @Override
  public void acquire(long bytes) {
    long granted = acquireMemory(bytes);
    HELD.addAndGet(granted);
    if (granted < bytes) {
      freeMemory(granted);
      HELD.addAndGet(-granted);
      throw new RowbridgeException(
          "rowbridge: the task memory manager granted "
              + granted
              + " of the "
              + bytes
              + " bytes "
              + holder
              + " needs ("
              + getMode()
              + " memory, "
              + getUsed()
              + " bytes held); "
              + remedy
              + " or give executors more memory",
          RowbridgeException.ENOMEM);
    }
  }

  @Override
  public void release(long bytes) {
    long freed = Math.min(bytes, getUsed());
    freeMemory(freed);
    HELD.addAndGet(-freed);
  }

  /**
   * Acquires or releases the difference so that the bytes held become {@code bytes}: the native
   * side's current count, sampled at each batch. Throws as {@link #acquire} when refused (what was
   * held before stays held: {@link #releaseAll} at close gives it back).
   */
  public void hold(long bytes) {
    long used = getUsed();
    if (bytes > used) {
      acquire(bytes - used);
    } else if (bytes < used) {
      release(used - bytes);
    }
  }

  /** Releases everything held; idempotent. */
  public void releaseAll() {
    release(getUsed());
  }

  @Override
  public long spill(long size, MemoryConsumer trigger) {
    return 0; // native batches and rows being read cannot be spilled
  }
}
