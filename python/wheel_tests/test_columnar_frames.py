"""to_arrow and to_pandas of plans that end in columnar batches (format("rowbridge") scans, the
Arrow cache, DataFrames create_dataframe made, projections of them): their Arrow vectors go out
as they are, and the answers equal PySpark's own toArrow and Arrow toPandas of the same plan."""

import pandas as pd
import pyarrow as pa
import pytest

import rowbridge.spark
from frames_cases import QUERIES, arrow_enabled, spark_arrow

COLUMNAR = "spark.rowbridge.frames.columnar.enabled"


@pytest.fixture(scope="module")
def written(spark, tmp_path_factory):
    """Each query of QUERIES written as rowbridge's IPC files: name -> path."""
    root = tmp_path_factory.mktemp("columnar-frames")
    paths = {}
    for name, query in QUERIES.items():
        path = str(root / name.replace(" ", "_"))
        spark.sql(query).write.format("rowbridge").save(path)
        paths[name] = path
    return paths


def _same_as_spark(spark, df):
    ours = rowbridge.spark.to_arrow(df)
    theirs = spark_arrow(df)
    assert ours.schema.equals(theirs.schema), (ours.schema, theirs.schema)
    assert ours.equals(theirs)
    ours.validate(full=True)
    ours_pandas = rowbridge.spark.to_pandas(df)
    with arrow_enabled(spark):
        theirs_pandas = df.toPandas()
    assert list(ours_pandas.dtypes) == list(theirs_pandas.dtypes)
    pd.testing.assert_frame_equal(ours_pandas, theirs_pandas)


@pytest.mark.parametrize("name", list(QUERIES))
def test_a_scan_of_rowbridge_files_goes_columnar_and_equals_spark(spark, written, name):
    df = spark.read.format("rowbridge").load(written[name])
    assert rowbridge.spark.arrow_path(df).startswith("columnar"), rowbridge.spark.arrow_path(df)
    _same_as_spark(spark, df)


def _stored(spark):
    made = spark._jvm.io.rowbridge.spark.source.StoredBatchMessages.messagesMade()
    return made[0], made[1]


@pytest.mark.parametrize("compression", ["lz4", "zstd", "none"])
@pytest.mark.parametrize("name", ["flat", "nested"])
def test_the_files_buffers_go_as_stored(spark, tmp_path, name, compression):
    # Whole batches, and batches cut to some columns, with their buffers as the files store them.
    path = str(tmp_path / "stored")
    spark.sql(QUERIES[name]).write.format("rowbridge").option("compression", compression).option(
        "maxRowsPerBatch", "700"
    ).save(path)
    df = spark.read.format("rowbridge").load(path)
    whole, cut = _stored(spark)
    _same_as_spark(spark, df)
    after = _stored(spark)
    assert after[0] > whole and after[1] == cut, (whole, cut, after)
    _same_as_spark(spark, df.select(*reversed(df.columns[1:])))
    assert _stored(spark)[1] > after[1]


def test_a_damaged_stored_batch_is_a_named_error(spark, tmp_path):
    path = tmp_path / "damaged"
    spark.range(0, 5000, 1, 1).selectExpr("id", "CAST(id AS STRING) AS s").write.format(
        "rowbridge"
    ).option("maxRowsPerBatch", "1000").save(str(path))
    (file,) = [f for f in path.iterdir() if f.suffix == ".arrow"]
    df = spark.read.format("rowbridge").load(str(path))
    assert rowbridge.spark.arrow_path(df).startswith("columnar")  # planned with the footer read
    # Then the file changes under the plan: the second message (after the schema's) is the first
    # record batch, whose metadata length now claims more than the file holds.
    data = bytearray(file.read_bytes())
    second = data.index(b"\xff\xff\xff\xff", data.index(b"\xff\xff\xff\xff") + 8)
    data[second + 4 : second + 8] = (1 << 30).to_bytes(4, "little")
    file.write_bytes(bytes(data))
    for checksum in path.glob(".*.crc"):
        checksum.unlink()
    with pytest.raises(Exception) as failure:
        rowbridge.spark.to_arrow(df)
    assert "damaged message" in str(failure.value) and file.name in str(failure.value)
    # The session goes on.
    assert rowbridge.spark.to_arrow(spark.range(3)).num_rows == 3


@pytest.mark.parametrize("name", ["flat", "nested"])
def test_projections_stay_columnar_and_filters_take_rows(spark, written, name):
    df = spark.read.format("rowbridge").load(written[name])
    columns = list(reversed(df.columns[1:])) + ["id"]
    projected = df.select(*columns)
    assert rowbridge.spark.arrow_path(projected).startswith("columnar")
    _same_as_spark(spark, projected)
    computed = df.selectExpr("id + 1 AS next", *df.columns[1:3])
    assert rowbridge.spark.arrow_path(computed).startswith("rows")
    _same_as_spark(spark, computed)
    filtered = df.where("id % 3 = 1")
    assert rowbridge.spark.arrow_path(filtered).startswith("rows")
    _same_as_spark(spark, filtered)
    _same_as_spark(spark, df.limit(17))


@pytest.mark.parametrize("compression", ["lz4", "zstd", "none"])
@pytest.mark.parametrize("name", ["flat", "nested"])
def test_the_arrow_cache_goes_columnar_and_equals_spark(spark, name, compression):
    # The cached buffers go as stored, compressed where the cache compresses them.
    spark.conf.set("spark.rowbridge.cache.compression", compression)
    df = spark.sql(QUERIES[name]).cache()
    try:
        df.count()
        assert rowbridge.spark.arrow_path(df).startswith("columnar"), rowbridge.spark.arrow_path(df)
        made = spark._jvm.io.rowbridge.spark.cache.CachedBatchMessages.messagesMade()
        stored, read = made[0], made[1]
        _same_as_spark(spark, df)
        columns = list(reversed(df.columns))
        _same_as_spark(spark, df.select(*columns))
        made = spark._jvm.io.rowbridge.spark.cache.CachedBatchMessages.messagesMade()
        assert made[0] > stored and made[1] == read, (stored, read, list(made))
    finally:
        df.unpersist()
        spark.conf.unset("spark.rowbridge.cache.compression")


@pytest.mark.parametrize("limit", [0, 1, 17, 2000, 10**9])
@pytest.mark.parametrize("name", ["flat", "nested"])
def test_a_collects_limit_stays_columnar_and_equals_spark(spark, written, name, limit):
    # The first rows in partition order: whole batches, the batch that crosses the limit cut, on
    # the executors and again on the driver across partitions.
    df = spark.read.format("rowbridge").load(written[name]).limit(limit)
    path = rowbridge.spark.arrow_path(df)
    if limit == 0:  # Spark's optimizer makes it an empty local relation
        assert path.startswith("rows"), path
    else:
        assert path.startswith("columnar") and ("the first %d rows" % limit) in path, path
    _same_as_spark(spark, df)
    cached = spark.sql(QUERIES[name]).repartition(3).cache()
    try:
        cached.count()
        assert rowbridge.spark.arrow_path(cached.limit(limit)).startswith("columnar" if limit else "rows")
        _same_as_spark(spark, cached.limit(limit))
    finally:
        cached.unpersist()


def test_the_columnar_path_can_be_turned_off(spark, written):
    df = spark.read.format("rowbridge").load(written["flat"])
    spark.conf.set(COLUMNAR, "false")
    try:
        assert rowbridge.spark.arrow_path(df).startswith("rows")
        _same_as_spark(spark, df)
    finally:
        spark.conf.unset(COLUMNAR)


def test_a_dataframe_of_python_batches_goes_columnar(spark):
    if not hasattr(spark, "_create_from_arrow_table"):
        return  # PySpark 3.5: no Arrow input
    table = pa.table(
        {
            "id": pa.array(range(3000), pa.int64()),
            "s": pa.array([None if i % 7 == 0 else "v%d" % i for i in range(3000)]),
            "ts": pa.array([i * 1_000_000 for i in range(3000)], pa.timestamp("us", tz="UTC")),
        }
    )
    threshold = "spark.sql.execution.arrow.localRelationThreshold"
    spark.conf.set(threshold, "1k")  # a scan of the batches, not a local relation
    try:
        df = rowbridge.spark.create_dataframe(spark, table)
        assert rowbridge.spark.arrow_path(df).startswith("columnar"), rowbridge.spark.arrow_path(df)
        _same_as_spark(spark, df)
    finally:
        spark.conf.unset(threshold)


def test_a_scan_that_fails_midway_raises_in_python(spark, tmp_path):
    path = str(tmp_path / "broken")
    spark.range(0, 20000, 1, 4).selectExpr("id", "CAST(id AS STRING) AS s").write.format(
        "rowbridge"
    ).save(path)
    import glob
    import os

    victim = sorted(glob.glob(os.path.join(path, "*.arrow*")))[-1]
    size = os.path.getsize(victim)
    with open(victim, "r+b") as damaged:
        damaged.truncate(size // 2)
    df = spark.read.format("rowbridge").load(path)
    with pytest.raises(Exception) as error:
        rowbridge.spark.to_arrow(df)
    assert os.path.basename(victim) in str(error.value), str(error.value)[:2000]
    # The session goes on.
    assert rowbridge.spark.to_arrow(spark.range(3)).num_rows == 3
