"""rowbridge's Python worker module (``spark.python.worker.module``): PySpark's own worker, run
with rowbridge's UDF runtime imported first, so that a worker without the ``rowbridge`` package
fails at its start rather than at its first plain UDF. Every eval type reaches PySpark's worker
unchanged."""

import runpy

import rowbridge.spark.udf  # noqa: F401  (the runtime that plain UDFs' commands call)
from pyspark.worker import main  # noqa: F401  (the worker's entry point, as PySpark names it)

if __name__ == "__main__":
    runpy.run_module("pyspark.worker", run_name="__main__", alter_sys=True)
