"""The Python exchange in local-cluster mode: executors in JVMs of their own, each with its
Python workers, rowbridge's operators against Spark's, row for row. Run in a pytest process of
its own (one SparkContext per process): scripts/python_tests.sh."""

import pandas as pd
import pytest
from pyspark.sql.functions import pandas_udf

import plain_udf_cases
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


def test_plain_udfs_on_executors(cluster):
    """Plain (pickled) UDFs over random values of every type, on rowbridge's path in the
    executors' workers against Spark's pickled path (seed in the messages)."""
    r = plain_udf_cases.rng("cluster")
    kinds = plain_udf_cases.FLAT_KINDS + plain_udf_cases.nested_kinds(r)[:6]
    df = plain_udf_cases.frame_of(cluster, kinds, 200, r, partitions=4)
    taken = [v for v in plain_udf_cases.returned_values(r) if not v.fails]
    returned = r.sample(taken, min(len(taken), 60))
    base = cluster.range(0, 40, 1, 2)
    with plain_udf_cases.plain_udfs(cluster):
        columns = plain_udf_cases.udf_columns(kinds)
        results = [
            plain_udf_cases.returned_column(v).alias(f"c{i}") for i, v in enumerate(returned)
        ]
    plain_udf_cases.compare(
        cluster, lambda: df.select("id", *columns), "plain UDFs on executors", rows=True
    )
    labels = "; ".join(f"c{i}: {v.label()}" for i, v in enumerate(returned))
    plain_udf_cases.compare(
        cluster, lambda: base.select("id", *results), f"returned values on executors ({labels})"
    )
