// In Spark Connect's package for the server API it uses: ExecuteHolder and its response observer
// (private[connect]).
package org.apache.spark.sql.connect.rowbridge

import java.io.{ByteArrayOutputStream, OutputStream}
import java.nio.{ByteBuffer, ByteOrder}
import java.nio.channels.Channels

import io.rowbridge.spark.arrow.RowbridgeArrow

import org.apache.arrow.flatbuf.{MessageHeader, RecordBatch}
import org.apache.arrow.vector.{VectorSchemaRoot, VectorUnloader}
import org.apache.arrow.vector.ipc.{ReadChannel, WriteChannel}
import org.apache.arrow.vector.ipc.message.MessageSerializer
import org.apache.arrow.vector.types.pojo.Schema
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.classic.{Dataset => ClassicDataset}
import org.apache.spark.sql.connect.common.DataTypeProtoConverter
import org.apache.spark.sql.connect.service.ExecuteHolder
import org.apache.spark.sql.execution.SQLExecution
import org.apache.spark.sql.rowbridge.frames.{ArrowFrames, PartitionBlocks}
import org.apache.spark.sql.util.ArrowUtils
import org.sparkproject.connect.protobuf.{ByteString, UnsafeByteOperations}

/** A DataFrame's rows to a Spark Connect client as Connect's own responses, made by rowbridge: the
  * schema, then Arrow batches in partition order (each response's data one IPC stream: the schema
  * message, one record batch, the end-of-stream marker), as Spark's SparkConnectPlanExecution sends
  * them, so the client's own toArrow and toPandas code reads them.
  *
  * The batches are [[ArrowFrames.batchMessages]]: a columnar plan's own Arrow vectors, or rows
  * through rowbridge's decoder. They reach the driver through the block managers
  * ([[PartitionBlocks]]), which keeps `spark.driver.maxResultSize` and Spark's error, and are sent
  * as each partition's turn comes; the driver holds one partition's messages at a time. A batch is
  * sent whole, in one response, whatever its size.
  */
private[rowbridge] object ConnectArrowResults {

  /** Bytes of the frame header before each record batch message in a partition's block: the batch's
    * rows (8 bytes) and the message's length (4 bytes), little-endian.
    */
  private val HeaderBytes = 12

  def send(plan: LogicalPlan, holder: ExecuteHolder): Unit = {
    val session = holder.sessionHolder.session
    val dataset = ClassicDataset.ofRows(session, plan)
    val timeZoneId = session.sessionState.conf.sessionLocalTimeZone
    val responses = new ConnectResponses(holder)
    responses.schema(DataTypeProtoConverter.toConnectProtoType(dataset.schema))
    val schemaBytes = ByteString.copyFrom(RowbridgeArrow.schemaMessage(dataset, timeZoneId))
    val endOfStream = ByteString.copyFrom(RowbridgeArrow.END_OF_STREAM)
    var offset = 0L
    var sent = 0
    val sink = new FrameSink((rows, message) => {
      val data = schemaBytes.concat(UnsafeByteOperations.unsafeWrap(message)).concat(endOfStream)
      responses.batch(rows, offset, data)
      offset += rows
      sent += 1
    })
    val maxResultSize = session.sparkContext.conf.getSizeAsBytes("spark.driver.maxResultSize", "1g")
    SQLExecution.withNewExecutionId(dataset.queryExecution, Some("rowbridge collectArrow")) {
      val messages = framed(ArrowFrames.batchMessages(dataset, timeZoneId))
      PartitionBlocks.stream(messages, sink, maxResultSize)
    }
    sink.finish()
    if (sent == 0) {
      // Connect's clients make the result's table from its batches: one batch of no rows.
      val empty = emptyBatch(RowbridgeArrow.arrowSchema(dataset, timeZoneId))
      responses.batch(0, 0, schemaBytes.concat(ByteString.copyFrom(empty)).concat(endOfStream))
    }
  }

  /** The IPC message of a record batch of no rows of `schema`. */
  private def emptyBatch(schema: Schema): Array[Byte] = {
    val allocator =
      ArrowUtils.rootAllocator.newChildAllocator("rowbridge empty batch", 0, Long.MaxValue)
    try {
      val root = VectorSchemaRoot.create(schema, allocator)
      try {
        root.setRowCount(0)
        val batch = new VectorUnloader(root).getRecordBatch
        try {
          val bytes = new ByteArrayOutputStream()
          MessageSerializer.serialize(new WriteChannel(Channels.newChannel(bytes)), batch)
          bytes.toByteArray
        } finally batch.close()
      } finally root.close()
    } finally allocator.close()
  }

  /** Each record batch message preceded by its frame header, made in the tasks. */
  private def framed(messages: RDD[Array[Byte]]): RDD[Array[Byte]] =
    messages.mapPartitions(_.flatMap { message =>
      val header = ByteBuffer.allocate(HeaderBytes).order(ByteOrder.LITTLE_ENDIAN)
      header.putLong(rowsOf(message)).putInt(message.length)
      Iterator(header.array(), message)
    })

  /** The rows of a record batch message. */
  private def rowsOf(message: Array[Byte]): Long = {
    val read = MessageSerializer.readMessage(
      new ReadChannel(Channels.newChannel(new java.io.ByteArrayInputStream(message)))
    )
    val metadata = read.getMessage
    require(
      metadata.headerType() == MessageHeader.RecordBatch,
      "rowbridge: a batch message is not an Arrow record batch"
    )
    metadata.header(new RecordBatch()).asInstanceOf[RecordBatch].length()
  }

  /** The frames of the blocks written to it, each passed to `send` (rows, message) once whole: a
    * message a block holds as an array of its own is passed as it is, others are copied out.
    */
  private final class FrameSink(send: (Long, Array[Byte]) => Unit)
      extends OutputStream
      with PartitionBlocks.TakesArrays {
    private val header = ByteBuffer.allocate(HeaderBytes).order(ByteOrder.LITTLE_ENDIAN)
    private var rows = 0L

    /** The length of the message being read, or -1 while its header is. */
    private var length = -1
    private var message: Array[Byte] = null
    private var filled = 0

    override def take(bytes: Array[Byte]): Unit =
      if (length == bytes.length && filled == 0) {
        length = -1
        send(rows, bytes)
      } else {
        write(bytes, 0, bytes.length)
      }

    override def write(b: Int): Unit = write(Array(b.toByte), 0, 1)

    override def write(bytes: Array[Byte], offset: Int, count: Int): Unit = {
      var at = offset
      val end = offset + count
      while (at < end) {
        if (length < 0) {
          val n = math.min(end - at, header.remaining)
          header.put(bytes, at, n)
          at += n
          if (!header.hasRemaining) {
            header.flip()
            rows = header.getLong
            length = header.getInt
            filled = 0
            header.clear()
          }
        } else {
          if (message == null) message = new Array[Byte](length)
          val n = math.min(end - at, length - filled)
          System.arraycopy(bytes, at, message, filled, n)
          filled += n
          at += n
        }
        if (length >= 0 && filled == length) {
          val whole = if (message == null) new Array[Byte](0) else message
          message = null
          length = -1
          filled = 0
          send(rows, whole)
        }
      }
    }

    /** Checks that the blocks ended on a frame's end. */
    def finish(): Unit =
      if (length >= 0 || header.position() != 0) {
        throw new IllegalStateException("rowbridge: the batches' blocks ended inside a batch")
      }
  }
}
