"""rowbridge.spark on a Spark Connect session, whose process has no JVM: the server runs
rowbridge's Connect plugin (``io.rowbridge.spark.connect.RowbridgeConnectPlugin``, Spark 4.0 and
later), and the client sends it two extensions of Connect's protocol.

- ``to_arrow`` and ``to_pandas`` run the DataFrame's plan through the command ``ToArrow``: the
  server makes the batches with rowbridge (a columnar plan's own Arrow vectors, or rows through
  rowbridge's decoder) and sends them as Connect's own Arrow batch responses, which Connect's
  client code reads and converts exactly as for its ``toArrow`` and ``toPandas``.
- ``create_dataframe`` lets Connect's own ``createDataFrame`` convert the input and send or cache
  its Arrow data, then wraps that data's relation in the relation ``ArrowRelation``, whose rows
  the server makes with rowbridge's converter.

Both messages have one field, ``spark.connect.Relation input = 1``
(java/rowbridge-spark/src/main/proto/rowbridge_connect.proto); they are built here from that
description with protobuf's own descriptor API, in the pool where PySpark's Connect messages are.
What this module reads of PySpark's Connect client (its plan classes, ``to_table``,
``to_pandas``) is the same on the lines of ``CONNECT_LINES``.
"""

import functools
import os
import threading

from rowbridge.spark import _arrow_input, _pyspark
from rowbridge.spark._jars import UnsupportedSparkVersion

PLUGIN = "io.rowbridge.spark.connect.RowbridgeConnectPlugin"

# The server settings that register the plugin, for a command and for a relation.
PLUGIN_SETTINGS = (
    "spark.connect.extensions.command.classes",
    "spark.connect.extensions.relation.classes",
)

# The PySpark lines whose Connect server takes rowbridge's plugin (3.5's plugin interface is
# another).
CONNECT_LINES = ("4.0", "4.1", "4.2")

TO_ARROW = "io.rowbridge.connect.ToArrow"
ARROW_RELATION = "io.rowbridge.connect.ArrowRelation"

# What a Connect server answers for an extension no plugin of its handles.
_NO_HANDLER = "No handler found for extension"

_checked = set()
_lock = threading.Lock()


class RowbridgeConnectError(UnsupportedSparkVersion):
    """A Spark Connect session that rowbridge cannot serve: a server without rowbridge's plugin,
    or a PySpark line whose Connect has no plugin interface rowbridge takes."""


def is_connect(session_or_frame):
    """True for a Spark Connect session or DataFrame (False without PySpark's Connect client)."""
    try:
        from pyspark.sql.connect.dataframe import DataFrame
        from pyspark.sql.connect.session import SparkSession
    except ImportError:
        return False
    return isinstance(session_or_frame, (SparkSession, DataFrame))


def is_connect_builder(options):
    """Whether a builder of these options starts a Connect session (``remote(...)``,
    ``SPARK_REMOTE``, or ``spark.api.mode=connect``)."""
    return (
        "spark.remote" in options
        or "SPARK_REMOTE" in os.environ
        or str(options.get("spark.api.mode", os.environ.get("SPARK_API_MODE", ""))).lower()
        == "connect"
    )


def local_server(options):
    """Whether that Connect session's server starts in this process from the builder's settings
    (``remote("local...")``, or a master with ``spark.api.mode=connect``), so that the builder can
    set up rowbridge on it."""
    url = options.get("spark.remote", os.environ.get("SPARK_REMOTE"))
    if url is None:
        return True
    return str(url).startswith("local")


@functools.lru_cache(maxsize=None)
def _messages():
    """The classes of ``ToArrow`` and ``ArrowRelation``, made once in the default pool."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    import pyspark.sql.connect.proto as pb2

    pool = descriptor_pool.Default()
    try:
        pool.FindMessageTypeByName(TO_ARROW)
    except KeyError:
        described = descriptor_pb2.FileDescriptorProto(
            name="rowbridge/connect.proto",
            package="io.rowbridge.connect",
            syntax="proto3",
            dependency=[pb2.Relation.DESCRIPTOR.file.name],
        )
        for name in (TO_ARROW, ARROW_RELATION):
            message = described.message_type.add(name=name.rsplit(".", 1)[1])
            message.field.add(
                name="input",
                number=1,
                label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL,
                type=descriptor_pb2.FieldDescriptorProto.TYPE_MESSAGE,
                type_name=".spark.connect.Relation",
            )
        pool.Add(described)
    return tuple(
        message_factory.GetMessageClass(pool.FindMessageTypeByName(name))
        for name in (TO_ARROW, ARROW_RELATION)
    )


def check_line():
    """The installed PySpark's line; raises RowbridgeConnectError for one whose Connect server
    rowbridge has no plugin for."""
    line = _pyspark.line()
    if line not in CONNECT_LINES:
        import pyspark

        raise RowbridgeConnectError(
            "rowbridge.spark on Spark Connect needs PySpark %s; PySpark %s's Connect server has"
            " no plugin interface rowbridge's plugin takes" % (", ".join(CONNECT_LINES), pyspark.__version__)
        )
    return line


def _missing_plugin(session, error):
    return RowbridgeConnectError(
        "rowbridge.spark: the Spark Connect server of session %s has no rowbridge plugin (%s)."
        " Start it with rowbridge's jars (rowbridge.spark.jars()) on its class path and the"
        " settings %s; rowbridge.spark.configure(builder) sets them for remote(\"local...\")."
        % (
            session.session_id,
            str(error).splitlines()[0] if str(error) else type(error).__name__,
            ", ".join("%s=%s" % (setting, PLUGIN) for setting in PLUGIN_SETTINGS),
        )
    )


@functools.lru_cache(maxsize=None)
def _plan_classes():
    from pyspark.sql.connect import plan

    return plan


@functools.lru_cache(maxsize=None)
def _arrow_relation_class():
    """The plan node class of ``ArrowRelation`` (made once: it subclasses PySpark's)."""
    plan = _plan_classes()

    class ArrowRelation(plan.LogicalPlan):
        """Connect's local data relation (``local``), whose rows rowbridge's plugin makes."""

        def __init__(self, local):
            super().__init__(None)
            self._local = local

        def plan(self, client):
            _, message = _messages()
            relation = self._create_proto_relation()
            relation.extension.Pack(message(input=self._local.plan(client)))
            return relation

        def print(self, indent=0):
            return "%s<rowbridge ArrowRelation>\n%s" % (" " * indent, self._local.print(indent + 2))

        def _repr_html_(self):
            return "<ul><li><b>rowbridge ArrowRelation</b></li></ul>"

    return ArrowRelation


def _wrapped(node):
    """``node`` (the plan Connect's createDataFrame made) with its local data relation read by
    rowbridge's plugin; a plan without local data is returned as it is."""
    plan = _plan_classes()
    if isinstance(node, plan.ToDF):
        return plan.ToDF(_wrapped(node._child), node._cols)
    local_kinds = tuple(
        getattr(plan, name)
        for name in ("LocalRelation", "CachedLocalRelation", "ChunkedCachedLocalRelation")
        if hasattr(plan, name)
    )
    if not isinstance(node, local_kinds):
        return node
    if isinstance(node, plan.LocalRelation) and node._table is None:
        return node
    return _arrow_relation_class()(node)


def check_plugin(session):
    """Raises RowbridgeConnectError unless the session's server has rowbridge's plugin; asks the
    server once per session."""
    check_line()
    with _lock:
        if session.session_id in _checked:
            return
    import pyspark.sql.connect.proto as pb2

    _, message = _messages()
    probe = pb2.Plan()
    local = pb2.Relation()
    local.local_relation.schema = "rowbridge_probe INT"
    probe.root.extension.Pack(message(input=local))
    try:
        session.client.schema(probe)
    except Exception as error:
        if _NO_HANDLER in str(error):
            raise _missing_plugin(session, error) from None
        raise
    with _lock:
        _checked.add(session.session_id)


def _command_plan(df):
    import pyspark.sql.connect.proto as pb2

    to_arrow_message, _ = _messages()
    plan = pb2.Plan()
    plan.command.extension.Pack(to_arrow_message(input=df._plan.plan(df.sparkSession.client)))
    return plan


def _named_errors(session, run):
    try:
        return run()
    except Exception as error:
        if _NO_HANDLER in str(error):
            raise _missing_plugin(session, error) from None
        raise


def _own(df, name):
    """Connect's own method ``name`` of ``df``, whether or not ``install()`` replaced it."""
    from rowbridge.spark import _install  # (it imports this module)

    return _install.original(type(df), name)(df)


def to_arrow(df):
    """``df.toArrow()`` of a Connect DataFrame, its batches made by rowbridge on the server. A
    DataFrame with observations (``observe``) takes Connect's own path, which carries their
    metrics back; rowbridge's sends batches only."""
    from pyspark.sql.pandas.types import to_arrow_schema

    if df._plan.observations:
        return _own(df, "toArrow")
    session = df.sparkSession
    check_plugin(session)
    options = {"timezone": "UTC"} if check_line() == "4.2" else {}
    schema = to_arrow_schema(df.schema, error_on_duplicated_field_names_in_struct=True, **options)
    plan = _command_plan(df)
    table, _, _ = _named_errors(
        session, lambda: session.client.to_table(plan, df._plan.observations)
    )
    return table.cast(schema)


def to_pandas(df):
    """``df.toPandas()`` of a Connect DataFrame (Connect's own conversion of the batches to
    pandas), its batches made by rowbridge on the server; with observations, Connect's own."""
    if df._plan.observations:
        return _own(df, "toPandas")
    session = df.sparkSession
    check_plugin(session)
    plan = _command_plan(df)
    pdf, _ = _named_errors(session, lambda: session.client.to_pandas(plan, df._plan.observations))
    return pdf


def create_dataframe(session, data, schema, as_table_or_pandas, with_metadata):
    """``session.createDataFrame(data, schema)`` of a Connect session, whose rows rowbridge's
    plugin makes on the server from the Arrow data Connect's own createDataFrame sends. Arrow
    columns PySpark refuses are read first as in the classic ``create_dataframe``."""
    import pyarrow as pa

    from pyspark.sql.connect.dataframe import DataFrame

    check_plugin(session)
    data = as_table_or_pandas(data)
    if isinstance(data, pa.Table):
        data, extensions = _arrow_input.readable(data, _pyspark.accepts_arrow_type)
        if extensions and schema is None:
            from pyspark.sql.pandas.types import from_arrow_schema

            schema = with_metadata(from_arrow_schema(data.schema), extensions)
    from rowbridge.spark import _install  # (it imports this module)

    made = _install.original(type(session), "createDataFrame")(session, data, schema)
    return DataFrame(_wrapped(made._plan), session)
