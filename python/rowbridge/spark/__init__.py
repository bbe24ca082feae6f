"""rowbridge for PySpark.

- ``configure(builder)``: the builder with rowbridge's jars (for the installed PySpark's Spark
  line) and extension.
- ``to_arrow(df)``, ``to_pandas(df)``: a DataFrame collected through rowbridge's native Arrow
  batches, equal to PySpark's ``toArrow()`` and Arrow ``toPandas()``.
- ``create_dataframe(spark, data, schema=None)``: a DataFrame from Arrow or pandas, its rows made
  by rowbridge's converter, equal to PySpark's ``createDataFrame``.
- ``arrow_path(df)``: which path ``df``'s rows take to Arrow (its plan's own columnar batches, or
  rows through rowbridge's decoder).
- ``install()`` / ``uninstall()``: PySpark's own methods answered by these.

Each works on a classic session and on a Spark Connect session (PySpark 3.5 and later), whose
server runs rowbridge's Connect plugin (``CONNECT_PLUGIN``); ``arrow_path`` takes a classic one.
"""

from rowbridge.spark._configure import EXTENSION, configure
from rowbridge.spark._connect import PLUGIN as CONNECT_PLUGIN
from rowbridge.spark._connect import RowbridgeConnectError
from rowbridge.spark._frames import (
    RowbridgeFrameError,
    arrow_path,
    create_dataframe,
    to_arrow,
    to_pandas,
)
from rowbridge.spark._install import install, installed, uninstall
from rowbridge.spark._jars import UnsupportedSparkVersion, jars
from rowbridge.spark._pyspark import UnsupportedPySparkVersion

__all__ = [
    "CONNECT_PLUGIN",
    "EXTENSION",
    "RowbridgeConnectError",
    "RowbridgeFrameError",
    "UnsupportedPySparkVersion",
    "UnsupportedSparkVersion",
    "arrow_path",
    "configure",
    "create_dataframe",
    "install",
    "installed",
    "jars",
    "to_arrow",
    "to_pandas",
    "uninstall",
]
