"""The PySpark sessions of the Python exchange suites: Spark's local mode with rowbridge's
jars and extension, and this interpreter as the Python workers' interpreter.

ROWBRIDGE_CLASSPATH names rowbridge's jars (its core and Spark jars and arrow-c-data), as
scripts/python_tests.sh passes them for the Spark line under test.

The workers run rowbridge's Python worker and daemon modules (what rowbridge.spark.configure
sets, for rowbridge's path of plain UDFs), imported from this tree's python/ directory, put on
the workers' PYTHONPATH; they run in the session's time zone, which the pickled path's
timestamps depend on.
"""

import os
import sys

import pytest
from pyspark.sql import SparkSession

SOURCES = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TIME_ZONE = "America/Los_Angeles"


def session_builder(master):
    """A session of `master` with rowbridge on the driver's and the executors' class paths."""
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    classpath = os.environ["ROWBRIDGE_CLASSPATH"]
    paths = [SOURCES] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    return (
        SparkSession.builder.master(master)
        .appName("rowbridge-python-exchange")
        .config("spark.driver.extraClassPath", classpath)
        .config("spark.executor.extraClassPath", classpath)
        .config("spark.pyspark.python", sys.executable)
        .config("spark.sql.extensions", "io.rowbridge.spark.RowbridgeExtensions")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", TIME_ZONE)
        .config("spark.executorEnv.TZ", TIME_ZONE)
        .config("spark.python.worker.module", "rowbridge.spark.worker")
        .config("spark.python.daemon.module", "rowbridge.spark.daemon")
    )


@pytest.fixture(scope="session")
def spark():
    session = session_builder("local[2]").getOrCreate()
    yield session
    session.stop()
