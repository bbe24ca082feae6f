"""rowbridge.spark's PySpark adapter (rowbridge/spark/_pyspark.py): the lines it knows, the named
error for any other at configure time, and PySpark's objects left as they were."""

import pyspark
import pytest
from pyspark.sql import SparkSession

import rowbridge.spark
from rowbridge.spark import _jars, _pyspark


def test_the_adapter_knows_every_line_the_wheel_carries_and_the_installed_one():
    assert sorted(_jars.lines()) == sorted(_pyspark.SUPPORTED_LINES)
    assert _pyspark.line() == ".".join(pyspark.__version__.split(".")[:2])


def test_a_pyspark_the_adapter_does_not_know_fails_at_configure(monkeypatch):
    monkeypatch.setattr(pyspark, "__version__", "4.9.0")
    with pytest.raises(rowbridge.spark.UnsupportedPySparkVersion) as error:
        rowbridge.spark.configure(SparkSession.Builder())
    message = str(error.value)
    assert "PySpark 4.9.0" in message
    for line in _pyspark.SUPPORTED_LINES:
        assert line in message, message
    # A kind of the jars' error, so that one except clause takes both.
    assert isinstance(error.value, rowbridge.spark.UnsupportedSparkVersion)
    with pytest.raises(rowbridge.spark.UnsupportedPySparkVersion):
        rowbridge.spark.install()
    assert not rowbridge.spark.installed()


def _attributes(value):
    return {name: id(attribute) for name, attribute in vars(value).items()}


def test_rowbridge_changes_no_attribute_of_the_session_or_the_dataframe(spark):
    df = spark.range(0, 50, 1, 2).selectExpr("id", "CAST(id AS STRING) AS s")
    assert df.schema is not None  # PySpark caches it on first use: not rowbridge's doing
    session_before = _attributes(spark)
    df_before = _attributes(df)
    classes_before = {cls: dict(vars(cls)) for cls in type(spark).__mro__ + type(df).__mro__}
    table = rowbridge.spark.to_arrow(df)
    pdf = rowbridge.spark.to_pandas(df)
    if _pyspark.line() != "3.5":
        rowbridge.spark.create_dataframe(spark, table).collect()
    rowbridge.spark.create_dataframe(spark, pdf).collect()
    assert _attributes(spark) == session_before
    assert _attributes(df) == df_before
    assert {cls: dict(vars(cls)) for cls in classes_before} == classes_before
    assert table.num_rows == len(pdf) == 50
