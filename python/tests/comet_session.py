"""The session of the suites over Apache Comet's plans: Comet's plugin, its extension after
rowbridge's, its native execution and shuffle, and the off-heap memory Comet requires (Spark
4.1, Comet's jar on the class path: scripts/python_tests.sh runs these modules in a process of
their own)."""

from conftest import session_builder


def comet_session():
    """A new local[2] session with Comet and rowbridge; the caller stops it."""
    return (
        session_builder("local[2]")
        .config("spark.plugins", "org.apache.spark.CometPlugin")
        .config(
            "spark.sql.extensions",
            "io.rowbridge.spark.RowbridgeExtensions,org.apache.comet.CometSparkSessionExtensions",
        )
        .config("spark.comet.enabled", "true")
        .config("spark.comet.exec.enabled", "true")
        .config(
            "spark.shuffle.manager",
            "org.apache.spark.sql.comet.execution.shuffle.CometShuffleManager",
        )
        .config("spark.memory.offHeap.enabled", "true")
        .config("spark.memory.offHeap.size", "512m")
        .getOrCreate()
    )


def write_parquet(spark, root, queries):
    """Each query of ``queries`` (name -> SQL) written as Parquet under ``root``: name -> path."""
    paths = {}
    for name, query in queries.items():
        paths[name] = str(root / name)
        spark.sql(query).write.parquet(paths[name])
    return paths
