"""Arrow out of Spark through rowbridge: a PySpark DataFrame as a pyarrow.Table.

The executors turn their rows into Arrow IPC record batches natively (rowbridge's row
decoder and IPC encoder), in place of the JVM ArrowConverters path that Spark's own
``DataFrame.toArrow`` and ``toPandas`` take. Needs rowbridge's jars on the session's
class path (``spark.jars``) and its native library, as the Scala and Java API do.
"""

import os
import tempfile

import pyarrow as pa
import pyarrow.ipc as ipc

__all__ = ["to_arrow"]


def to_arrow(df):
    """Collects ``df`` into a ``pyarrow.Table``.

    The schema is the one PySpark's ``DataFrame.toArrow`` gives (timestamps
    labelled UTC, as PySpark labels them). The driver writes the batches, in partition order, to a
    temporary Arrow IPC stream file, which is read here and deleted.
    """
    jvm = df.sparkSession._jvm
    with tempfile.TemporaryDirectory(prefix="rowbridge-arrow-") as directory:
        path = os.path.join(directory, "batches.arrows")
        jvm.io.rowbridge.spark.RowbridgeArrow.collectToStream(df._jdf, path, "UTC")
        with pa.OSFile(path, "rb") as source:
            return ipc.open_stream(source).read_all()
