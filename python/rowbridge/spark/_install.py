"""``install()``: PySpark's own DataFrame.toArrow / toPandas and SparkSession.createDataFrame
answered by rowbridge for the inputs it covers; ``uninstall()`` puts PySpark's back."""

import functools
import threading

from rowbridge.spark import _frames, _pyspark

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


def install():
    """Makes PySpark's ``DataFrame.toPandas``, ``DataFrame.toArrow`` (PySpark 4.0 and later)
    and ``SparkSession.createDataFrame`` (for a pandas DataFrame, and for Arrow input on 4.0 and
    later, without samplingRatio and with verifySchema left as is) use rowbridge's paths in this
    process. Other calls go to PySpark's own methods unchanged. Installing twice does nothing."""
    _pyspark.check()
    data_frame, session = _classes()
    with _lock:
        if _originals:
            return
        to_pandas = data_frame.toPandas
        create = session.createDataFrame

        @functools.wraps(to_pandas)
        def rowbridge_to_pandas(self):
            return _frames.to_pandas(self)

        @functools.wraps(create)
        def rowbridge_create_dataframe(self, data, schema=None, *args, **kwargs):
            covered = not args and not kwargs and (
                _frames.is_pandas(data)
                or (_is_arrow(data) and _pyspark.line() != "3.5")
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


def uninstall():
    """Puts back PySpark's own methods that ``install()`` replaced."""
    with _lock:
        for (owner, name), method in _originals.items():
            setattr(owner, name, method)
        _originals.clear()
