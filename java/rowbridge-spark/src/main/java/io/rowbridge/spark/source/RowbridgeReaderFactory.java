package io.rowbridge.spark.source;

import io.rowbridge.RowbridgeException;
import io.rowbridge.scan.FileLayout;
import io.rowbridge.scan.IpcFileInfo;
import io.rowbridge.scan.ScanOptions;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.execution.datasources.FilePartition;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.util.SerializableConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sent to the executors: one stream per task, columnar or rows as the scan planned. A task's
 * partition is one byte range of one file; the task reads the file's footer again and takes the
 * record batches whose messages start in its range, so a file that changed since the scan was
 * planned (size or modification time) is an error naming it. With {@code ignoreMissingFiles} a file
 * deleted since then is skipped; with {@code ignoreCorruptFiles} a file that cannot be read is
 * skipped from where the failure is (as Spark's file sources skip them); each skip is logged.
 */
final class RowbridgeReaderFactory implements PartitionReaderFactory {
  private static final Logger LOG = LoggerFactory.getLogger(RowbridgeReaderFactory.class);

  private final SourceConf conf;
  private final boolean columnar;
  private final int[] columns;
  private final StructType dataSchema;
  private final StructType partitionSchema;
  private final boolean ignoreMissingFiles;
  private final boolean ignoreCorruptFiles;
  private final Broadcast<SerializableConfiguration> hadoopConf;

  RowbridgeReaderFactory(
      SourceConf conf,
      boolean columnar,
      int[] columns,
      StructType dataSchema,
      StructType partitionSchema,
      boolean ignoreMissingFiles,
      boolean ignoreCorruptFiles,
      Broadcast<SerializableConfiguration> hadoopConf) {
    this.conf = conf;
    this.columnar = columnar;
    this.columns = columns;
    this.dataSchema = dataSchema;
    this.partitionSchema = partitionSchema;
    this.ignoreMissingFiles = ignoreMissingFiles;
    this.ignoreCorruptFiles = ignoreCorruptFiles;
    this.hadoopConf = hadoopConf;
  }

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return columnar;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    PartitionedFile file = fileOf(partition);
    FileRange range = rangeOf(file);
    if (range == null) {
      return new SkippingReader<>(null, file, false);
    }
    ScanPool.ensure();
    return new SkippingReader<>(
        open(
            () ->
                new RowReader(
                    range, conf, dataSchema, columns, file.partitionValues(), partitionSchema),
            file),
        file,
        ignoreCorruptFiles);
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    PartitionedFile file = fileOf(partition);
    FileRange range = rangeOf(file);
    if (range == null) {
      return new SkippingReader<>(null, file, false);
    }
    ScanPool.ensure();
    return new SkippingReader<>(
        open(() -> new ColumnarReader(range, conf, file.partitionValues(), partitionSchema), file),
        file,
        ignoreCorruptFiles);
  }

  private static PartitionedFile fileOf(InputPartition partition) {
    PartitionedFile[] files = ((FilePartition) partition).files();
    if (files.length != 1) {
      throw new IllegalStateException("rowbridge: a partition of " + files.length + " files");
    }
    return files[0];
  }

  private interface Opener<T> {
    PartitionReader<T> open();
  }

  /** The opened reader, or null when the open failed and ignoreCorruptFiles skips the file. */
  private <T> PartitionReader<T> open(Opener<T> opener, PartitionedFile file) {
    try {
      return opener.open();
    } catch (RuntimeException e) {
      if (ignoreCorruptFiles && !SkippingReader.killed(e)) {
        LOG.warn("rowbridge: skipped the unreadable file {}", file.filePath(), e);
        return null;
      }
      throw e;
    }
  }

  /**
   * The batches of the task's byte range, or null when the file is skipped. The footer is read
   * again: the planned range must still be the file's.
   */
  private FileRange rangeOf(PartitionedFile file) {
    if (!LocalFiles.isLocal(file.toPath())) {
      return remoteRangeOf(file);
    }
    String path = LocalFiles.localPath(file.toPath());
    String where = path + " (bytes " + file.start() + "-" + (file.start() + file.length()) + ")";
    Path local = Path.of(path);
    if (!Files.exists(local)) {
      if (ignoreMissingFiles) {
        LOG.warn("rowbridge: skipped the missing file {}", path);
        return null;
      }
      throw new RowbridgeException(
          "rowbridge: cannot read "
              + where
              + ": no such file (it existed when the scan was planned)",
          RowbridgeException.EIO);
    }
    try {
      long size = Files.size(local);
      long modified = Files.getLastModifiedTime(local).toMillis();
      if ((file.fileSize() > 0 && size != file.fileSize())
          || (file.modificationTime() > 0 && modified != file.modificationTime())) {
        throw new RowbridgeException(
            "rowbridge: cannot read "
                + where
                + ": the file changed "
                + "since the scan was planned ("
                + file.fileSize()
                + " bytes, modified at "
                + file.modificationTime()
                + " ms; now "
                + size
                + " bytes, "
                + modified
                + " ms)",
            RowbridgeException.EIO);
      }
      IpcFileInfo info = LocalFiles.inspect(path);
      if (!info.isFileFormat()) {
        return new FileRange(path, 0, -1, columns);
      }
      int[] batches = info.batchesStartingIn(file.start(), file.length());
      return new FileRange(path, batches[0], batches[1], columns);
    } catch (IOException | RuntimeException e) {
      if (ignoreCorruptFiles) {
        LOG.warn("rowbridge: skipped the unreadable file {}", path, e);
        return null;
      }
      if (e instanceof RowbridgeException r) {
        throw r;
      }
      throw new RowbridgeException(
          "rowbridge: cannot read " + where + ": " + e, RowbridgeException.EIO);
    }
  }

  /**
   * As {@link #rangeOf} for a file read through Hadoop: opened (with the session's Hadoop
   * configuration, as the task's user), its footer read into the image the scan decodes.
   */
  private FileRange remoteRangeOf(PartitionedFile file) {
    org.apache.hadoop.fs.Path path = file.toPath();
    String where = path + " (bytes " + file.start() + "-" + (file.start() + file.length()) + ")";
    HadoopFile remote = null;
    try {
      remote =
          HadoopFile.open(
              path,
              hadoopConf.value().value(),
              file.fileSize() > 0 ? file.fileSize() : -1,
              file.modificationTime());
      FileLayout layout = remote.readFooter(columns, ScanOptions.defaults().validateValues());
      if (!layout.fileFormat()) {
        return new FileRange(path.toString(), 0, -1, columns, remote, layout);
      }
      int[] batches = layout.toInfo().batchesStartingIn(file.start(), file.length());
      return new FileRange(path.toString(), batches[0], batches[1], columns, remote, layout);
    } catch (IOException | RuntimeException e) {
      if (remote != null) {
        remote.close();
      }
      if (e instanceof FileNotFoundException) {
        if (ignoreMissingFiles) {
          LOG.warn("rowbridge: skipped the missing file {}", path);
          return null;
        }
        throw new RowbridgeException(
            "rowbridge: cannot read "
                + where
                + ": no such file (it existed when the scan was planned): "
                + e,
            RowbridgeException.EIO);
      }
      if (ignoreCorruptFiles) {
        LOG.warn("rowbridge: skipped the unreadable file {}", path, e);
        return null;
      }
      if (e instanceof RowbridgeException r && r.getMessage().contains(path.toString())) {
        throw r;
      }
      RowbridgeException failure =
          new RowbridgeException(
              "rowbridge: cannot read "
                  + where
                  + ": "
                  + (e.getMessage() == null ? e.toString() : e.getMessage()),
              e instanceof RowbridgeException r ? r.code() : RowbridgeException.EIO);
      failure.initCause(e);
      throw failure;
    }
  }
}
