"""The jars of the Spark line that matches the installed PySpark.

The wheel carries, under ``rowbridge/jars/spark-LINE/``, the jars of every Spark line the
project builds (rowbridge's core and Spark jars, each with its natives for linux/x86_64 and
aarch64 inside, and the line's arrow-c-data), and ``rowbridge/jars/lines.json`` naming them.
"""

import json
import os

from rowbridge import __version__


class UnsupportedSparkVersion(RuntimeError):
    """The installed PySpark is of a Spark line this wheel carries no jars for."""


def _jars_dir():
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "jars")


def lines():
    """The Spark lines this installation carries: ``{"4.1": {"spark": ..., "jars": [...]}}``.

    Empty when the package was not installed from a wheel (a source tree has no jars).
    """
    path = os.path.join(_jars_dir(), "lines.json")
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as source:
        return json.load(source)


def line_of(pyspark_version):
    """The Spark line ("4.1") of a PySpark version string ("4.1.3", "4.1.0.dev1")."""
    parts = pyspark_version.split(".")
    return ".".join(parts[:2])


def jars(pyspark_version=None):
    """Absolute paths of the jars for ``pyspark_version`` (default: the installed PySpark's).

    Raises UnsupportedSparkVersion naming the supported lines when there are none for it.
    """
    if pyspark_version is None:
        import pyspark

        pyspark_version = pyspark.__version__
    carried = lines()
    line = line_of(pyspark_version)
    if line not in carried:
        supported = ", ".join(
            "%s (built against Spark %s)" % (name, carried[name]["spark"]) for name in sorted(carried)
        )
        raise UnsupportedSparkVersion(
            "rowbridge %s has no jars for PySpark %s (Spark line %s); it supports Spark lines: %s"
            % (__version__, pyspark_version, line, supported or "none (no jars in this installation)")
        )
    directory = os.path.join(_jars_dir(), "spark-" + line)
    paths = [os.path.join(directory, name) for name in carried[line]["jars"]]
    missing = [path for path in paths if not os.path.exists(path)]
    if missing:
        raise UnsupportedSparkVersion(
            "rowbridge %s: the jars of Spark line %s are missing from the installation: %s"
            % (__version__, line, ", ".join(missing))
        )
    return paths
