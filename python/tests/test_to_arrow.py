"""rowbridge_pyspark.to_arrow against Spark's own DataFrame.toArrow, in a local
PySpark session of the pinned pyspark with rowbridge's classes and native library.

Run by the JUnit test PySparkArrowTest (make test-java), which passes rowbridge's
class path (its classes and native library) in ROWBRIDGE_CLASSPATH.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import pyarrow as pa  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402

import rowbridge_pyspark  # noqa: E402

# Every type PySpark's toArrow takes (it refuses year-month intervals, which
# rowbridge_pyspark.to_arrow returns as interval[months]; and its final cast
# fails on a null struct whose fields are not nullable, so structs here are
# never null).
QUERIES = {
    "flat": "SELECT id, CAST(id AS INT) AS i, id % 2 = 0 AS b, CAST(id AS SMALLINT) AS sh,"
    " CAST(id % 128 AS TINYINT) AS t, id / 3.0D AS dbl, CAST(id / 7 AS FLOAT) AS f,"
    " CAST(id AS DECIMAL(20, 3)) AS dec_big, CAST(id AS DECIMAL(9, 2)) AS dec_small,"
    " IF(id % 5 = 0, NULL, CONCAT('name-', id, REPEAT('é', CAST(id % 9 AS INT)))) AS s,"
    " CAST(CONCAT('b', id) AS BINARY) AS bin, DATE_ADD(DATE'2020-01-01', CAST(id AS INT)) AS d,"
    " TIMESTAMP_SECONDS(id * 1000) AS ts, CAST(TIMESTAMP_SECONDS(id) AS TIMESTAMP_NTZ) AS ntz,"
    " MAKE_DT_INTERVAL(1, 2, 3, id) AS dt"
    " FROM range(0, 5000, 1, 4)",
    "nested": "SELECT id, NAMED_STRUCT('x', id, 'y', IF(id % 4 = 0, NULL, CAST(id AS STRING))) AS st,"
    " IF(id % 6 = 0, NULL, SEQUENCE(0, CAST(id % 5 AS INT))) AS arr,"
    " MAP(CAST(id AS STRING), IF(id % 3 = 0, NULL, id)) AS m,"
    " ARRAY(NAMED_STRUCT('k', ARRAY(id, NULL), 'v', MAP('a', CAST(id AS STRING)))) AS deep"
    " FROM range(0, 3000, 1, 3)",
    "empty": "SELECT id, CAST(id AS STRING) AS s FROM range(0, 0, 1, 2)",
    "one partition of many": "SELECT id FROM range(0, 10, 1, 5) WHERE id = 7",
}


def main():
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("rowbridge-pyspark-test")
        .config("spark.driver.extraClassPath", os.environ["ROWBRIDGE_CLASSPATH"])
        .config("spark.ui.enabled", "false")
        .config("spark.sql.session.timeZone", "America/Los_Angeles")
        .getOrCreate()
    )
    try:
        for name, query in QUERIES.items():
            df = spark.sql(query)
            ours = rowbridge_pyspark.to_arrow(df)
            theirs = df.toArrow()
            assert ours.schema.equals(theirs.schema), (
                f"{name}: schemas differ\n rowbridge: {ours.schema}\n spark: {theirs.schema}")
            assert ours.num_rows == theirs.num_rows, (name, ours.num_rows, theirs.num_rows)
            assert ours.equals(theirs), f"{name}: values differ"
            ours.validate(full=True)
            print(f"{name}: {ours.num_rows} rows, {ours.num_columns} columns, equal to toArrow")
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
