"""to_arrow, to_pandas and create_dataframe on a Spark Connect session, against Connect's own
toArrow, toPandas and createDataFrame: equal tables, equal pandas frames and dtypes, Spark's
errors; and what the server does with malformed or oversized data from a client.

On 3.5, whose Connect has no toArrow, the oracle of to_arrow is Connect's own Arrow result cast as
rowbridge casts it (``connect_arrow``); and create_dataframe takes pandas input only, as 3.5's
createDataFrame does (Arrow input gets rowbridge's named error, as on a classic 3.5 session)."""

import os
import sys

import pandas as pd
import pandas.testing as pdt
import pyarrow as pa
import pytest

import rowbridge.spark
from rowbridge.spark import _connect

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "wheel_tests"))
from frames_cases import QUERIES  # noqa: E402

from conftest import LINE, client_table, connect_arrow  # noqa: E402


def streams(server_jvm):
    """How many batch streams rowbridge's frames have sent from the server's JVM."""
    return server_jvm.org.apache.spark.sql.rowbridge.frames.PartitionBlocks.streams()


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_to_arrow_equals_connects_own(spark, server_jvm, name):
    df = spark.sql(QUERIES[name])
    before = streams(server_jvm)
    ours = rowbridge.spark.to_arrow(df)
    assert streams(server_jvm) == before + 1, "rowbridge's path did not run on the server"
    theirs = connect_arrow(df)
    assert ours.schema == theirs.schema
    assert ours.equals(theirs), name


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_to_pandas_equals_connects_own(spark, name):
    df = spark.sql(QUERIES[name])
    ours = rowbridge.spark.to_pandas(df)
    theirs = df.toPandas()
    pdt.assert_frame_equal(ours, theirs)
    # 3.5's toPandas keeps the plan's metrics in attrs; rowbridge's server sends them too.
    assert sorted(ours.attrs) == sorted(theirs.attrs)


def test_columnar_sources_equal_connects_own(spark, server_jvm, tmp_path):
    source = spark.sql(QUERIES["flat"])
    path = str(tmp_path / "flat")
    source.write.format("rowbridge").save(path)
    files = spark.read.format("rowbridge").load(path)
    cached = spark.sql(QUERIES["nested"]).cache()
    try:
        cached.count()
        limits = (files.limit(17), cached.limit(2500))  # columnar: the first rows in order
        for df in (files, files.select("s", "id"), files.where("id % 3 = 0"), cached) + limits:
            before = streams(server_jvm)
            ours = rowbridge.spark.to_arrow(df)
            assert streams(server_jvm) == before + 1
            assert ours.equals(connect_arrow(df))
            pdt.assert_frame_equal(rowbridge.spark.to_pandas(df), df.toPandas())
        assert sorted(files.collect()) == sorted(source.collect())
    finally:
        cached.unpersist()


def sample_table(rows, seed):
    import random

    generator = random.Random(seed)
    print("sample_table seed", seed)
    return pa.table(
        {
            "id": pa.array(range(rows), pa.int64()),
            "x": pa.array([generator.random() if i % 7 else None for i in range(rows)]),
            "s": pa.array(["v%d-%s" % (i, "é" * (i % 5)) for i in range(rows)]),
            "d": pa.array([i % 20000 for i in range(rows)], pa.date32()),
            "l": pa.array([[i, None] if i % 3 else None for i in range(rows)], pa.list_(pa.int32())),
            "st": pa.array(
                [{"a": i, "b": str(i)} for i in range(rows)],
                pa.struct([("a", pa.int64()), ("b", pa.string())]),
            ),
        }
    )


def arrow_input(spark, table):
    """The Arrow input of the create_dataframe cases: the table itself, or on 3.5 (whose
    createDataFrame takes no Arrow) its pandas frame, after checking that create_dataframe
    refuses the table with rowbridge's named error."""
    if LINE != "3.5":
        return table
    with pytest.raises(rowbridge.spark.RowbridgeFrameError, match="needs PySpark 4.0"):
        rowbridge.spark.create_dataframe(spark, table)
    return table.to_pandas()


@pytest.mark.parametrize("rows", [0, 1000])
def test_create_dataframe_equals_connects_own(spark, rows):
    table = sample_table(rows, seed=rows + 17)
    pdf = table.to_pandas()
    if rows == 0:
        # Connect's own error for data without rows and schema, which create_dataframe raises as
        # Connect's createDataFrame does; with a schema, an empty frame of it.
        for data in (arrow_input(spark, table), pdf):
            for create in (rowbridge.spark.create_dataframe, type(spark).createDataFrame):
                with pytest.raises(Exception, match="CANNOT_INFER_EMPTY_SCHEMA"):
                    create(spark, data)
        data = arrow_input(spark, table)
        ours = rowbridge.spark.create_dataframe(spark, data, "id LONG, s STRING")
        assert ours.schema == spark.createDataFrame(data, "id LONG, s STRING").schema
        assert ours.count() == 0
        return
    data = arrow_input(spark, table)
    ours = rowbridge.spark.create_dataframe(spark, data)
    theirs = spark.createDataFrame(data)
    assert ours.schema == theirs.schema
    assert connect_arrow(ours).equals(connect_arrow(theirs))
    ours = rowbridge.spark.create_dataframe(spark, pdf)
    theirs = spark.createDataFrame(pdf)
    assert ours.schema == theirs.schema
    pdt.assert_frame_equal(ours.toPandas(), theirs.toPandas())


def test_create_dataframe_with_a_schema_and_names(spark):
    table = arrow_input(spark, sample_table(300, seed=5))
    schema = "id LONG, x DOUBLE, s STRING, d DATE, l ARRAY<INT>, st STRUCT<a: LONG, b: STRING>"
    for given in (schema, ["c%d" % i for i in range(6)]):
        ours = rowbridge.spark.create_dataframe(spark, table, given)
        theirs = spark.createDataFrame(table, given)
        assert ours.schema == theirs.schema
        assert ours.collect() == theirs.collect()


def test_create_dataframe_of_cached_local_data(spark):
    """Data above the cache threshold goes to the server as artifacts before the plan."""
    key = "spark.sql.session.localRelationCacheThreshold"
    before = spark.conf.get(key)
    spark.conf.set(key, str(1 << 20))
    try:
        table = sample_table(60000, seed=3)
        assert table.nbytes > 1 << 20
        data = arrow_input(spark, table)
        ours = rowbridge.spark.create_dataframe(spark, data)
        theirs = spark.createDataFrame(data)
        assert ours.schema == theirs.schema
        assert connect_arrow(ours).equals(connect_arrow(theirs))
        assert ours.where("id % 1000 = 3").count() == 60
    finally:
        spark.conf.set(key, before)


def test_create_dataframe_takes_view_types(spark):
    table = sample_table(500, seed=9)
    if LINE == "3.5":
        # No Arrow input on 3.5 (whose pyarrow cannot cast to views either): a table gets
        # rowbridge's named error.
        arrow_input(spark, table)
        return
    viewed = table.set_column(2, "s", table.column("s").cast(pa.string_view()))
    ours = rowbridge.spark.create_dataframe(spark, viewed)
    assert ours.toArrow().equals(spark.createDataFrame(table).toArrow())


def test_max_result_size_keeps_sparks_error(spark):
    df = spark.sql("SELECT id, REPEAT('x', 40) AS s FROM range(0, 2000000, 1, 4)")
    with pytest.raises(Exception, match="spark.driver.maxResultSize"):
        rowbridge.spark.to_arrow(df)
    assert spark.range(5).count() == 5


def test_failed_job_raises_its_error(spark):
    df = spark.sql(
        "SELECT IF(id = 70000, RAISE_ERROR('rowbridge-boom'), id) AS id FROM range(0, 100000, 1, 4)"
    )
    with pytest.raises(Exception, match="rowbridge-boom"):
        rowbridge.spark.to_arrow(df)
    with pytest.raises(Exception, match="rowbridge-boom"):
        rowbridge.spark.to_pandas(df)
    assert spark.range(5).count() == 5


def arrow_relation_plan(data, schema="a INT"):
    import pyspark.sql.connect.proto as pb2

    _, message = _connect._messages()
    local = pb2.Relation()
    local.local_relation.data = data
    local.local_relation.schema = schema
    plan = pb2.Plan()
    plan.root.extension.Pack(message(input=local))
    return plan


def ipc_bytes(table):
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


@pytest.mark.parametrize(
    "data, why",
    [
        (b"not an arrow stream at all", "not a valid Arrow IPC stream"),
        ("truncated", "not a valid Arrow IPC stream"),
    ],
)
def test_malformed_ipc_gets_a_named_error(spark, separate_server, data, why):
    if data == "truncated":
        whole = ipc_bytes(pa.table({"a": pa.array(range(10000), pa.int32())}))
        data = whole[: len(whole) // 2]
    with pytest.raises(Exception, match=why) as raised:
        client_table(spark, arrow_relation_plan(data))
    assert "Connect local data" in str(raised.value)
    # The server, the calling Connect session and another Connect session go on.
    assert spark.range(5).count() == 5
    assert separate_server.range(7).count() == 7


def test_oversized_request_is_refused_alone(spark, separate_server):
    from conftest import MAX_INBOUND

    data = ipc_bytes(pa.table({"a": pa.array(range(MAX_INBOUND // 4 + 1000), pa.int32())}))
    assert len(data) > MAX_INBOUND
    refused = "(?i)RESOURCE_EXHAUSTED|message larger than max"
    if LINE == "3.5":
        # 3.5's gRPC server resets the stream of an oversized message (its log names
        # RESOURCE_EXHAUSTED); the client sees the reset.
        refused += "|RST_STREAM"
    with pytest.raises(Exception, match=refused):
        client_table(spark, arrow_relation_plan(data))
    assert spark.range(5).count() == 5
    assert separate_server.range(7).count() == 7


def test_separate_server(separate_server):
    spark = separate_server
    for name in ("flat", "nested", "empty"):
        df = spark.sql(QUERIES[name])
        assert rowbridge.spark.to_arrow(df).equals(connect_arrow(df)), name
        pdt.assert_frame_equal(rowbridge.spark.to_pandas(df), df.toPandas())
    data = arrow_input(spark, sample_table(2000, seed=11))
    ours = rowbridge.spark.create_dataframe(spark, data)
    assert connect_arrow(ours).equals(connect_arrow(spark.createDataFrame(data)))


def test_server_without_the_plugin_gets_a_named_error(plain_server):
    df = plain_server.range(3)
    for call in (
        lambda: rowbridge.spark.to_arrow(df),
        lambda: rowbridge.spark.to_pandas(df),
        lambda: rowbridge.spark.create_dataframe(plain_server, pa.table({"a": [1]})),
    ):
        with pytest.raises(rowbridge.spark.RowbridgeConnectError) as raised:
            call()
        message = str(raised.value)
        assert "has no rowbridge plugin" in message
        assert "spark.connect.extensions.command.classes=" + rowbridge.spark.CONNECT_PLUGIN in message
    assert plain_server.range(4).count() == 4


def test_install_answers_connects_methods(spark, server_jvm):
    from pyspark.sql.connect.dataframe import DataFrame

    # 3.5's Connect DataFrame has no toArrow, and its createDataFrame no Arrow input: install()
    # answers toPandas and createDataFrame of pandas there.
    data = arrow_input(spark, sample_table(800, seed=23))
    df = spark.sql(QUERIES["flat"])
    expected_arrow = connect_arrow(df)
    expected_pandas = df.toPandas()
    own_create = connect_arrow(spark.createDataFrame(data))
    own_methods = {
        name: getattr(DataFrame, name) for name in ("toArrow", "toPandas") if hasattr(DataFrame, name)
    }
    rowbridge.spark.install()
    try:
        assert all(getattr(DataFrame, name) is not own for name, own in own_methods.items())
        before = streams(server_jvm)
        if hasattr(DataFrame, "toArrow"):
            assert df.toArrow().equals(expected_arrow)
        pdt.assert_frame_equal(df.toPandas(), expected_pandas)
        assert streams(server_jvm) == before + len(own_methods)
        assert connect_arrow(spark.createDataFrame(data)).equals(own_create)
    finally:
        rowbridge.spark.uninstall()
    assert all(getattr(DataFrame, name) is own for name, own in own_methods.items())


def test_observed_metrics_take_connects_own_path(spark, server_jvm):
    from pyspark.sql import Observation
    from pyspark.sql import functions as F

    if LINE == "3.5":
        # 3.5's Connect has no Observation results: its toPandas keeps the observed metrics in
        # attrs, and its Arrow result has none to keep.
        df = spark.range(0, 1000, 1, 2).observe("rows", F.count(F.lit(1)).alias("n"))
        before = streams(server_jvm)
        pdf = rowbridge.spark.to_pandas(df)
        table = rowbridge.spark.to_arrow(df)
        assert streams(server_jvm) == before, "observed metrics need Connect's own path"
        assert len(pdf) == table.num_rows == 1000
        assert [metrics.name for metrics in pdf.attrs["observed_metrics"]] == ["rows"]
        assert table.equals(connect_arrow(df))
        return
    observation = Observation("rows")
    df = spark.range(0, 1000, 1, 2).observe(observation, F.count(F.lit(1)).alias("n"))
    before = streams(server_jvm)
    table = rowbridge.spark.to_arrow(df)
    assert streams(server_jvm) == before, "observed metrics need Connect's own path"
    assert table.num_rows == 1000
    assert observation.get == {"n": 1000}


def test_configure_sets_up_connect_builders():
    import pyspark
    from pyspark.sql import SparkSession

    options = rowbridge.spark.configure(SparkSession.builder.remote("local[2]"))._options
    for setting in _connect.PLUGIN_SETTINGS:
        assert rowbridge.spark.CONNECT_PLUGIN in options[setting].split(",")
    assert rowbridge.spark.EXTENSION in options["spark.sql.extensions"]
    if LINE == "3.5":
        # PySpark 3.5 does not carry Connect's server: configure names it, unless a jar is given.
        connect = "org.apache.spark:spark-connect_2.12:" + pyspark.__version__
        assert options["spark.jars.packages"] == connect
        given = SparkSession.builder.remote("local[2]").config(
            "spark.jars", "/opt/spark-connect_2.12-3.5.5.jar"
        )
        assert "spark.jars.packages" not in rowbridge.spark.configure(given)._options
    else:
        assert "spark.jars.packages" not in options
    remote = SparkSession.builder.remote("sc://example.invalid:15002")
    assert "spark.jars" not in rowbridge.spark.configure(remote)._options
