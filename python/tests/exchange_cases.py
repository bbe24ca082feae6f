"""What the Python exchange suites share: the frames they run and how they run each one both
ways, with rowbridge's operators and with Spark's, comparing the answers row for row."""

import re
import time

ENABLED = "spark.rowbridge.python.enabled"

# The names of rowbridge's Python operators in plans.
PYTHON_NODES = (
    "RowbridgeMapInArrow",
    "RowbridgeMapInPandas",
    "RowbridgeArrowEvalPython",
    "RowbridgeFlatMapGroupsInPandas",
    "RowbridgeFlatMapGroupsInArrow",
)

# Every flat type, with nulls, NaN and infinities, multi-byte strings, decimals of both
# widths and zoned timestamps.
FLAT = (
    "SELECT id, CAST(id AS INT) AS i, CAST(id % 32000 AS SMALLINT) AS sh,"
    " CAST(id % 128 AS TINYINT) AS t, IF(id % 7 = 0, NULL, id % 2 = 0) AS b,"
    " CAST(id / 7 AS FLOAT) AS f,"
    " CASE id % 11 WHEN 0 THEN CAST('NaN' AS DOUBLE) WHEN 1 THEN CAST('-Infinity' AS DOUBLE)"
    " ELSE id / 3.0D END AS dbl,"
    " IF(id % 5 = 0, NULL, CAST(id * 1.25 AS DECIMAL(9, 2))) AS dec_small,"
    " CAST(id * 1000000007 AS DECIMAL(38, 10)) AS dec_big,"
    " IF(id % 4 = 0, NULL, CONCAT('name-', id, REPEAT('é', CAST(id % 9 AS INT)))) AS s,"
    " IF(id % 6 = 0, NULL, CAST(CONCAT('b', id) AS BINARY)) AS bin,"
    " DATE_ADD(DATE'1960-01-01', CAST(id * 13 AS INT)) AS d,"
    " IF(id % 9 = 0, NULL, TIMESTAMP_SECONDS(id * 7919 - 400000000)) AS ts,"
    " CAST(TIMESTAMP_SECONDS(id * 3) AS TIMESTAMP_NTZ) AS ntz"
    " FROM range(0, {rows}, 1, {partitions})"
)

NESTED = (
    "SELECT id, NAMED_STRUCT('x', id, 'y', IF(id % 4 = 0, NULL, CAST(id AS STRING))) AS st,"
    " IF(id % 6 = 0, NULL, TRANSFORM(SEQUENCE(0, CAST(id % 5 AS INT)),"
    " v -> IF(v = 2, NULL, v))) AS arr,"
    " MAP(CAST(id AS STRING), IF(id % 3 = 0, NULL, id), 'k', id * 2) AS m,"
    " ARRAY(NAMED_STRUCT('k', ARRAY(id, NULL), 'v', MAP('a', CAST(id AS STRING))),"
    " NAMED_STRUCT('k', ARRAY(), 'v', MAP('b', NULL))) AS deep,"
    " ARRAY(CAST(id AS DECIMAL(20, 4)), NULL) AS decs"
    " FROM range(0, {rows}, 1, {partitions})"
)


def arrow_identity(batches):
    for batch in batches:
        yield batch


def pandas_identity(frames):
    for pdf in frames:
        yield pdf


def batch_sizes(batches):
    """One row per batch the worker is sent: its row count."""
    import pyarrow as pa

    for batch in batches:
        yield pa.RecordBatch.from_pydict({"rows": [batch.num_rows]})


def frame(spark, query, rows=3000, partitions=3):
    return spark.sql(query.format(rows=rows, partitions=partitions))


def executed_plan(df):
    return df._jdf.queryExecution().executedPlan().toString()


def rowbridge_python_nodes(df):
    """rowbridge's Python operators in the plan `df` ran, with adaptive stages unwrapped."""
    found = []
    pending = [df._jdf.queryExecution().executedPlan()]
    while pending:
        node = pending.pop()
        name = node.nodeName()
        if name == "AdaptiveSparkPlan":
            pending.append(node.executedPlan())
            continue
        if hasattr(node, "plan") and "QueryStage" in name:
            pending.append(node.plan())
            continue
        if name in PYTHON_NODES:
            found.append(node)
        children = node.children()
        pending.extend(children.apply(i) for i in range(children.size()))
    return found


def metric(node, name):
    return node.metrics().get(name).get().value()


def held_native_bytes(spark):
    return spark._jvm.io.rowbridge.spark.memory.TaskMemoryAccounting.heldInThisJvm()


def wait_until_released(spark, seconds=30):
    """Waits for the native memory rowbridge accounts to tasks to be released; returns it."""
    deadline = time.time() + seconds
    held = held_native_bytes(spark)
    while held != 0 and time.time() < deadline:
        time.sleep(0.2)
        held = held_native_bytes(spark)
    return held


def collect_both(spark, build, node, native_results=True, in_driver=True):
    """Runs the frame `build()` makes with rowbridge's operators, then with Spark's, and returns
    both answers; checks that the plans ran `node` (rowbridge's) and Spark's own operator, that
    rowbridge's converter took every batch the workers returned (with `native_results`), and,
    with the tasks `in_driver` (local mode), that no native memory stays accounted to them."""
    answers = {}
    try:
        for enabled in ("true", "false"):
            spark.conf.set(ENABLED, enabled)
            df = build()
            answers[enabled] = df.collect()
            plan = executed_plan(df)
            if enabled == "true":
                assert node in plan, plan
                nodes = rowbridge_python_nodes(df)
                assert nodes, plan
                if native_results:
                    for ran in nodes:
                        assert metric(ran, "numSparkBatches") == 0, plan
            else:
                assert "RowbridgeMapIn" not in plan, plan
    finally:
        spark.conf.unset(ENABLED)
    if in_driver:
        assert wait_until_released(spark) == 0
    return answers["true"], answers["false"]


def same_rows(ours, theirs):
    """Row for row, in order; NaN equals NaN (compared by repr)."""
    assert len(ours) == len(theirs), (len(ours), len(theirs))
    for index, (a, b) in enumerate(zip(ours, theirs)):
        assert repr(a) == repr(b), f"row {index}: rowbridge {a!r}, Spark {b!r}"


def failure_of(spark, build, enabled):
    """The exception collecting `build()` raises with rowbridge's operators on or off."""
    spark.conf.set(ENABLED, enabled)
    try:
        build().collect()
    except Exception as error:  # noqa: BLE001 - the exception is the result
        return error
    finally:
        spark.conf.unset(ENABLED)
    raise AssertionError(f"no failure with {ENABLED}={enabled}")


def first_line(error):
    """The first line of an error's message, without py4j's object ids."""
    return re.sub(r"\bo\d+\.", "o.", str(error).splitlines()[0])
