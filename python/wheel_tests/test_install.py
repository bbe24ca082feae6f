"""install() and uninstall(): PySpark's own methods answered by rowbridge, then PySpark's again."""

import pandas as pd
import pyarrow as pa

import rowbridge.spark
from frames_cases import QUERIES, arrow_enabled, spark_arrow


def _methods():
    try:
        from pyspark.sql.classic.dataframe import DataFrame
    except ImportError:
        from pyspark.sql.dataframe import DataFrame
    from pyspark.sql.session import SparkSession

    return {
        "toPandas": DataFrame.toPandas,
        "toArrow": getattr(DataFrame, "toArrow", None),
        "createDataFrame": SparkSession.createDataFrame,
    }


def test_install_answers_with_rowbridge_and_uninstall_puts_spark_back(spark):
    df = spark.sql(QUERIES["nested"])
    with arrow_enabled(spark):
        expected_pandas = df.toPandas()
    expected_arrow = spark_arrow(df)
    before = _methods()
    rowbridge.spark.install()
    try:
        rowbridge.spark.install()  # twice: nothing more
        assert rowbridge.spark.installed()
        during = _methods()
        assert during["toPandas"] is not before["toPandas"]
        assert during["createDataFrame"] is not before["createDataFrame"]
        pd.testing.assert_frame_equal(df.toPandas(), expected_pandas)
        if before["toArrow"] is not None:
            assert during["toArrow"] is not before["toArrow"]
            assert df.toArrow().equals(expected_arrow)
        # Covered input goes through rowbridge's JVM side; other input stays PySpark's.
        pdf = pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", None]})
        created = spark.createDataFrame(pdf)
        assert sorted(created.collect()) == sorted(spark.createDataFrame(pdf.values.tolist(), ["a", "b"]).collect())
        assert spark.createDataFrame([(1, "x")], ["a", "b"]).collect()[0].b == "x"
        if before["toArrow"] is not None:
            table = pa.table({"a": [1, 2]})
            assert spark.createDataFrame(table).count() == 2
    finally:
        rowbridge.spark.uninstall()
    assert not rowbridge.spark.installed()
    after = _methods()
    assert all(after[name] is before[name] for name in before)
