"""The Python exchange in local-cluster mode: executors in JVMs of their own, each with its
Python workers, rowbridge's operators against Spark's, row for row. Run in a pytest process of
its own (one SparkContext per process): scripts/python_tests.sh."""

import pandas as pd
import pytest
from pyspark.sql.functions import pandas_udf

from conftest import session_builder
from exchange_cases import FLAT, NESTED, collect_both, frame, same_rows


@pytest.fixture(scope="module")
def cluster():
    session = (
        session_builder("local-cluster[2,1,1024]")
        .config("spark.executor.memory", "768m")
        .getOrCreate()
    )
    yield session
    session.stop()


def test_map_in_arrow_on_executors(cluster):
    def identity(batches):  # defined here: the executors' workers cannot import this module
        for batch in batches:
            yield batch

    df = frame(cluster, NESTED, rows=4000, partitions=4)
    ours, theirs = collect_both(
        cluster,
        lambda: df.mapInArrow(identity, df.schema),
        "RowbridgeMapInArrow",
        in_driver=False,
    )
    assert len(ours) == 4000
    same_rows(ours, theirs)


def test_a_pandas_udf_after_a_shuffle_on_executors(cluster):
    @pandas_udf("double")
    def combine(a: pd.Series, b: pd.Series, c: pd.Series) -> pd.Series:
        return a * 2 + b - c

    df = frame(cluster, FLAT, rows=4000, partitions=4).repartition(3, "s")
    ours, theirs = collect_both(
        cluster,
        lambda: df.select("id", combine("id", "i", "dbl").alias("r")),
        "RowbridgeArrowEvalPython",
        in_driver=False,
    )
    same_rows(sorted(ours), sorted(theirs))
