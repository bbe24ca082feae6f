package io.rowbridge.spark

import io.rowbridge.spark.cache.ArrowCacheSerializer

/** The Arrow cache under the name users set:
  * `spark.sql.cache.serializer=io.rowbridge.spark.ArrowCachedBatchSerializer`. The name is part of
  * rowbridge's settings, so the class stays in this package; the cache itself, its builds and its
  * reads, is [[io.rowbridge.spark.cache.ArrowCacheSerializer]].
  */
class ArrowCachedBatchSerializer extends ArrowCacheSerializer
