package io.rowbridge.spark;

import io.rowbridge.NativeMemoryListener;
import io.rowbridge.RowbridgeException;

import org.apache.spark.memory.MemoryConsumer;
import org.apache.spark.memory.TaskMemoryManager;

/**
 * Accounts a converter's native row buffers to the task's memory manager, in the task's Tungsten
 * memory mode (off-heap when spark.memory.offHeap.enabled, execution memory otherwise). The
 * buffers cannot be spilled; when the manager grants less than asked, the batch fails with a
 * RowbridgeException (ENOMEM) that names the cap to lower.
 */
final class TaskMemoryAccounting extends MemoryConsumer implements NativeMemoryListener {
  private final long maxChunkBytes;

  TaskMemoryAccounting(TaskMemoryManager manager, long maxChunkBytes) {
    super(manager, manager.getTungstenMemoryMode());
    this.maxChunkBytes = maxChunkBytes;
  }

  @Override
  public void acquire(long bytes) {
    long granted = acquireMemory(bytes);
    if (granted < bytes) {
      freeMemory(granted);
      throw new RowbridgeException("rowbridge: the task memory manager granted " + granted
          + " of the " + bytes + " bytes the native row buffer needs (" + getMode()
          + " memory, " + getUsed() + " bytes held); lower " + RowbridgeConf.MAX_CHUNK_BYTES
          + " (now " + maxChunkBytes + ") or give executors more memory",
          RowbridgeException.ENOMEM);
    }
  }

  @Override
  public void release(long bytes) {
    freeMemory(Math.min(bytes, getUsed()));
  }

  @Override
  public long spill(long size, MemoryConsumer trigger) {
    return 0; // rows of the batch being read cannot be spilled
  }
}
