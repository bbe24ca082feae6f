"""rowbridge's Python daemon module (``spark.python.daemon.module``): PySpark's own daemon, with
rowbridge's UDF runtime imported before it forks its workers (each worker then starts with it
loaded). The workers it forks run PySpark's own worker for every eval type."""

import runpy

import rowbridge.spark.udf  # noqa: F401  (imported once, inherited by every forked worker)

if __name__ == "__main__":
    runpy.run_module("pyspark.daemon", run_name="__main__", alter_sys=True)
