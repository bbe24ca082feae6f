package io.rowbridge.spark.connect

/** rowbridge's Spark Connect plugin, by the name a server's settings give it:
  * {{{
  * spark.connect.extensions.command.classes=io.rowbridge.spark.connect.RowbridgeConnectPlugin
  * spark.connect.extensions.relation.classes=io.rowbridge.spark.connect.RowbridgeConnectPlugin
  * }}}
  * with rowbridge's jars on the server's class path and `spark.sql.extensions` set as for a classic
  * session. This is Spark 4.0's and later's (Spark 3.5's, by the same name, is Java:
  * src/main/connect-3.5); what it serves is
  * [[org.apache.spark.sql.connect.rowbridge.ConnectExtensions]]'s.
  */
class RowbridgeConnectPlugin extends org.apache.spark.sql.connect.rowbridge.ConnectPlugin
