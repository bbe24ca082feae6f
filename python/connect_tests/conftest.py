"""The wheel's Spark Connect suites: rowbridge.spark on Connect sessions, against real Connect
servers, with Connect's own toArrow, toPandas and createDataFrame as the oracle.

- ``spark``: ``SparkSession.builder.remote("local[2]")`` set up by ``rowbridge.spark.configure``
  alone; PySpark starts its server in this process's JVM (``server_jvm`` reaches it).
- ``separate_server`` / ``plain_server``: Connect servers in JVMs of their own on a port, started
  as ``start-connect-server.sh`` starts one (``spark-submit --class ...SparkConnectServer``), with
  rowbridge's jars and settings, and without rowbridge's plugin.

PySpark 3.5 carries no Connect server: there every server gets the spark-connect jar that
scripts/wheel_tests.sh names in ``ROWBRIDGE_TEST_CONNECT_JARS``, through ``spark.jars`` as a user
adds it. 3.5's server has no authentication token, so its sessions connect without one.

scripts/wheel_tests.sh LINE --connect runs them in a fresh virtual environment holding the line's
``pyspark[connect]`` pins and the built wheel; they need a classic-free process, so they live
apart from python/wheel_tests.
"""

import os
import socket
import subprocess
import sys
import tempfile
import time

import pytest
from pyspark.sql import SparkSession

import rowbridge.spark
from rowbridge.spark import _connect

LINE = _connect.check_line()

# Small enough for the over-the-limit collect, large enough for every other test.
MAX_RESULT_SIZE = "8m"
# The gRPC limit of a client's message on the servers here (Spark's default is 128 MiB).
MAX_INBOUND = 16 << 20


def server_jars():
    """The jars every Connect server here needs besides rowbridge's: on 3.5, Connect's own."""
    if LINE != "3.5":
        return []
    jars = os.environ.get("ROWBRIDGE_TEST_CONNECT_JARS")
    if not jars:
        raise RuntimeError(
            "ROWBRIDGE_TEST_CONNECT_JARS must name Spark 3.5's spark-connect jar"
            " (scripts/wheel_tests.sh 3.5 --connect sets it)"
        )
    return jars.split(",")


def connect_arrow(df):
    """Connect's own Arrow collect of ``df``: toArrow (4.0 and later), or on 3.5, which has none,
    the table of Connect's own execution of its plan, cast as rowbridge.spark.to_arrow casts."""
    if hasattr(df, "toArrow"):
        return df.toArrow()
    from pyspark.sql.pandas.types import to_arrow_schema

    client = df.sparkSession.client
    table, _ = client.to_table(df._plan.to_proto(client))
    return table.cast(to_arrow_schema(df.schema))


def client_table(session, plan):
    """The table of a Connect plan message's result, through the session's client."""
    return _connect._client_table(session.client, plan)


def builder(remote):
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    built = SparkSession.builder.remote(remote)
    jars = server_jars()
    if jars:
        built = built.config("spark.jars", ",".join(jars))
    return (
        built
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "America/Los_Angeles")
        .config("spark.driver.maxResultSize", MAX_RESULT_SIZE)
        .config("spark.connect.grpc.maxInboundMessageSize", str(MAX_INBOUND))
        .config("spark.sql.cache.serializer", "io.rowbridge.spark.ArrowCachedBatchSerializer")
    )


@pytest.fixture(scope="session")
def spark():
    session = rowbridge.spark.configure(builder("local[2]")).getOrCreate()
    yield session
    session.stop()


@pytest.fixture(scope="session")
def server_jvm(spark):
    """The JVM of the local[2] Connect server (PySpark's classic context in this process)."""
    from pyspark import SparkContext

    return SparkContext._active_spark_context._jvm


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start_server(settings, name):
    """A Connect server in a JVM of its own, as start-connect-server.sh starts one, with an
    authentication token of its own (none on 3.5, whose server has no authentication); returns
    (process, url, log path)."""
    import uuid

    import pyspark

    home = os.path.dirname(pyspark.__file__)
    port = _free_port()
    token = str(uuid.uuid4())
    log = tempfile.NamedTemporaryFile(prefix="rowbridge-%s-" % name, suffix=".log", delete=False)
    url = "sc://localhost:%d/;token=%s" % (port, token)
    if LINE == "3.5":
        url = "sc://localhost:%d" % port
        access = []
        jars = [jar for jar in settings.get("spark.jars", "").split(",") if jar]
        settings = dict(settings, **{"spark.jars": ",".join(server_jars() + jars)})
    else:
        access = [
            "--conf",
            "spark.connect.grpc.binding.address=localhost",
            "--conf",
            "spark.connect.authenticate.token=%s" % token,
        ]
    command = [
        os.path.join(home, "bin", "spark-submit"),
        "--class",
        "org.apache.spark.sql.connect.service.SparkConnectServer",
        "--name",
        "Spark Connect server (%s)" % name,
        "--master",
        "local[2]",
        "--conf",
        "spark.connect.grpc.binding.port=%d" % port,
        *access,
        "--conf",
        "spark.ui.enabled=false",
        "--conf",
        "spark.driver.maxResultSize=%s" % MAX_RESULT_SIZE,
        "--conf",
        "spark.connect.grpc.maxInboundMessageSize=%d" % MAX_INBOUND,
    ]
    for key, value in settings.items():
        command += ["--conf", "%s=%s" % (key, value)]
    command.append("spark-internal")
    env = dict(os.environ, SPARK_HOME=home)
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the %s Connect server exited; its log: %s" % (name, log.name))
        try:
            with socket.create_connection(("localhost", port), timeout=1):
                return process, url, log.name
        except OSError:
            time.sleep(0.5)
    process.kill()
    raise RuntimeError("the %s Connect server did not listen in 180 s; its log: %s" % (name, log.name))


def _stop(process):
    process.terminate()
    try:
        process.wait(60)
    except subprocess.TimeoutExpired:
        process.kill()


def _close(session):
    """Closes a session on a server elsewhere. Not ``stop()``: in a process that started a local
    server (``remote("local...")``), Connect's ``stop()`` of any session stops that server too.
    (3.5's client has no ``release_session``: its server lets the session expire.)"""
    if hasattr(session.client, "release_session"):
        session.client.release_session()
    session.client.close()


def rowbridge_server_settings():
    """What a Connect server needs for rowbridge: its jars, its extension, its plugin."""
    from rowbridge.spark._configure import PYTHON_MODULES

    settings = {
        "spark.jars": ",".join(rowbridge.spark.jars()),
        "spark.sql.extensions": rowbridge.spark.EXTENSION,
        "spark.sql.cache.serializer": "io.rowbridge.spark.ArrowCachedBatchSerializer",
        "spark.sql.shuffle.partitions": "4",
        **PYTHON_MODULES,
    }
    for setting in ("spark.connect.extensions.command.classes", "spark.connect.extensions.relation.classes"):
        settings[setting] = rowbridge.spark.CONNECT_PLUGIN
    return settings


@pytest.fixture(scope="session")
def separate_server(spark):
    """A session on a Connect server with rowbridge in a JVM of its own."""
    process, url, _ = _start_server(rowbridge_server_settings(), "rowbridge")
    session = SparkSession.builder.remote(url).create()
    yield session
    _close(session)
    _stop(process)


@pytest.fixture(params=["local", "separate"])
def connect(request):
    """Each of the two Connect servers with rowbridge in turn."""
    return request.getfixturevalue("spark" if request.param == "local" else "separate_server")


@pytest.fixture(scope="session")
def plain_server(spark):
    """A session on a Connect server without rowbridge, in a JVM of its own."""
    process, url, _ = _start_server({}, "plain")
    session = SparkSession.builder.remote(url).create()
    yield session
    _close(session)
    _stop(process)
