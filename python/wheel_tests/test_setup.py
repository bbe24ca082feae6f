"""The wheel as installed: its jars, the builder's set-up, and the named error for a PySpark
whose line it does not carry."""

import os
import site
import sys
import zipfile

import pyspark
import pytest
from pyspark.sql import SparkSession

import rowbridge
import rowbridge.spark


def test_the_installed_wheel_is_what_runs():
    installed = os.path.realpath(rowbridge.__file__)
    roots = [os.path.realpath(path) for path in site.getsitepackages()]
    assert any(installed.startswith(root + os.sep) for root in roots), (installed, roots)


def test_the_jars_match_the_installed_pyspark_and_carry_both_architectures():
    jars = rowbridge.spark.jars()
    line = ".".join(pyspark.__version__.split(".")[:2])
    names = [os.path.basename(path) for path in jars]
    assert any(name.startswith("rowbridge-core-" + line + "_") for name in names), names
    assert any(name.startswith("rowbridge-spark-" + line + "_") for name in names), names
    assert any(name.startswith("arrow-c-data-") for name in names), names
    assert not any("tests" in name or "comet" in name for name in names), names
    core = next(path for path in jars if os.path.basename(path).startswith("rowbridge-core-"))
    with zipfile.ZipFile(core) as jar:
        entries = set(jar.namelist())
    for arch in ("x86_64", "aarch64"):
        assert "io/rowbridge/native/linux/%s/librowbridge_jni.so" % arch in entries


def test_a_pyspark_of_another_line_gets_a_named_error():
    with pytest.raises(rowbridge.spark.UnsupportedSparkVersion) as error:
        rowbridge.spark.jars("3.4.1")
    message = str(error.value)
    assert "3.4.1" in message
    for line in ("3.5", "4.0", "4.1", "4.2"):
        assert line in message, message


def test_configure_keeps_the_users_jars_and_extensions_first():
    builder = (
        SparkSession.Builder()
        .config("spark.jars", "/opt/user/first.jar")
        .config("spark.sql.extensions", "com.example.UserExtensions")
    )
    builder = rowbridge.spark.configure(rowbridge.spark.configure(builder))
    jars = builder._options["spark.jars"].split(",")
    assert jars[0] == "/opt/user/first.jar"
    assert jars[1:] == rowbridge.spark.jars()
    assert builder._options["spark.sql.extensions"] == (
        "com.example.UserExtensions," + rowbridge.spark.EXTENSION
    )


def test_the_session_runs_rowbridges_extension(spark):
    def identity(batches):
        yield from batches

    df = spark.range(0, 100, 1, 2).mapInArrow(identity, "id long")
    plan = df._jdf.queryExecution().executedPlan().toString()
    assert "RowbridgeMapInArrow" in plan, plan
    assert sorted(row.id for row in df.collect()) == list(range(100))
    assert sys.executable  # the workers run this interpreter (conftest)
