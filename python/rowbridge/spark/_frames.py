"""DataFrames to and from Arrow and pandas, with rowbridge on the JVM's side of the crossing.

- ``to_arrow``: the executors turn rows into Arrow IPC batches natively, and the driver streams
  them to Python through a local socket in partition order (no file in between). The table is
  cast to the schema PySpark's own ``toArrow`` gives.
- ``to_pandas``: PySpark's own Arrow ``toPandas`` (its pandas conversion and dtypes) over the
  batches ``to_arrow`` streams.
- ``create_dataframe``: PySpark's own Arrow conversion of the input (``createDataFrame`` with
  Arrow), whose batches then become rows through rowbridge's converter on the JVM.
"""

import contextlib
import inspect
import threading

_FRAMES = "org.apache.spark.sql.rowbridge.frames.ArrowFrames"


class RowbridgeFrameError(TypeError):
    """An input ``create_dataframe`` does not take, named with what it is."""


def _frames(jvm):
    return jvm.org.apache.spark.sql.rowbridge.frames.ArrowFrames


def _unwrap_spark_exception():
    try:
        from pyspark.errors.exceptions.captured import unwrap_spark_exception
    except ImportError:  # pragma: no cover - every supported PySpark has it
        return contextlib.nullcontext()
    return unwrap_spark_exception()


def _local_socket(connection, secret):
    """The file of PySpark's authenticated local socket, and the socket when PySpark returns
    it too (4.2 and later; None before), for the caller to close."""
    try:
        from pyspark.util import _create_local_socket
    except ImportError:  # PySpark 3.5
        from pyspark.rdd import _create_local_socket
    created = _create_local_socket((connection, secret))
    if isinstance(created, tuple):
        return created
    return created, None


def _read_batches(df):
    """The record batches of ``df``'s rows, in order, as rowbridge's JVM side serves them; the
    job's error (``spark.driver.maxResultSize``, a failed task) is raised as PySpark raises it."""
    import pyarrow as pa

    session = df.sparkSession
    connection, secret, server = _frames(session._jvm).serveArrow(df._jdf, "UTC")
    batches = []
    schema = None
    try:
        sockfile, sock = _local_socket(connection, secret)
        try:
            reader = pa.ipc.open_stream(sockfile)
            schema = reader.schema
            for batch in reader:
                batches.append(batch)
        finally:
            sockfile.close()
            if sock is not None:
                sock.close()
    except Exception:
        # A stream cut short: the JVM's error says why.
        with _unwrap_spark_exception():
            server.getResult()
        raise
    with _unwrap_spark_exception():
        server.getResult()
    return schema, batches


def _arrow_schema(df):
    """The Arrow schema PySpark's ``toArrow`` gives ``df``."""
    from pyspark.sql.pandas.types import to_arrow_schema

    jconf = df.sparkSession._jconf
    accepted = inspect.signature(to_arrow_schema).parameters
    if "prefers_large_types" not in accepted:  # PySpark 3.5: no such arguments
        return to_arrow_schema(df.schema)
    options = {
        "error_on_duplicated_field_names_in_struct": True,
        "prefers_large_types": jconf.arrowUseLargeVarTypes(),
    }
    if "timezone" in accepted:  # PySpark 4.2: timestamps need it; toArrow labels them UTC
        options["timezone"] = "UTC"
    return to_arrow_schema(df.schema, **options)


def to_arrow(df):
    """Collects ``df`` into a ``pyarrow.Table`` equal to PySpark's ``df.toArrow()``: the same
    schema (timestamps labelled UTC, Spark's Arrow types) and rows in the same order.

    The batches are made natively on the executors and streamed from the driver to this
    process; the driver holds a partition's batches only until those before it have been sent.
    ``spark.driver.maxResultSize`` applies, with Spark's error.
    """
    import pyarrow as pa

    schema, batches = _read_batches(df)
    table = pa.Table.from_batches(batches, schema=schema)
    del batches
    return table.cast(_arrow_schema(df))


class _ConfView:
    """A session's JVM SQLConf that answers ``arrowPySparkEnabled`` with true."""

    def __init__(self, jconf):
        self._jconf = jconf

    def arrowPySparkEnabled(self):
        return True

    def __getattr__(self, name):
        return getattr(self._jconf, name)


class _SessionView:
    """A session whose ``_jconf`` is a ``_ConfView``; everything else is the session's."""

    def __init__(self, session):
        self._session = session
        self._jconf = _ConfView(session._jconf)

    def __getattr__(self, name):
        return getattr(self._session, name)


def to_pandas(df):
    """Collects ``df`` into a ``pandas.DataFrame`` equal to PySpark's Arrow ``toPandas()``: the
    same dtypes, time zones and nested values, since PySpark's own conversion from Arrow to pandas
    runs over the batches that ``to_arrow`` streams. Arrow is used whatever
    ``spark.sql.execution.arrow.pyspark.enabled`` says; the session's other Arrow settings
    (self-destruct, struct handling) apply.
    """
    from pyspark.sql.pandas.conversion import PandasConversionMixin

    view = object.__new__(type(df))
    view.__dict__.update(df.__dict__)
    view._session = _SessionView(df.sparkSession)

    def collect_as_arrow(split_batches=False, empty_list_if_zero_records=True, **_others):
        # _others: what later PySparks add (4.2: prefers_large_var_types, which its pandas
        # conversion does not need).
        import pyarrow as pa

        schema, batches = _read_batches(df)
        if split_batches:
            batches = [
                pa.RecordBatch.from_arrays(
                    [pa.concat_arrays([column]) for column in batch], schema=batch.schema
                )
                for batch in batches
            ]
        if not batches and not empty_list_if_zero_records:
            return [pa.RecordBatch.from_pylist([], schema=schema)]
        return batches

    view._collect_as_arrow = collect_as_arrow
    if hasattr(PandasConversionMixin, "toPandas"):
        return PandasConversionMixin.toPandas(view)
    return PandasConversionMixin._to_pandas(view)  # PySpark 4.2


class _SqlUtils:
    """Spark's PythonSQLUtils, with rowbridge's toDataFrame."""

    def __init__(self, jvm):
        self._jvm = jvm
        self._utils = jvm.PythonSQLUtils

    def toDataFrame(self, batches, schema_json, jsession):
        return _frames(self._jvm).toDataFrame(batches, schema_json, jsession)

    def __getattr__(self, name):
        return getattr(self._utils, name)


class _FramesJvm:
    """A session's JVM view whose PythonSQLUtils is ``_SqlUtils``; all else is the JVM's."""

    def __init__(self, jvm):
        self.rowbridge_original = jvm
        self.PythonSQLUtils = _SqlUtils(jvm)

    def __getattr__(self, name):
        return getattr(self.rowbridge_original, name)


_jvm_lock = threading.Lock()
_jvm_users = {}


@contextlib.contextmanager
def _rowbridge_jvm(session):
    """Within it, the session's ``_jvm`` is a ``_FramesJvm``. It answers every call as the JVM
    does except ``PythonSQLUtils.toDataFrame``, which rowbridge's ``ArrowFrames.toDataFrame``
    answers with the same rows; so another thread of the same session that meanwhile creates a
    DataFrame from pandas or Arrow gets rowbridge's rows too, and nothing else changes."""
    key = id(session)
    with _jvm_lock:
        if _jvm_users.get(key, 0) == 0 and not isinstance(session._jvm, _FramesJvm):
            session._jvm = _FramesJvm(session._jvm)
        _jvm_users[key] = _jvm_users.get(key, 0) + 1
    try:
        yield
    finally:
        with _jvm_lock:
            _jvm_users[key] -= 1
            if _jvm_users[key] == 0:
                del _jvm_users[key]
                if isinstance(session._jvm, _FramesJvm):
                    session._jvm = session._jvm.rowbridge_original


def is_pandas(data):
    """True for a pandas DataFrame (False without pandas)."""
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is there wherever PySpark's Arrow is
        return False
    return isinstance(data, pd.DataFrame)


def _as_table_or_pandas(data):
    """``data`` as a pyarrow Table or a pandas DataFrame."""
    import pyarrow as pa

    # pandas first: its DataFrame has __arrow_c_stream__ too (pandas 2.2), but PySpark converts
    # pandas by its own rules (time zones, dtypes), which create_dataframe keeps.
    if is_pandas(data):
        return data
    if isinstance(data, pa.Table):
        return data
    if isinstance(data, pa.RecordBatchReader):
        return data.read_all()
    if isinstance(data, pa.RecordBatch):
        return pa.Table.from_batches([data])
    if hasattr(data, "__arrow_c_stream__"):
        return pa.table(data)
    raise RowbridgeFrameError(
        "rowbridge.spark.create_dataframe takes a pyarrow.Table, a pyarrow.RecordBatchReader, an"
        " object with __arrow_c_stream__ or a pandas.DataFrame, not %s" % type(data).__name__
    )


def _schema_argument(schema, names):
    """A StructType or a list of column names, as PySpark's createDataFrame passes them on."""
    from pyspark.sql.types import StructType, _parse_datatype_string

    if schema is None:
        return [str(name) for name in names]
    if isinstance(schema, str):
        parsed = _parse_datatype_string(schema)
        if not isinstance(parsed, StructType):
            raise RowbridgeFrameError(
                "rowbridge.spark.create_dataframe: the schema %r is a %s, not a struct of columns"
                % (schema, parsed.simpleString())
            )
        return parsed
    if isinstance(schema, (StructType, list, tuple)):
        return schema
    raise RowbridgeFrameError(
        "rowbridge.spark.create_dataframe: schema must be a StructType, a DDL string or a list"
        " of column names, not %s" % type(schema).__name__
    )


def _check_arrow_types(schema):
    """Raises RowbridgeFrameError naming the first column whose Arrow type Spark lacks."""
    from pyspark.sql.pandas.types import from_arrow_type

    for index, field in enumerate(schema):
        try:
            from_arrow_type(field.type)
        except Exception as error:
            raise RowbridgeFrameError(
                "rowbridge.spark.create_dataframe: column %d (%r) is of Arrow type %s, which"
                " Spark has no type for: %s" % (index, field.name, field.type, error)
            ) from error


def create_dataframe(spark, data, schema=None):
    """A DataFrame of ``data`` (a pyarrow Table or RecordBatchReader, any object with
    ``__arrow_c_stream__``, or a pandas DataFrame), equal to PySpark's Arrow
    ``createDataFrame(data, schema)``: PySpark converts and checks the input as it always does,
    and rowbridge's converter makes the rows on the JVM. ``schema`` is a StructType, a DDL
    string or a list of column names; None takes the input's.

    Arrow input needs PySpark 4.0 or later (3.5's createDataFrame has none), and raises
    ``RowbridgeFrameError`` there.
    """
    import pyarrow as pa

    data = _as_table_or_pandas(data)
    timezone = spark._jconf.sessionLocalTimeZone()
    if isinstance(data, pa.Table):
        if not hasattr(spark, "_create_from_arrow_table"):
            import pyspark

            raise RowbridgeFrameError(
                "rowbridge.spark.create_dataframe: Arrow input needs PySpark 4.0 or later"
                " (PySpark %s's createDataFrame takes no Arrow); pass a pandas DataFrame"
                % pyspark.__version__
            )
        if schema is None or isinstance(schema, (list, tuple)):
            _check_arrow_types(data.schema)
        create = spark._create_from_arrow_table
        with _rowbridge_jvm(spark):
            return create(
                data,
                _schema_argument(schema, data.schema.names),
                timezone,
                **_session_arguments(spark, create),
            )
    schema = _schema_argument(schema, data.columns)
    if len(data) == 0:
        return spark.createDataFrame(data, schema)
    create = spark._create_from_pandas_with_arrow
    with _rowbridge_jvm(spark):
        return create(data, schema, timezone, **_session_arguments(spark, create))


# The arguments PySpark 4.2's createDataFrame reads from the session and hands to its
# conversions (earlier lines read them inside): name -> (setting, how its value reads).
_SESSION_ARGUMENTS = {
    "prefer_timestamp_ntz": ("spark.sql.timestampType", lambda v: v.upper() == "TIMESTAMP_NTZ"),
    "prefers_large_var_types": (
        "spark.sql.execution.arrow.useLargeVarTypes",
        lambda v: v.lower() == "true",
    ),
    "arrow_batch_size": ("spark.sql.execution.arrow.maxRecordsPerBatch", int),
    "safecheck": (
        "spark.sql.execution.pandas.convertToArrowArraySafely",
        lambda v: v.lower() == "true",
    ),
    "infer_pandas_dict_as_map": (
        "spark.sql.execution.pandas.inferPandasDictAsMap",
        lambda v: v.lower() == "true",
    ),
}


def _session_arguments(spark, conversion):
    """The session's values of the arguments ``conversion`` takes beyond (data, schema,
    timezone), as PySpark's own createDataFrame reads them."""
    arguments = {}
    for name in inspect.signature(conversion).parameters:
        if name in _SESSION_ARGUMENTS:
            setting, read = _SESSION_ARGUMENTS[name]
            arguments[name] = read(spark.conf.get(setting))
    return arguments
