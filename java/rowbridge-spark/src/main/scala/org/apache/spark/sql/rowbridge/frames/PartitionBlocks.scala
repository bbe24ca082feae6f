// In Spark's package for the Spark-private API it uses: SparkEnv's BlockManager, ChunkedByteBuffer
// and Utils (private[spark]).
package org.apache.spark.sql.rowbridge.frames

import java.io.{InputStream, OutputStream}
import java.nio.ByteBuffer

import scala.collection.mutable
import scala.concurrent.Await
import scala.concurrent.duration.Duration
import scala.util.{Failure, Success}

import scala.jdk.CollectionConverters._

import io.rowbridge.spark.frames.LimitedMessages

import org.apache.arrow.vector.types.pojo.Schema
import org.apache.spark.{SparkEnv, SparkException}
import org.apache.spark.rdd.RDD
import org.apache.spark.storage.{ByteBufferBlockData, RDDBlockId, StorageLevel}
import org.apache.spark.util.Utils
import org.apache.spark.util.io.ChunkedByteBuffer

/** A job's partitions of Arrow IPC messages streamed to one output in partition order, through
  * Spark's block managers rather than as task results. In `org.apache.spark` for the block manager,
  * its block ids and ChunkedByteBuffer, which are Spark-private.
  *
  * Each task puts its partition's messages, as they are, into its executor's block manager as one
  * block (an RDDBlockId of the messages' RDD, MEMORY_AND_DISK_SER: on disk under memory pressure),
  * and its result is only the block's size. The driver writes the blocks in partition order as
  * their tasks finish, reading each from where it is (its own block manager in local mode, an
  * executor's otherwise), and removes each once written; so the driver holds one partition's bytes
  * at a time, never the result, and no byte goes through Spark's task-result serialization. Blocks
  * of attempts that lost (a failed job, a speculative copy) are removed with the RDD's blocks at
  * the end.
  *
  * `spark.driver.maxResultSize` is kept: when the blocks' sizes pass it, the job is cancelled and
  * Spark's own error is raised. A failed job raises its error.
  */
object PartitionBlocks {

  /** Where the blocks of the last stream were read from: in this JVM's memory, from its disk, from
    * another JVM's block manager (for tests and diagnostics).
    */
  @volatile private var lastSources = Array(0, 0, 0)

  /** The blocks of the last stream read from memory, from local disk and remotely. */
  def lastStreamSources(): Array[Int] = lastSources.clone()

  private val started = new java.util.concurrent.atomic.AtomicLong()

  /** The streams started in this JVM (for tests and diagnostics). */
  def streams(): Long = started.get()

  /** Writes every partition's messages of `messages` to `out` in partition order; with a `limit`
    * (rows, and the Arrow schema of the batches), only the first rows: the partitions after it are
    * not waited for, and the message that crosses it is cut ([[LimitedMessages]]).
    */
  def stream(
      messages: RDD[Array[Byte]],
      out: OutputStream,
      maxResultSize: Long,
      limit: Option[(Long, Schema)] = None
  ): Unit = {
    val sources = Array(0, 0, 0)
    lastSources = sources
    started.incrementAndGet()
    val context = messages.sparkContext
    val rddId = messages.id
    val partitions = messages.getNumPartitions
    val sizes = mutable.HashMap.empty[Int, Long]
    val rowCounts = mutable.HashMap.empty[Int, Long]
    var total = 0L
    var tooLarge: Option[String] = None
    val put = (batches: Iterator[Array[Byte]]) => store(rddId, batches)
    val arrived = (index: Int, stored: (Long, Long)) =>
      sizes.synchronized {
        val (size, rows) = stored
        sizes(index) = size
        rowCounts(index) = rows
        total += size
        if (maxResultSize > 0 && total > maxResultSize && tooLarge.isEmpty) {
          tooLarge = Some(
            "Job aborted due to stage failure: Total size of serialized results of " +
              s"${sizes.size} tasks (${Utils.bytesToString(total)}) is bigger than " +
              s"spark.driver.maxResultSize (${Utils.bytesToString(maxResultSize)})"
          )
        }
        sizes.notifyAll()
      }
    val job = context.submitJob[Array[Byte], (Long, Long), Unit](
      messages,
      put,
      0 until partitions,
      arrived,
      ()
    )
    var rowsLeft = limit.map(_._1).getOrElse(Long.MaxValue)
    try {
      for (next <- 0 until partitions if rowsLeft > 0) {
        val size = sizes.synchronized {
          while (!sizes.contains(next) && tooLarge.isEmpty && !job.isCompleted) {
            sizes.wait(50)
          }
          tooLarge.foreach { message =>
            job.cancel()
            throw new SparkException(message)
          }
          sizes.get(next)
        }
        size match {
          case Some(bytes) if bytes > 0 && limit.isDefined =>
            val rows = sizes.synchronized(rowCounts(next))
            val id = RDDBlockId(rddId, next)
            if (rows <= rowsLeft) sources(write(id, out)) += 1
            else sources(writeHead(id, out, rowsLeft, limit.get._2)) += 1
            rowsLeft -= math.min(rows, rowsLeft)
          case Some(bytes) => if (bytes > 0) sources(write(RDDBlockId(rddId, next), out)) += 1
          case None        => // the job ended before this partition arrived
            failure(job.value)
            throw new SparkException(s"rowbridge: partition $next of a finished job is missing")
        }
      }
      out.flush()
      if (rowsLeft > 0) { // else the rows are written: the partitions still running are not needed
        Await.ready(job, Duration.Inf)
        failure(job.value)
      }
    } finally {
      if (!job.isCompleted) job.cancel()
      SparkEnv.get.blockManager.master.removeRdd(rddId, false)
    }
  }

  /** In a task: puts the partition's messages as its block; returns the block's size and rows. */
  private def store(rddId: Int, batches: Iterator[Array[Byte]]): (Long, Long) = {
    val messages = batches.toArray
    val rows = messages.iterator.map(LimitedMessages.rows).sum
    val buffers = messages.map(ByteBuffer.wrap)
    val size = buffers.iterator.map(_.remaining.toLong).sum
    if (size > 0) {
      val id = RDDBlockId(rddId, org.apache.spark.TaskContext.getPartitionId())
      val blocks = SparkEnv.get.blockManager
      // An earlier attempt's, if it stored one here (removing none would log a warning).
      if (blocks.getStatus(id).isDefined) blocks.removeBlock(id, true)
      val stored = blocks.putBytes(
        id,
        new ChunkedByteBuffer(buffers),
        StorageLevel.MEMORY_AND_DISK_SER,
        true
      )
      if (!stored) {
        throw new SparkException(s"rowbridge: the block manager did not store $id ($size bytes)")
      }
    }
    (size, rows)
  }

  /** Writes the messages of a block's first `rows` rows to `out` (the message that crosses them
    * cut), then removes the block; returns where it was, as [[write]] does.
    */
  private def writeHead(id: RDDBlockId, out: OutputStream, rows: Long, schema: Schema): Int = {
    val buffer = new java.io.ByteArrayOutputStream()
    val source = write(id, buffer)
    val bytes = java.nio.ByteBuffer.wrap(buffer.toByteArray).order(java.nio.ByteOrder.LITTLE_ENDIAN)
    val messages = Iterator
      .continually {
        if (!bytes.hasRemaining) null
        else {
          val start = bytes.position()
          val metadataLength = bytes.getInt(start + 4)
          val header = org.apache.arrow.flatbuf.Message.getRootAsMessage(
            bytes.duplicate().position(start + 8).slice().order(java.nio.ByteOrder.LITTLE_ENDIAN)
          )
          val length = 8 + metadataLength + header.bodyLength().toInt
          val message = new Array[Byte](length)
          bytes.get(message)
          message
        }
      }
      .takeWhile(_ != null)
    new LimitedMessages(messages.asJava, rows, schema).asScala.foreach(m => out.write(m))
    source
  }

  /** Writes a block to `out` from wherever it is, then removes it; returns where it was: 0 in
    * memory here, 1 on disk here, 2 in another JVM.
    */
  private def write(id: RDDBlockId, out: OutputStream): Int = {
    val blocks = SparkEnv.get.blockManager
    val source = blocks.getLocalBytes(id) match {
      case Some(data) =>
        try {
          data match {
            case inMemory: ByteBufferBlockData =>
              writeChunks(inMemory.buffer, out)
              0
            case onDisk =>
              val in = onDisk.toInputStream()
              try copy(in, out)
              finally in.close()
              1
          }
        } finally blocks.releaseLockAndDispose(id, data)
      case None =>
        val bytes = blocks.getRemoteBytes(id).getOrElse {
          throw new SparkException(s"rowbridge: block $id of a finished task is gone")
        }
        try writeChunks(bytes, out)
        finally bytes.dispose()
        2
    }
    blocks.master.removeBlock(id)
    source
  }

  /** An output that can keep a block's arrays rather than copy them: [[write]] hands it each heap
    * chunk that is a whole array, which nothing writes to again.
    */
  trait TakesArrays { this: OutputStream =>

    /** Takes `bytes` (the next bytes of the stream) as they are. */
    def take(bytes: Array[Byte]): Unit
  }

  /** The chunks' bytes to `out`: a heap chunk straight from its array (or the array itself, to an
    * output that [[TakesArrays]]), others through a buffer.
    */
  private def writeChunks(bytes: ChunkedByteBuffer, out: OutputStream): Unit = {
    lazy val transfer = new Array[Byte](Transfer)
    bytes.getChunks().foreach { chunk =>
      val whole = chunk.hasArray && chunk.arrayOffset == 0 && chunk.position() == 0 &&
        chunk.remaining == chunk.array.length
      if (whole && out.isInstanceOf[TakesArrays]) {
        out.asInstanceOf[TakesArrays].take(chunk.array)
      } else if (chunk.hasArray) {
        out.write(chunk.array, chunk.arrayOffset + chunk.position(), chunk.remaining)
      } else {
        while (chunk.hasRemaining) {
          val n = math.min(chunk.remaining, Transfer)
          chunk.get(transfer, 0, n)
          out.write(transfer, 0, n)
        }
      }
    }
  }

  private def copy(in: InputStream, out: OutputStream): Unit = {
    val transfer = new Array[Byte](Transfer)
    var n = in.read(transfer)
    while (n >= 0) {
      out.write(transfer, 0, n)
      n = in.read(transfer)
    }
  }

  /** The bytes of a copy through a buffer: large writes, few system calls. */
  private val Transfer = 1 << 20

  /** Throws the job's error when it failed. */
  private def failure(value: Option[scala.util.Try[Unit]]): Unit = value match {
    case Some(Failure(error)) => throw error
    case Some(Success(_))     => ()
    case None                 => throw new SparkException("rowbridge: the job ended with no result")
  }
}
