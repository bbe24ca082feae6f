"""A SparkSession builder with rowbridge's jars and extension (and, for a Connect session whose
server starts here, rowbridge's Connect plugin)."""

from rowbridge.spark import _connect, _jars, _pyspark

EXTENSION = "io.rowbridge.spark.RowbridgeExtensions"


def _merged(existing, additions):
    """A comma-separated list: ``existing``'s entries, then the additions it lacks."""
    entries = [entry.strip() for entry in (existing or "").split(",") if entry.strip()]
    for addition in additions:
        if addition not in entries:
            entries.append(addition)
    return ",".join(entries)


# The Python worker and daemon modules rowbridge's path for plain UDFs runs in: PySpark's own,
# with rowbridge's UDF runtime loaded (python/rowbridge/spark/worker.py, daemon.py).
PYTHON_MODULES = {
    "spark.python.worker.module": "rowbridge.spark.worker",
    "spark.python.daemon.module": "rowbridge.spark.daemon",
}


def configure(builder):
    """Returns ``builder`` with rowbridge's jars for the installed PySpark added to
    ``spark.jars`` and its extension to ``spark.sql.extensions``, after the user's own entries
    of both, and rowbridge's Python worker and daemon modules (``PYTHON_MODULES``) unless the
    user set modules of their own (plain UDFs then stay on Spark's pickled path). In local mode
    this is the whole set-up; on a cluster, ``spark.jars`` ships the jars to the executors, and
    the workers' Python needs the rowbridge wheel. Raises ``UnsupportedSparkVersion`` when the wheel has no jars for the
    installed PySpark's line, and ``UnsupportedPySparkVersion`` (a kind of it) when
    ``rowbridge.spark`` does not know the installed PySpark. Settings only take effect for a session that this builder starts.

    For a Spark Connect builder whose server starts in this process (``remote("local...")``, or
    ``spark.api.mode=connect``), the same settings go to that server, with rowbridge's Connect
    plugin added to ``spark.connect.extensions.command.classes`` and ``.relation.classes``; on
    PySpark 3.5, which does not carry Connect's server, ``spark.jars.packages`` gains it
    (``org.apache.spark:spark-connect_2.12`` of PySpark's version) unless the builder names a
    Spark Connect jar already. For a server elsewhere (``remote("sc://...")``) the builder is
    returned unchanged: that server is started with those settings (docs: java/README.md, "Spark
    Connect").
    """
    _pyspark.check()
    options = _pyspark.builder_options(builder)
    if _connect.is_connect_builder(options):
        if not _connect.local_server(options):
            return builder
        _connect.check_line()
        for setting in _connect.PLUGIN_SETTINGS:
            builder = builder.config(setting, _merged(options.get(setting), [_connect.PLUGIN]))
        packages = _connect.server_packages(options)
        if packages:
            builder = builder.config(
                "spark.jars.packages", _merged(options.get("spark.jars.packages"), packages)
            )
    builder = builder.config("spark.jars", _merged(options.get("spark.jars"), _jars.jars()))
    for setting, module in PYTHON_MODULES.items():
        if setting not in options:
            builder = builder.config(setting, module)
    return builder.config(
        "spark.sql.extensions", _merged(options.get("spark.sql.extensions"), [EXTENSION])
    )
