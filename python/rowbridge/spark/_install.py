"""``install()``: PySpark's own DataFrame.toArrow / toPandas and SparkSession.createDataFrame
answered by rowbridge for the inputs it covers; ``uninstall()`` puts PySpark's back."""

import functools
import threading

from rowbridge.spark import _connect, _frames, _pyspark

_lock = threading.Lock()
_originals = {}


def _classes():
    """PySpark's DataFrame class that answers toPandas (the classic one on 4.x) and SparkSession."""
    try:
        from pyspark.sql.classic.dataframe import DataFrame
    except ImportError:  # PySpark 3.5
        from pyspark.sql.dataframe import DataFrame
    from pyspark.sql.session import SparkSession

    return DataFrame, SparkSession


def _is_arrow(data):
    """A pyarrow Table (what PySpark's createDataFrame itself takes from Arrow)."""
    import pyarrow as pa

    return isinstance(data, pa.Table)


def installed():
    """True between ``install()`` and ``uninstall()``."""
    return bool(_originals)


def _connect_classes():
    """PySpark's Connect DataFrame and SparkSession classes (none without its Connect client)."""
    try:
        from pyspark.sql.connect.dataframe import DataFrame
        from pyspark.sql.connect.session import SparkSession
    except ImportError:
        return None
    return DataFrame, SparkSession


def install():
    """Makes PySpark's ``DataFrame.toPandas``, ``DataFrame.toArrow`` (PySpark 4.0 and later)
    and ``SparkSession.createDataFrame`` (for a pandas DataFrame, and for Arrow input on 4.0 and
    later, without samplingRatio and with verifySchema left as is) use rowbridge's paths in this
    process, on classic sessions and, where PySpark's Connect client is installed, on Spark
    Connect sessions. Other calls go to PySpark's own methods unchanged. Installing twice does
    nothing."""
    _pyspark.check()
    pairs = [_classes()]
    if _pyspark.line() in _connect.CONNECT_LINES and _connect_classes() is not None:
        pairs.append(_connect_classes())
    with _lock:
        if _originals:
            return
        for data_frame, session in pairs:
            _install_on(data_frame, session)


def _install_on(data_frame, session):
    to_pandas = data_frame.toPandas
    create = session.createDataFrame

    @functools.wraps(to_pandas)
    def rowbridge_to_pandas(self):
        return _frames.to_pandas(self)

    @functools.wraps(create)
    def rowbridge_create_dataframe(self, data, schema=None, *args, **kwargs):
        covered = not args and not kwargs and (
            _frames.is_pandas(data) or (_is_arrow(data) and _pyspark.line() != "3.5")
        )
        if not covered:
            return create(self, data, schema, *args, **kwargs)
        return _frames.create_dataframe(self, data, schema)

    _originals[(data_frame, "toPandas")] = to_pandas
    _originals[(session, "createDataFrame")] = create
    data_frame.toPandas = rowbridge_to_pandas
    session.createDataFrame = rowbridge_create_dataframe
    if hasattr(data_frame, "toArrow"):
        to_arrow = data_frame.toArrow

        @functools.wraps(to_arrow)
        def rowbridge_to_arrow(self):
            return _frames.to_arrow(self)

        _originals[(data_frame, "toArrow")] = to_arrow
        data_frame.toArrow = rowbridge_to_arrow


def original(owner, name):
    """PySpark's own method ``name`` of class ``owner``, whether or not ``install()`` replaced
    it."""
    with _lock:
        return _originals.get((owner, name), getattr(owner, name))


def uninstall():
    """Puts back PySpark's own methods that ``install()`` replaced."""
    with _lock:
        for (owner, name), method in _originals.items():
            setattr(owner, name, method)
        _originals.clear()
