"""The installed wheel's tests: a PySpark session set up by ``rowbridge.spark.configure`` alone
(the jars and extension the wheel carries for the installed PySpark), as a user's would be.

scripts/wheel_tests.sh runs them in a fresh virtual environment holding the line's PySpark and
the built wheel, never the source tree's ``python/rowbridge``.
"""

import os
import sys

import pytest
from pyspark.sql import SparkSession

import rowbridge.spark

# Small enough for test_frames.py's over-the-limit collect, large enough for every other test.
MAX_RESULT_SIZE = "8m"


def session_builder(master):
    """A builder of `master` that only rowbridge.spark.configure sets up for rowbridge."""
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    builder = (
        SparkSession.builder.master(master)
        .appName("rowbridge-wheel")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "America/Los_Angeles")
        .config("spark.driver.maxResultSize", MAX_RESULT_SIZE)
        .config("spark.sql.cache.serializer", "io.rowbridge.spark.ArrowCachedBatchSerializer")
    )
    return rowbridge.spark.configure(builder)


@pytest.fixture(scope="session")
def spark():
    session = session_builder("local[2]").getOrCreate()
    yield session
    session.stop()
