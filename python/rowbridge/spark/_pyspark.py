"""The one place where rowbridge.spark reaches into PySpark beyond its public API, per line.

PySpark has no public API for three things rowbridge needs: a classic session's JVM objects,
its conversion of pandas and Arrow input into the Arrow batches ``createDataFrame`` sends, and
its conversion of Arrow batches into the pandas DataFrame ``toPandas`` returns. This module does
each as the installed PySpark's own code does, line by line, calling PySpark's functions where
they are free-standing and doing in its own code what PySpark does inside its methods. It never
changes a PySpark object: no session attribute is swapped and no DataFrame is copied.

``SUPPORTED_LINES`` are the PySpark lines this module knows, each pinned by the wheel's suites
(python/wheel_tests). ``check()`` raises ``UnsupportedPySparkVersion`` for any other, so a new
PySpark fails at ``configure`` time with a named error rather than on a wrong path later.
"""

import contextlib

from rowbridge.spark._jars import UnsupportedSparkVersion, line_of

SUPPORTED_LINES = ("3.5", "4.0", "4.1", "4.2")

_FRAMES = "org.apache.spark.sql.rowbridge.frames.ArrowFrames"


class UnsupportedPySparkVersion(UnsupportedSparkVersion):
    """The installed PySpark is of a line ``rowbridge.spark`` does not know."""


def line():
    """The installed PySpark's line ("4.1"); raises UnsupportedPySparkVersion for one that
    ``SUPPORTED_LINES`` lacks."""
    import pyspark

    found = line_of(pyspark.__version__)
    if found not in SUPPORTED_LINES:
        raise UnsupportedPySparkVersion(
            "rowbridge.spark does not know PySpark %s (line %s): it supports PySpark %s"
            % (pyspark.__version__, found, ", ".join(SUPPORTED_LINES))
        )
    return found


check = line


def builder_options(builder):
    """The settings a SparkSession builder holds so far (PySpark keeps them in ``_options``)."""
    return dict(getattr(builder, "_options", {}))


# ---- The JVM side of a classic session ----


def _classic(session):
    """Raises a named error for a Spark Connect session, which has no JVM in this process."""
    if not hasattr(session, "_jsparkSession"):
        raise UnsupportedSparkVersion(
            "rowbridge.spark: %s is a Spark Connect session, which has no JVM in this process;"
            " this function takes a classic session" % type(session).__name__
        )
    return session


def frames(session):
    """rowbridge's ArrowFrames in the session's JVM."""
    return _classic(session)._jvm.org.apache.spark.sql.rowbridge.frames.ArrowFrames


def jconf(session):
    """The session's JVM SQLConf."""
    return _classic(session)._jconf


def jdf(df):
    """The JVM Dataset of a classic DataFrame."""
    _classic(df.sparkSession)
    return df._jdf


def unwrap_spark_exception():
    """A context in which a Py4J error from the JVM is raised as PySpark raises it."""
    try:
        from pyspark.errors.exceptions.captured import unwrap_spark_exception as unwrap
    except ImportError:  # pragma: no cover - every supported PySpark has it
        return contextlib.nullcontext()
    return unwrap()


def local_socket(connection, secret):
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


def dataframe_of_batches(session, batches, schema):
    """A DataFrame of ``schema`` (a StructType) whose rows rowbridge's converter makes from
    ``batches`` (pyarrow RecordBatches), sent to the JVM as PySpark's createDataFrame sends its
    own (a local socket, or a file when I/O encryption is on)."""
    from pyspark.sql.pandas.serializers import ArrowStreamSerializer

    jvm = _classic(session)._jvm

    def read_file(path):
        return jvm.PythonSQLUtils.readArrowStreamFromFile(path)

    def iterator_server():
        return jvm.ArrowIteratorServer()

    jiter = session._sc._serialize_to_jvm(
        batches, ArrowStreamSerializer(), read_file, iterator_server
    )
    jdf_made = frames(session).toDataFrame(jiter, schema.json(), session._jsparkSession)
    made = _dataframe_class()(jdf_made, session)
    made._schema = schema  # as PySpark's createDataFrame: the schema it was asked for
    return made


def _dataframe_class():
    try:
        from pyspark.sql.classic.dataframe import DataFrame
    except ImportError:  # PySpark 3.5
        from pyspark.sql.dataframe import DataFrame
    return DataFrame


# ---- Session settings, read as each line's createDataFrame and toPandas read them ----


def _setting(session, name, read):
    return read(session.conf.get(name))


def _true(value):
    return str(value).lower() == "true"


def large_var_types(session):
    return _setting(session, "spark.sql.execution.arrow.useLargeVarTypes", _true)


def _timestamp_ntz_preferred(session):
    return _setting(
        session, "spark.sql.timestampType", lambda value: str(value).upper() == "TIMESTAMP_NTZ"
    )


def _records_per_batch(session):
    return _setting(session, "spark.sql.execution.arrow.maxRecordsPerBatch", int)


# ---- toArrow's schema ----


def _to_arrow_schema(session, schema, duplicated_names_fail):
    """PySpark's ``to_arrow_schema`` of ``schema`` with the arguments this line passes it:
    the session's large var types, timestamps labelled UTC (4.2), and a struct with duplicated
    field names refused where ``duplicated_names_fail`` (3.5 takes no arguments)."""
    from pyspark.sql.pandas.types import to_arrow_schema

    found = line()
    if found == "3.5":
        return to_arrow_schema(schema)
    options = {"prefers_large_types": large_var_types(session)}
    if duplicated_names_fail:
        options["error_on_duplicated_field_names_in_struct"] = True
    if found == "4.2":  # timestamps need a zone; PySpark labels them UTC
        options["timezone"] = "UTC"
    return to_arrow_schema(schema, **options)


def arrow_schema(session, schema):
    """The Arrow schema PySpark's ``toArrow`` gives a DataFrame of ``schema`` (and its
    createDataFrame casts Arrow input to)."""
    return _to_arrow_schema(session, schema, True)


def check_to_pandas_schema(session, schema):
    """Raises what PySpark's Arrow toPandas raises before it collects, for a schema its Arrow
    conversion lacks a type of; returns the Arrow schema it checked."""
    return _to_arrow_schema(session, schema, False)


def arrow_fallback_enabled(session):
    return _setting(session, "spark.sql.execution.arrow.pyspark.fallback.enabled", _true)


def accepts_arrow_type(arrow_type):
    """Whether PySpark's Arrow createDataFrame takes a column of ``arrow_type``."""
    from pyspark.sql.pandas.types import from_arrow_type

    try:
        from_arrow_type(arrow_type)
    except Exception:
        return False
    return True


# ---- createDataFrame's conversion of its input into Arrow batches ----


def arrow_table_batches(session, table, schema, timezone):
    """The Spark schema and Arrow batches PySpark's createDataFrame (4.0 and later) makes of the
    pyarrow Table ``table``: ``schema`` is a StructType, a list of column names or None (the
    table's own), as createDataFrame hands them on."""
    from pyspark.sql.pandas.types import (
        _check_arrow_table_timestamps_localize,
        from_arrow_schema,
        from_arrow_type,
    )
    from pyspark.sql.types import StructType

    found = line()
    prefer_ntz = _timestamp_ntz_preferred(session)
    if isinstance(schema, (list, tuple)):
        table = table.rename_columns(schema)
        struct = StructType()
        for name, field in zip(schema, table.schema):
            struct.add(name, from_arrow_type(field.type, prefer_ntz), nullable=field.nullable)
        schema = struct
    if not isinstance(schema, StructType):
        schema = from_arrow_schema(table.schema, prefer_timestamp_ntz=prefer_ntz)
    if found != "4.2" or len(schema.fields) > 0:  # 4.2 keeps a table of no columns as it is
        table = _check_arrow_table_timestamps_localize(table, schema, True, timezone).cast(
            arrow_schema(session, schema)
        )
    return schema, table.to_batches(max_chunksize=_records_per_batch(session))


def pandas_batches(session, pdf, schema, timezone):
    """The Spark schema and Arrow batches PySpark's Arrow createDataFrame makes of the pandas
    DataFrame ``pdf``: ``schema`` is a StructType or a list of column names."""
    import pyarrow as pa
    from pyspark.sql.pandas.types import _deduplicate_field_names
    from pyspark.sql.types import StructType

    found = line()
    prefer_ntz = _timestamp_ntz_preferred(session)
    as_maps = found != "3.5" and _setting(
        session, "spark.sql.execution.pandas.inferPandasDictAsMap", _true
    )
    if isinstance(schema, (list, tuple)):
        struct = StructType()
        for name, field in zip(schema, pa.Schema.from_pandas(pdf, preserve_index=False)):
            struct.add(name, _inferred(field, prefer_ntz, as_maps, found), nullable=field.nullable)
        schema = struct
    spark_types = [_deduplicate_field_names(field.dataType) for field in schema.fields]
    step = _records_per_batch(session)
    step = step if step > 0 else len(pdf)
    slices = [pdf.iloc[start : start + step] for start in range(0, len(pdf), step)]
    if found == "4.2":
        return schema, _pandas_batches_4_2(session, slices, spark_types, timezone)
    return schema, _pandas_batches_before_4_2(session, slices, spark_types, timezone, found)


def _inferred(field, prefer_ntz, as_maps, found):
    """The Spark type createDataFrame infers for a pandas column of Arrow field ``field``."""
    import pyarrow as pa
    from pyspark.sql.pandas.types import from_arrow_type
    from pyspark.sql.types import MapType, StringType

    if as_maps and isinstance(field.type, pa.StructType):
        if len(field.type) == 0:
            from pyspark.errors import PySparkValueError

            raise PySparkValueError(errorClass="CANNOT_INFER_EMPTY_SCHEMA", messageParameters={})
        return MapType(StringType(), from_arrow_type(field.type.field(0).type, prefer_ntz))
    if as_maps and found != "4.2":
        return from_arrow_type(field.type)  # 4.0 and 4.1 drop the preference in this branch
    return from_arrow_type(field.type, prefer_ntz)


def _pandas_batches_before_4_2(session, slices, spark_types, timezone, found):
    from pyspark.sql.pandas.serializers import ArrowStreamPandasSerializer
    from pyspark.sql.pandas.types import to_arrow_type

    safecheck = _setting(session, "spark.sql.execution.pandas.convertToArrowArraySafely", _true)
    if found == "3.5":
        serializer = ArrowStreamPandasSerializer(timezone, safecheck)

        def arrow_type(spark_type):
            return to_arrow_type(spark_type)

    else:
        if found == "4.0":
            serializer = ArrowStreamPandasSerializer(timezone, safecheck)
        else:  # 4.1: and no coercion of integers to decimals
            serializer = ArrowStreamPandasSerializer(timezone, safecheck, False)
        large = large_var_types(session)

        def arrow_type(spark_type):
            return to_arrow_type(spark_type, prefers_large_types=large)

    return [
        serializer._create_batch(
            [(column, arrow_type(t), t) for (_, column), t in zip(piece.items(), spark_types)]
        )
        for piece in slices
    ]


def _pandas_batches_4_2(session, slices, spark_types, timezone):
    import pyarrow as pa
    from pyspark.sql.pandas.conversion import create_arrow_batch_from_pandas

    if slices and len(slices[0].columns) == 0:
        return [pa.RecordBatch.from_pandas(piece) for piece in slices]
    safecheck = _setting(session, "spark.sql.execution.pandas.convertToArrowArraySafely", _true)
    large = large_var_types(session)
    return [
        create_arrow_batch_from_pandas(
            [(column, t) for (_, column), t in zip(piece.items(), spark_types)],
            timezone=timezone,
            safecheck=safecheck,
            prefers_large_types=large,
        )
        for piece in slices
    ]


# ---- toPandas's conversion of Arrow batches into pandas ----


def pandas_conversion_settings(session):
    """The settings toPandas reads: (timezone, struct handling mode, self-destruct)."""
    return (
        session.conf.get("spark.sql.session.timeZone"),
        session.conf.get("spark.sql.execution.pandas.structHandlingMode"),
        _setting(session, "spark.sql.execution.arrow.pyspark.selfDestruct.enabled", _true),
    )


def batches_to_pandas(session, schema, columns, batches):
    """The pandas DataFrame PySpark's Arrow toPandas makes of a DataFrame of ``schema`` (its
    column names ``columns``) whose collected batches are ``batches``; the list is emptied, so
    that with self-destruct on only the table holds them."""
    import pandas as pd
    import pyarrow as pa

    timezone, struct_mode, self_destruct = pandas_conversion_settings(session)
    if line() == "4.2":
        from pyspark.sql.pandas.conversion import _convert_arrow_table_to_pandas

        if batches:
            table = pa.Table.from_batches(batches)
        else:
            table = check_to_pandas_schema(session, schema).empty_table()
        del batches[:]
        return _convert_arrow_table_to_pandas(
            arrow_table=table,
            schema=schema,
            timezone=timezone,
            struct_handling_mode=struct_mode,
            date_as_object=True,
            self_destruct=self_destruct,
        )
    if batches:
        table = pa.Table.from_batches(batches)
        del batches[:]
        options = {"date_as_object": True}
        if line() != "3.5" and int(pa.__version__.split(".")[0]) >= 13:  # 4.0: from pyarrow 13
            options["coerce_temporal_nanoseconds"] = True
        if self_destruct:
            options.update({"self_destruct": True, "split_blocks": True, "use_threads": False})
        renamed = table.rename_columns(["col_%d" % i for i in range(table.num_columns)])
        del table
        pdf = renamed.to_pandas(**options)
        pdf.columns = columns
    else:
        pdf = pd.DataFrame(columns=columns)
    if len(pdf.columns) == 0:
        return pdf
    from pyspark.sql.pandas.types import _create_converter_to_pandas

    duplicated_names_fail = struct_mode == "legacy"
    if duplicated_names_fail:
        struct_mode = "dict"
    return pd.concat(
        [
            _create_converter_to_pandas(
                field.dataType,
                field.nullable,
                timezone=timezone,
                struct_in_pandas=struct_mode,
                error_on_duplicated_field_names=duplicated_names_fail,
            )(series)
            for (_, series), field in zip(pdf.items(), schema.fields)
        ],
        axis="columns",
    )


def own_to_pandas(df):
    """PySpark's own toPandas of ``df``, whatever ``install()`` has put in its place."""
    from pyspark.sql.pandas.conversion import PandasConversionMixin

    if line() == "4.2":
        return PandasConversionMixin._to_pandas(df)
    return PandasConversionMixin.toPandas(df)
