// In Spark's package for the Spark-private API it uses: the block manager (private[spark]).
package org.apache.spark.sql.connect.rowbridge

import io.rowbridge.RowbridgeException

import org.apache.spark.SparkEnv
import org.apache.spark.connect.proto
import org.apache.spark.storage.BlockId

/** A Connect createDataFrame's local data: the schema string it sent, if any (a DDL or JSON
  * schema), and its Arrow IPC streams, in order, each read when its function is called (so that a
  * stream's bytes can go once it has been split).
  */
private[rowbridge] final case class LocalData(
    schema: Option[String],
    streams: Seq[() => Array[Byte]]
)

private[rowbridge] object LocalData {

  /** The data of a LocalRelation message. */
  def of(local: proto.LocalRelation): LocalData =
    LocalData(
      if (local.hasSchema) Some(local.getSchema) else None,
      if (local.hasData) Seq(() => local.getData.toByteArray) else Seq.empty
    )
}

/** Artifacts that a Connect client cached on the server, as the driver's block manager holds them.
  */
private[rowbridge] object CachedBlocks {

  /** The bytes of block `id`. */
  def read(id: BlockId): Array[Byte] = {
    val blocks = SparkEnv.get.blockManager
    val data = blocks.getLocalBytes(id).getOrElse {
      throw new RowbridgeException(s"rowbridge: the Connect session's cached block $id is gone")
    }
    try data.toChunkedByteBuffer(size => java.nio.ByteBuffer.allocate(size)).toArray
    finally blocks.releaseLockAndDispose(id, data)
  }
}
