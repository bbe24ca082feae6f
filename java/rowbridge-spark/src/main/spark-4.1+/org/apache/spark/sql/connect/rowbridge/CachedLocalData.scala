// In Spark's package for the Spark-private API it uses: the session's artifact manager
// (private[sql]), the planner's session (private[connect]).
package org.apache.spark.sql.connect.rowbridge

import scala.jdk.CollectionConverters._

import io.rowbridge.RowbridgeException

import org.apache.spark.connect.proto
import org.apache.spark.sql.classic.SparkSession
import org.apache.spark.sql.connect.planner.SparkConnectPlanner

/** The local data of a Connect createDataFrame that the client cached on the server, from Spark 4.1
  * on: a ChunkedCachedLocalRelation (an artifact per IPC stream, one for the schema string), or a
  * CachedLocalRelation (one artifact: a serialized LocalRelation).
  */
private[rowbridge] object CachedLocalData {

  /** The schema (if sent) and the IPC streams of `relation`, or None for other relations. */
  def of(relation: proto.Relation, planner: SparkConnectPlanner): Option[LocalData] = {
    val session = planner.session
    relation.getRelTypeCase match {
      case proto.Relation.RelTypeCase.CHUNKED_CACHED_LOCAL_RELATION =>
        val chunked = relation.getChunkedCachedLocalRelation
        val schema =
          if (chunked.hasSchemaHash) Some(new String(read(session, chunked.getSchemaHash), "UTF-8"))
          else None
        val streams = chunked.getDataHashesList.asScala.toSeq.map(hash => () => read(session, hash))
        Some(LocalData(schema, streams))
      case proto.Relation.RelTypeCase.CACHED_LOCAL_RELATION =>
        val hash = relation.getCachedLocalRelation.getHash
        Some(LocalData.of(proto.LocalRelation.parseFrom(read(session, hash))))
      case _ => None
    }
  }

  private def read(session: SparkSession, hash: String): Array[Byte] = {
    val id = session.artifactManager.getCachedBlockId(hash).getOrElse {
      throw new RowbridgeException(
        s"rowbridge: the Connect session has no cached local data with hash $hash"
      )
    }
    CachedBlocks.read(id)
  }
}
