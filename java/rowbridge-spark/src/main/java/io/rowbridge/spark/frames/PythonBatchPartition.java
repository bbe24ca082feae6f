package io.rowbridge.spark.frames;

import org.apache.spark.sql.connector.read.InputPartition;

/** Consecutive Arrow record batch messages from Python, shipped with their task. */
final class PythonBatchPartition implements InputPartition {
  private static final long serialVersionUID = 1L;

  final byte[][] messages;

  PythonBatchPartition(byte[][] messages) {
    this.messages = messages;
  }
}
