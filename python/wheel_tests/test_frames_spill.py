"""to_arrow when the block manager has no memory to spare: each partition's batches go to disk
(MEMORY_AND_DISK_SER) and the driver reads them from there, in order. The files are written and
PySpark's own answer taken in the suite's session; a process of its own (one SparkContext per
process), with almost no storage memory, reads them through rowbridge's columnar path."""

import os
import subprocess
import sys
import textwrap

import pyarrow as pa

from frames_cases import spark_arrow

SCRIPT = textwrap.dedent(
    """
    import sys
    import pyarrow as pa
    from conftest import session_builder
    import rowbridge.spark

    files, expected_path = sys.argv[1], sys.argv[2]
    spark = session_builder("local[2]").config("spark.memory.fraction", "0.001").config(
        "spark.driver.maxResultSize", "0").getOrCreate()
    try:
        df = spark.read.format("rowbridge").load(files)
        assert rowbridge.spark.arrow_path(df).startswith("columnar")
        blocks = spark._jvm.org.apache.spark.sql.rowbridge.frames.PartitionBlocks
        ours = rowbridge.spark.to_arrow(df)
        memory, disk, remote = list(blocks.lastStreamSources())
        assert disk == 4 and memory == 0 and remote == 0, (memory, disk, remote)
        with pa.OSFile(expected_path) as source:
            expected = pa.ipc.open_file(source).read_all()
        assert ours.equals(expected)
        print("spilled blocks read: equal")
    finally:
        spark.stop()
    """
)


def test_blocks_on_disk_are_read_in_order(spark, tmp_path):
    files = str(tmp_path / "files")
    spark.range(0, 160000, 1, 4).selectExpr(
        "id", "CONCAT('v', id, REPEAT('x', CAST(id % 9 AS INT))) AS s"
    ).write.format("rowbridge").save(files)
    expected = spark_arrow(spark.read.format("rowbridge").load(files))
    expected_path = str(tmp_path / "expected.arrow")
    with pa.OSFile(expected_path, "wb") as sink, pa.ipc.new_file(sink, expected.schema) as out:
        out.write_table(expected)
    here = os.path.dirname(os.path.abspath(__file__))
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, files, expected_path],
        cwd=here,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-6000:]
    assert "spilled blocks read: equal" in result.stdout
