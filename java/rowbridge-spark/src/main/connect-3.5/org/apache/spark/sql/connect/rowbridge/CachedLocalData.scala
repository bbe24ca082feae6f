// In Spark's package for the Spark-private API it uses: the block manager and CacheId
// (private[spark]), the planner's session holder (private[connect]).
package org.apache.spark.sql.connect.rowbridge

import org.apache.spark.connect.proto
import org.apache.spark.sql.connect.planner.SparkConnectPlanner
import org.apache.spark.storage.CacheId

/** The local data of a Connect createDataFrame that the client cached on the server, on Spark 3.5:
  * a CachedLocalRelation, whose artifact is a serialized LocalRelation kept under the Connect
  * session's user and session ids.
  */
private[rowbridge] object CachedLocalData {

  /** The schema (if sent) and the IPC streams of `relation`, or None for other relations. */
  def of(relation: proto.Relation, planner: SparkConnectPlanner): Option[LocalData] =
    if (relation.getRelTypeCase != proto.Relation.RelTypeCase.CACHED_LOCAL_RELATION) None
    else {
      val session = planner.sessionHolder
      val id = CacheId(session.userId, session.sessionId, relation.getCachedLocalRelation.getHash)
      Some(LocalData.of(proto.LocalRelation.parseFrom(CachedBlocks.read(id))))
    }
}
