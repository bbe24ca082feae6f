// In Spark Connect's package for the server API it uses: ExecuteHolder and its response observer
// (private[connect]).
package org.apache.spark.sql.connect.rowbridge

import java.io.{ByteArrayOutputStream, OutputStream}
import java.nio.{ByteBuffer, ByteOrder}
import java.nio.channels.Channels

import io.rowbridge.RowbridgeException
import io.rowbridge.spark.arrow.RowbridgeArrow

import org.apache.arrow.flatbuf.{Message, MessageHeader, RecordBatch}
import org.apache.arrow.vector.{VectorSchemaRoot, VectorUnloader}
import org.apache.arrow.vector.ipc.WriteChannel
import org.apache.arrow.vector.ipc.message.MessageSerializer
import org.apache.arrow.vector.types.pojo.Schema
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.connect.common.DataTypeProtoConverter
import org.apache.spark.sql.connect.service.ExecuteHolder
import org.apache.spark.sql.execution.SQLExecution
import org.apache.spark.sql.rowbridge.frames.{ArrowFrames, PartitionBlocks}
import org.apache.spark.sql.util.ArrowUtils
import org.sparkproject.connect.protobuf.{ByteString, UnsafeByteOperations}

/** A DataFrame's rows to a Spark Connect client as Connect's own responses, made by rowbridge: the
  * schema, Arrow batches in partition order (each response's data one IPC stream: the schema
  * message, one record batch, the end-of-stream marker), then the plan's metrics, as Spark's
  * SparkConnectPlanExecution sends them, so the client's own toArrow and toPandas code reads them.
  *
  * The batches are [[ArrowFrames.batchStream]]'s: a columnar plan's own Arrow vectors, or rows
  * through rowbridge's decoder. They reach the driver through the block managers
  * ([[PartitionBlocks]]), which keeps `spark.driver.maxResultSize` and Spark's error, and are sent
  * as each partition's turn comes; the driver holds one partition's messages at a time. A batch is
  * sent whole, in one response, whatever its size.
  */
private[rowbridge] object ConnectArrowResults {

  def send(plan: LogicalPlan, holder: ExecuteHolder): Unit = {
    val session = holder.sessionHolder.session
    val dataset = ConnectDatasets.ofRows(session, plan)
    val timeZoneId = session.sessionState.conf.sessionLocalTimeZone
    val responses = new ConnectResponses(holder)
    responses.schema(DataTypeProtoConverter.toConnectProtoType(dataset.schema))
    val schemaBytes = ByteString.copyFrom(RowbridgeArrow.schemaMessage(dataset, timeZoneId))
    val endOfStream = ByteString.copyFrom(RowbridgeArrow.END_OF_STREAM)
    var offset = 0L
    var sent = 0
    val sink = new MessageSink((rows, message) => {
      val data = schemaBytes.concat(UnsafeByteOperations.unsafeWrap(message)).concat(endOfStream)
      responses.batch(rows, offset, data)
      offset += rows
      sent += 1
    })
    val maxResultSize = session.sparkContext.conf.getSizeAsBytes("spark.driver.maxResultSize", "1g")
    SQLExecution.withNewExecutionId(dataset.queryExecution, Some("rowbridge collectArrow")) {
      val (messages, limit) = ArrowFrames.batchStream(dataset, timeZoneId)
      PartitionBlocks.stream(messages, sink, maxResultSize, limit)
    }
    sink.finish()
    if (sent == 0) {
      // Connect's clients make the result's table from its batches: one batch of no rows.
      val empty = emptyBatch(RowbridgeArrow.arrowSchema(dataset, timeZoneId))
      responses.batch(0, 0, schemaBytes.concat(ByteString.copyFrom(empty)).concat(endOfStream))
    }
    responses.finish(dataset)
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

  /** Bytes of an IPC message's prefix: the continuation marker and the metadata's length. */
  private val Prefix = 8

  /** The metadata's length of the IPC message that `bytes` begins with (its prefix read). */
  private def metadataLength(bytes: Array[Byte]): Int = {
    val prefix = ByteBuffer.wrap(bytes, 0, Prefix).order(ByteOrder.LITTLE_ENDIAN)
    val length = prefix.getInt(4)
    if (prefix.getInt(0) != -1 || length <= 0) {
      throw new RowbridgeException("rowbridge: a batch message without its IPC prefix")
    }
    length
  }

  /** The rows and the body's length of the record batch message that `bytes` begins with (its
    * prefix and its `metadataLength` bytes of metadata read).
    */
  private def batchOf(bytes: Array[Byte], metadataLength: Int): (Long, Long) = {
    val metadata = Message.getRootAsMessage(
      ByteBuffer.wrap(bytes, Prefix, metadataLength).slice().order(ByteOrder.LITTLE_ENDIAN)
    )
    if (metadata.headerType() != MessageHeader.RecordBatch) {
      throw new RowbridgeException("rowbridge: a batch message is not an Arrow record batch")
    }
    val batch = metadata.header(new RecordBatch()).asInstanceOf[RecordBatch]
    (batch.length(), metadata.bodyLength())
  }

  /** The record batch messages of the blocks written to it, each passed to `send` (rows, message)
    * once whole: the blocks hold the messages one after another, each found by its IPC prefix and
    * its metadata's body length. A message a block holds as an array of its own is passed as it is;
    * others are copied out.
    */
  private final class MessageSink(send: (Long, Array[Byte]) => Unit)
      extends OutputStream
      with PartitionBlocks.TakesArrays {

    /** The message being read: its prefix, then its prefix and metadata, then the whole of it. */
    private var message = new Array[Byte](Prefix)
    private var filled = 0

    /** The whole message's length once its metadata is read, -1 before. */
    private var length = -1L
    private var rows = 0L

    override def take(bytes: Array[Byte]): Unit = {
      val batchRows = if (filled == 0) whole(bytes) else None
      if (batchRows.isDefined) send(batchRows.get, bytes) else write(bytes, 0, bytes.length)
    }

    /** The rows of `bytes` if it is one whole record batch message. */
    private def whole(bytes: Array[Byte]): Option[Long] =
      if (bytes.length <= Prefix) None
      else {
        val metadata = metadataLength(bytes)
        if (Prefix + metadata > bytes.length) None
        else {
          val (batchRows, body) = batchOf(bytes, metadata)
          if (Prefix + metadata + body == bytes.length) Some(batchRows) else None
        }
      }

    override def write(b: Int): Unit = write(Array(b.toByte), 0, 1)

    override def write(bytes: Array[Byte], offset: Int, count: Int): Unit = {
      var at = offset
      val end = offset + count
      while (at < end) {
        val n = math.min(end - at, message.length - filled)
        System.arraycopy(bytes, at, message, filled, n)
        filled += n
        at += n
        if (filled == message.length) read()
      }
    }

    /** The message's array is full: grows it for the metadata after the prefix, then for the body
      * after the metadata, or passes the whole message on.
      */
    private def read(): Unit =
      if (length >= 0) passOn()
      else if (filled == Prefix) {
        message = java.util.Arrays.copyOf(message, Prefix + metadataLength(message))
      } else {
        val (batchRows, body) = batchOf(message, filled - Prefix)
        rows = batchRows
        length = filled + body
        if (length > Int.MaxValue - 8) {
          throw new RowbridgeException(s"rowbridge: a batch message of $length bytes")
        }
        message = java.util.Arrays.copyOf(message, length.toInt)
        if (filled == length) passOn()
      }

    private def passOn(): Unit = {
      val whole = message
      message = new Array[Byte](Prefix)
      filled = 0
      length = -1
      send(rows, whole)
    }

    /** Checks that the blocks ended on a message's end. */
    def finish(): Unit =
      if (filled != 0) {
        throw new IllegalStateException("rowbridge: the batches' blocks ended inside a batch")
      }
  }
}
