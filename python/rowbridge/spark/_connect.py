"""rowbridge.spark on a Spark Connect session, whose process has no JVM: the server runs
rowbridge's Connect plugin (``io.rowbridge.spark.connect.RowbridgeConnectPlugin``, Spark 3.5 and
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
``to_pandas``) is the same on the lines of ``CONNECT_LINES``, but for what 3.5's lacks: its
``to_table`` and ``to_pandas`` take no observations and return the table or frame alone, and its
DataFrame has no ``toArrow``. A DataFrame that observes metrics (``observe``) takes Connect's own
path on every line.
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

# The PySpark lines whose Connect server takes rowbridge's plugin.
CONNECT_LINES = ("3.5", "4.0", "4.1", "4.2")

# The Maven coordinates of Spark 3.5's Connect server, which PySpark 3.5 does not carry: a
# remote("local...") session needs it among spark.jars.packages or spark.jars.
CONNECT_SERVER_35 = "org.apache.spark:spark-connect_2.12"

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


def server_packages(options):
    """The Maven coordinates a ``remote("local...")`` builder of these options still needs for
    its server: on PySpark 3.5, Connect's server of PySpark's own version, unless the builder's
    ``spark.jars.packages`` or ``spark.jars`` (or ``PYSPARK_SUBMIT_ARGS``) already names a Spark
    Connect jar; nothing on 4.0 and later, whose PySpark carries it."""
    if check_line() != "3.5":
        return []
    given = " ".join(
        str(value)
        for value in (
            options.get("spark.jars.packages"),
            options.get("spark.jars"),
            os.environ.get("PYSPARK_SUBMIT_ARGS"),
        )
        if value
    )
    if "spark-connect" in given:
        return []
    import pyspark

    return ["%s:%s" % (CONNECT_SERVER_35, pyspark.__version__)]


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


def _observes(message):
    """Whether a Connect plan message holds a CollectMetrics relation (``observe``)."""
    from google.protobuf.message import Message

    for field, value in message.ListFields():
        if field.type != field.TYPE_MESSAGE:
            continue
        if field.message_type.full_name == "spark.connect.CollectMetrics":
            return True
        if isinstance(value, Message):
            items = (value,)
        elif field.message_type.GetOptions().map_entry:
            items = value.values()
        else:
            items = value
        if any(isinstance(item, Message) and _observes(item) for item in items):
            return True
    return False


def _command_plan(df):
    """The plan of ``ToArrow`` over ``df``'s relation, or None for a DataFrame that observes
    metrics: rowbridge's command sends batches only, so it takes Connect's own path."""
    import pyspark.sql.connect.proto as pb2

    relation = df._plan.plan(df.sparkSession.client)
    if _observes(relation):
        return None
    to_arrow_message, _ = _messages()
    plan = pb2.Plan()
    plan.command.extension.Pack(to_arrow_message(input=relation))
    return plan


def _client_table(client, plan):
    """The table of ``plan``'s result, through Connect's client."""
    if check_line() == "3.5":
        table, _ = client.to_table(plan)
    else:
        table, _, _ = client.to_table(plan, {})
    return table


def _client_pandas(client, plan):
    """The pandas DataFrame of ``plan``'s result, through Connect's client (its conversion)."""
    if check_line() == "3.5":
        return client.to_pandas(plan)
    pdf, _ = client.to_pandas(plan, {})
    return pdf


def _arrow_schema(df):
    """The schema Connect's ``toArrow`` casts ``df``'s table to (on 3.5, which has no
    ``toArrow``, the one rowbridge's classic ``to_arrow`` gives)."""
    from pyspark.sql.pandas.types import to_arrow_schema

    line = check_line()
    if line == "3.5":
        return to_arrow_schema(df.schema)
    options = {"timezone": "UTC"} if line == "4.2" else {}
    return to_arrow_schema(df.schema, error_on_duplicated_field_names_in_struct=True, **options)


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
    """``df.toArrow()`` of a Connect DataFrame, its batches made by rowbridge on the server (on
    3.5, Connect's own Arrow result cast as ``toArrow`` casts it from 4.0 on). A DataFrame that
    observes metrics takes Connect's own path, which carries them back; rowbridge's sends batches
    only."""
    session = df.sparkSession
    plan = _command_plan(df)
    if plan is None:
        if check_line() != "3.5":
            return _own(df, "toArrow")
        plan = df._plan.to_proto(session.client)
    else:
        check_plugin(session)
    schema = _arrow_schema(df)
    table = _named_errors(session, lambda: _client_table(session.client, plan))
    return table.cast(schema)


def to_pandas(df):
    """``df.toPandas()`` of a Connect DataFrame (Connect's own conversion of the batches to
    pandas), its batches made by rowbridge on the server; observing metrics, Connect's own."""
    session = df.sparkSession
    plan = _command_plan(df)
    if plan is None:
        return _own(df, "toPandas")
    check_plugin(session)
    return _named_errors(session, lambda: _client_pandas(session.client, plan))


def create_dataframe(session, data, schema, as_table_or_pandas, with_metadata):
    """``session.createDataFrame(data, schema)`` of a Connect session, whose rows rowbridge's
    plugin makes on the server from the Arrow data Connect's own createDataFrame sends. Arrow
    columns PySpark refuses are read first as in the classic ``create_dataframe``; Arrow input
    needs PySpark 4.0 or later, as there."""
    import pyarrow as pa

    from pyspark.sql.connect.dataframe import DataFrame

    check_plugin(session)
    data = as_table_or_pandas(data)
    if isinstance(data, pa.Table) and check_line() == "3.5":
        import pyspark

        from rowbridge.spark._frames import RowbridgeFrameError

        raise RowbridgeFrameError(
            "rowbridge.spark.create_dataframe: Arrow input needs PySpark 4.0 or later"
            " (PySpark %s's createDataFrame takes no Arrow); pass a pandas DataFrame"
            % pyspark.__version__
        )
    if isinstance(data, pa.Table):
        data, extensions = _arrow_input.readable(data, _pyspark.accepts_arrow_type)
        if extensions and schema is None:
            from pyspark.sql.pandas.types import from_arrow_schema

            schema = with_metadata(from_arrow_schema(data.schema), extensions)
    from rowbridge.spark import _install  # (it imports this module)

    made = _install.original(type(session), "createDataFrame")(session, data, schema)
    if check_line() == "3.5":
        return DataFrame.withPlan(_wrapped(made._plan), session)
    return DataFrame(_wrapped(made._plan), session)
