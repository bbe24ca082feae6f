package io.rowbridge.spark.source

import scala.jdk.CollectionConverters._

import org.apache.arrow.vector.types.pojo.Schema
import org.apache.hadoop.fs.LocalFileSystem
import org.apache.spark.{Partition, SparkContext, TaskContext}
import org.apache.spark.broadcast.Broadcast
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.execution.datasources.FilePartition
import org.apache.spark.util.SerializableConfiguration

/** The record batch messages of a rowbridge scan's partitions as its files store them
  * ([[StoredBatchMessages]]), one RDD partition per scan partition (each a byte range of one file),
  * in order, with the hosts of its blocks as preferred locations.
  *
  * @param fileSchemaJson
  *   the Arrow schema every file has
  * @param columns
  *   the files' columns to send, in order; null for every column
  */
private[spark] class StoredBatchesRDD(
    context: SparkContext,
    partitions: Seq[FilePartition],
    hadoopConf: Broadcast[SerializableConfiguration],
    fileSchemaJson: String,
    columns: Array[Int]
) extends RDD[Array[Byte]](context, Nil) {

  override protected def getPartitions: Array[Partition] =
    partitions.zipWithIndex.map { case (partition, index) =>
      partition.copy(index = index): Partition
    }.toArray

  override protected def getPreferredLocations(split: Partition): Seq[String] =
    split.asInstanceOf[FilePartition].preferredLocations().toSeq

  override def compute(split: Partition, task: TaskContext): Iterator[Array[Byte]] = {
    val files = split.asInstanceOf[FilePartition].files
    require(files.length == 1, s"rowbridge: a scan partition of ${files.length} files")
    val file = files.head
    val path = file.toPath
    // A local file is read as the native scan reads it, without Hadoop's checksum files.
    val fs = path.getFileSystem(hadoopConf.value.value) match {
      case local: LocalFileSystem => local.getRawFileSystem
      case other                  => other
    }
    val in = fs.open(path)
    val messages =
      try {
        in.seek(file.start)
        new StoredBatchMessages(
          path.toString,
          in,
          file.start + file.length,
          Schema.fromJSON(fileSchemaJson),
          columns
        )
      } catch {
        case e: Throwable =>
          in.close()
          throw e
      }
    task.addTaskCompletionListener[Unit](_ => messages.close())
    messages.asScala
  }
}
