"""DataFrames to and from Arrow and pandas, with rowbridge on the JVM's side of the crossing.

- ``to_arrow``: the executors make Arrow IPC batches (a columnar plan's own vectors, or rows
  through rowbridge's decoder), and the driver streams them to Python through a local socket in
  partition order (no file in between). The table is cast to the schema PySpark's own
  ``toArrow`` gives.
- ``to_pandas``: the conversion of PySpark's Arrow ``toPandas`` (its pandas dtypes) over the
  batches ``to_arrow`` streams.
- ``create_dataframe``: the conversion of PySpark's Arrow ``createDataFrame`` of the input,
  whose batches then become rows through rowbridge's converter on the JVM.

What PySpark does inside its own methods is done, per PySpark line, by ``_pyspark``, the one
module that reaches past PySpark's public API.
"""

from rowbridge.spark import _arrow_input, _connect, _pyspark


class RowbridgeFrameError(TypeError):
    """An input ``create_dataframe`` does not take, named with what it is."""


def _read_batches(df):
    """The record batches of ``df``'s rows, in order, as rowbridge's JVM side serves them; the
    job's error (``spark.driver.maxResultSize``, a failed task) is raised as PySpark raises it."""
    import pyarrow as pa

    frames = _pyspark.frames(df.sparkSession)
    connection, secret, server = frames.serveArrow(_pyspark.jdf(df), "UTC")
    batches = []
    schema = None
    try:
        sockfile, sock = _pyspark.local_socket(connection, secret)
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
        with _pyspark.unwrap_spark_exception():
            server.getResult()
        raise
    with _pyspark.unwrap_spark_exception():
        server.getResult()
    return schema, batches


def to_arrow(df):
    """Collects ``df`` into a ``pyarrow.Table`` equal to PySpark's ``df.toArrow()``: the same
    schema (timestamps labelled UTC, Spark's Arrow types) and rows in the same order.

    The batches are made natively on the executors and streamed from the driver to this
    process; the driver holds a partition's batches only until those before it have been sent.
    ``spark.driver.maxResultSize`` applies, with Spark's error.

    On a Spark Connect DataFrame, the server's rowbridge plugin makes the batches and sends them
    as Connect's own Arrow batches; the table equals Connect's ``toArrow()``.
    """
    import pyarrow as pa

    if _connect.is_connect(df):
        return _connect.to_arrow(df)
    schema, batches = _read_batches(df)
    table = pa.Table.from_batches(batches, schema=schema)
    del batches
    return table.cast(_pyspark.arrow_schema(df.sparkSession, df.schema))


def arrow_path(df):
    """The path ``df``'s rows take to Arrow in ``to_arrow`` and ``to_pandas``, in words:
    ``"columnar: ..."`` when its plan ends in columnar batches (a ``format("rowbridge")`` scan,
    the Arrow cache, a DataFrame ``create_dataframe`` made, and projections of their columns),
    whose Arrow vectors go out as they are; ``"rows: ..."`` when its rows go through rowbridge's
    row decoder. ``spark.rowbridge.frames.columnar.enabled=false`` sends every plan by rows.
    Takes a classic DataFrame."""
    return _pyspark.frames(df.sparkSession).arrowPath(_pyspark.jdf(df))


def to_pandas(df):
    """Collects ``df`` into a ``pandas.DataFrame`` equal to PySpark's Arrow ``toPandas()``: the
    same dtypes, time zones and nested values, since PySpark's own conversion from Arrow to pandas
    runs over the batches that ``to_arrow`` streams. Arrow is used whatever
    ``spark.sql.execution.arrow.pyspark.enabled`` says; the session's other Arrow settings
    (self-destruct, struct handling) apply. For a schema Spark's Arrow conversion lacks a type
    of, PySpark's Arrow fallback setting decides, as in its Arrow ``toPandas``: its error, or
    PySpark's own ``toPandas``.

    On a Spark Connect DataFrame, Connect's own conversion to pandas runs over the batches the
    server's rowbridge plugin sends; the result equals Connect's ``toPandas()``.
    """
    import pyarrow as pa

    if _connect.is_connect(df):
        return _connect.to_pandas(df)

    session = df.sparkSession
    schema = df.schema
    try:
        _pyspark.check_to_pandas_schema(session, schema)
    except Exception:
        if not _pyspark.arrow_fallback_enabled(session):
            raise
        return _pyspark.own_to_pandas(df)
    _, batches = _read_batches(df)
    if _pyspark.pandas_conversion_settings(session)[2]:  # self-destruct: a buffer per column
        batches = [
            pa.RecordBatch.from_arrays(
                [pa.concat_arrays([column]) for column in batch], schema=batch.schema
            )
            for batch in batches
        ]
    return _pyspark.batches_to_pandas(session, schema, df.columns, batches)


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


def _with_metadata(schema, metadata):
    """``schema`` with field ``i``'s metadata updated by ``metadata[i]``."""
    from pyspark.sql.types import StructField, StructType

    return StructType(
        [
            StructField(
                field.name,
                field.dataType,
                field.nullable,
                {**(field.metadata or {}), **metadata.get(index, {})},
            )
            for index, field in enumerate(schema.fields)
        ]
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
    ``createDataFrame(data, schema)``: PySpark's own functions convert and check the input as its
    createDataFrame does, and rowbridge's converter makes the rows on the JVM. ``schema`` is a
    StructType, a DDL string or a list of column names; None takes the input's.

    Arrow columns of the types rowbridge reads that PySpark refuses (views, run-end encoding,
    unsigned integers, ``date64``, extension types) read as the Spark types of rowbridge's
    mapping (``_arrow_input``); an extension column keeps its name and metadata in its
    StructField's metadata.

    Arrow input needs PySpark 4.0 or later (3.5's createDataFrame has none), and raises
    ``RowbridgeFrameError`` there.

    On a Spark Connect session, Connect's own ``createDataFrame`` converts and sends the input,
    and the server's rowbridge plugin makes its rows.
    """
    import pyarrow as pa

    from pyspark.sql.types import StructType

    if _connect.is_connect(spark):
        return _connect.create_dataframe(spark, data, schema, _as_table_or_pandas, _with_metadata)

    data = _as_table_or_pandas(data)
    timezone = _pyspark.jconf(spark).sessionLocalTimeZone()
    if isinstance(data, pa.Table):
        if _pyspark.line() == "3.5":
            import pyspark

            raise RowbridgeFrameError(
                "rowbridge.spark.create_dataframe: Arrow input needs PySpark 4.0 or later"
                " (PySpark %s's createDataFrame takes no Arrow); pass a pandas DataFrame"
                % pyspark.__version__
            )
        data, extensions = _arrow_input.readable(data, _pyspark.accepts_arrow_type)
        if schema is None or isinstance(schema, (list, tuple)):
            _check_arrow_types(data.schema)
        given = schema
        schema, batches = _pyspark.arrow_table_batches(
            spark, data, _schema_argument(schema, data.schema.names), timezone
        )
        if extensions and not isinstance(given, (str, StructType)):
            schema = _with_metadata(schema, extensions)
        return _pyspark.dataframe_of_batches(spark, batches, schema)
    schema = _schema_argument(schema, data.columns)
    if len(data) == 0:
        return spark.createDataFrame(data, schema)
    schema, batches = _pyspark.pandas_batches(spark, data, schema, timezone)
    return _pyspark.dataframe_of_batches(spark, batches, schema)
