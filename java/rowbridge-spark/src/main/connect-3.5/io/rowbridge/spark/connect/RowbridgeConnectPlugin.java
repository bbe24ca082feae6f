package io.rowbridge.spark.connect;

/**
 * rowbridge's Spark Connect plugin on Spark 3.5, by the name a server's settings give it:
 *
 * <pre>
 * spark.connect.extensions.command.classes=io.rowbridge.spark.connect.RowbridgeConnectPlugin
 * spark.connect.extensions.relation.classes=io.rowbridge.spark.connect.RowbridgeConnectPlugin
 * </pre>
 *
 * with rowbridge's jars and Connect's server jar on the server's class path and {@code
 * spark.sql.extensions} set as for a classic session. What it serves is {@link
 * org.apache.spark.sql.connect.rowbridge.ConnectPlugin}'s.
 */
public class RowbridgeConnectPlugin extends org.apache.spark.sql.connect.rowbridge.ConnectPlugin {}
