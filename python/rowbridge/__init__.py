"""rowbridge for Python: PySpark sessions set up with rowbridge's jars, and DataFrames to and
from Arrow and pandas through rowbridge's native paths (``rowbridge.spark``)."""

__version__ = "0.1.0"
