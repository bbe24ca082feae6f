"""to_arrow, to_pandas and create_dataframe in local-cluster mode: executors in JVMs of their own, which get
the wheel's jars through spark.jars as configure sets it. A process of its own runs the session
(one SparkContext per process)."""

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import sys
    import pandas as pd
    from conftest import session_builder
    import rowbridge.spark
    from frames_cases import QUERIES, spark_arrow

    spark = session_builder("local-cluster[2,1,1024]").config(
        "spark.executor.memory", "768m").getOrCreate()
    try:
        df = spark.sql(QUERIES["nested"])
        assert rowbridge.spark.to_arrow(df).equals(spark_arrow(df))
        # The columnar path: the executors' blocks fetched by the driver, in partition order.
        path = sys.argv[1]
        spark.sql(QUERIES["flat"]).write.format("rowbridge").save(path)
        scanned = spark.read.format("rowbridge").load(path)
        assert rowbridge.spark.arrow_path(scanned).startswith("columnar")
        assert rowbridge.spark.to_arrow(scanned).equals(spark_arrow(scanned))
        spark.conf.set("spark.sql.execution.arrow.pyspark.enabled", "true")
        pd.testing.assert_frame_equal(rowbridge.spark.to_pandas(scanned), scanned.toPandas())
        spark.conf.unset("spark.sql.execution.arrow.pyspark.enabled")
        pdf = pd.DataFrame({"id": range(5000), "s": ["v%d" % i for i in range(5000)]})
        # Past the threshold, a scan of the 5 batches of 1000 rows.
        spark.conf.set("spark.sql.execution.arrow.localRelationThreshold", "1k")
        spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "1000")
        created = rowbridge.spark.create_dataframe(spark, pdf)
        plan = created._jdf.queryExecution().executedPlan().toString()
        assert "5 Arrow batches from Python" in plan, plan
        # Consecutive batches share a partition, every core getting one.
        assert 2 <= created.rdd.getNumPartitions() < 5, created.rdd.getNumPartitions()
        assert created.selectExpr("sum(id)").collect()[0][0] == sum(range(5000))
        print("local-cluster: equal")
    finally:
        spark.stop()
    """
)


def test_on_executors_of_their_own(tmp_path):
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "flat")],
        cwd=here,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-6000:]
    assert "local-cluster: equal" in result.stdout
