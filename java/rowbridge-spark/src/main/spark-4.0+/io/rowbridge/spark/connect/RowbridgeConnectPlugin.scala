package io.rowbridge.spark.connect

/** rowbridge's Spark Connect plugin, by the name a server's settings give it (Spark 4.0 and later):
  * {{{
  * spark.connect.extensions.command.classes=io.rowbridge.spark.connect.RowbridgeConnectPlugin
  * spark.connect.extensions.relation.classes=io.rowbridge.spark.connect.RowbridgeConnectPlugin
  * }}}
  * with rowbridge's jars on the server's class path and `spark.sql.extensions` set as for a classic
  * session. What it serves is [[org.apache.spark.sql.connect.rowbridge.ConnectPlugin]]'s.
  */
class RowbridgeConnectPlugin extends org.apache.spark.sql.connect.rowbridge.ConnectPlugin
