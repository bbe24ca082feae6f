#!/usr/bin/env python3
"""Stages the Python wheel's sources for scripts/build_wheel.sh (make wheel).

  scripts/stage_wheel.py version            prints the Maven project version (java/pom.xml)
  scripts/stage_wheel.py stage DIR          fills DIR (made afresh) with what setuptools builds
  scripts/stage_wheel.py check WHEEL DIR    checks the built wheel against DIR

The Spark lines are the ones java/pom.xml builds: its default (the spark.line property) and
each profile spark-LINE, with that build's spark.version, scala.binary.version and
arrow.version. A line's jars are the ones scripts/rowbridge_classpath.sh LINE names
(rowbridge-core, rowbridge-spark and arrow-c-data), checked against those versions; they must
already be packaged (make java, make java-lines).

DIR gets python/pyproject.toml, a copy of python/rowbridge, VERSION (the project version, which
pyproject.toml reads), and under rowbridge/jars/ a folder spark-LINE of each line's jars and
lines.json, which the package reads (rowbridge/spark/_jars.py):

  {"4.1": {"spark": "4.1.3", "scala": "2.13", "jars": ["rowbridge-core-4.1_2.13-0.1.0.jar", ...]}}

jar names relative to rowbridge/jars/spark-LINE/, in class path order.
"""

import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POM = ROOT / "java" / "pom.xml"
NAMESPACE = {"m": "http://maven.apache.org/POM/4.0.0"}
PROPERTIES = ("spark.line", "spark.version", "scala.binary.version", "arrow.version")
# What each line's rowbridge-core jar must carry for the wheel's platform tags
# (manylinux_2_28_x86_64.manylinux_2_28_aarch64; make test-portable checks the glibc floor).
NATIVES = ("io/rowbridge/native/linux/x86_64/librowbridge_jni.so",
           "io/rowbridge/native/linux/aarch64/librowbridge_jni.so")


def fail(message):
    sys.exit(f"stage_wheel: {message}")


def text(element, path):
    """The stripped text of `path` under `element`, or None; a property that refers to
    another (${...}) cannot be read here."""
    found = element.find(path, NAMESPACE)
    if found is None or found.text is None:
        return None
    value = found.text.strip()
    if "${" in value:
        fail(f"{POM}: {path} is '{value}', not a literal value")
    return value


def project_version(root):
    version = text(root, "m:version")
    if not version:
        fail(f"{POM} has no top-level <version>")
    return version


def spark_lines(root):
    """Each line java/pom.xml builds, newest first: its properties spark.line, spark.version,
    scala.binary.version and arrow.version, a profile's own or else the default build's."""
    defaults = {name: text(root, f"m:properties/m:{name}") for name in PROPERTIES}
    if None in defaults.values():
        fail(f"{POM}: the properties {', '.join(PROPERTIES)} must all be set ({defaults})")
    lines = [defaults]
    for profile in root.findall("m:profiles/m:profile", NAMESPACE):
        match = re.fullmatch(r"spark-(\d+\.\d+)", text(profile, "m:id") or "")
        if not match:
            continue
        own = {name: text(profile, f"m:properties/m:{name}") for name in PROPERTIES}
        if own["spark.line"] != match.group(1) or not own["spark.version"]:
            fail(f"{POM}: profile {match.group(0)} must set spark.line {match.group(1)} and "
                 f"spark.version (has {own})")
        lines.append({name: own[name] or defaults[name] for name in PROPERTIES})
    if len({line["spark.line"] for line in lines}) != len(lines):
        fail(f"{POM}: a Spark line is built twice: {lines}")
    return sorted(lines, key=lambda line: tuple(map(int, line["spark.line"].split("."))),
                  reverse=True)


def line_jars(properties, version):
    """The jars of a line as scripts/rowbridge_classpath.sh names them, checked against the
    names java/pom.xml gives them (rowbridge-MODULE-LINE_SCALA-VERSION.jar, arrow-c-data at
    the line's arrow.version)."""
    line, scala = properties["spark.line"], properties["scala.binary.version"]
    result = subprocess.run([str(ROOT / "scripts" / "rowbridge_classpath.sh"), line],
                            stdout=subprocess.PIPE, text=True, check=False)
    if result.returncode != 0:
        fail(f"scripts/rowbridge_classpath.sh {line} failed (are the line's jars packaged? "
             "make java java-lines)")
    jars = [Path(entry) for entry in result.stdout.strip().split(":")]
    names = [jar.name for jar in jars]
    expected = [f"rowbridge-{module}-{line}_{scala}-{version}.jar" for module in ("core", "spark")]
    expected.append(f"arrow-c-data-{properties['arrow.version']}.jar")
    if names != expected:
        fail(f"Spark {line}: scripts/rowbridge_classpath.sh names {names}, java/pom.xml "
             f"{expected}: one of them is out of date")
    with zipfile.ZipFile(jars[0]) as core:
        missing = [native for native in NATIVES if native not in core.namelist()]
    if missing:
        fail(f"{jars[0]} lacks {missing}: make jni builds both architectures' libraries")
    return jars


def stage(directory):
    root = ElementTree.parse(POM).getroot()
    version = project_version(root)
    source = ROOT / "python" / "rowbridge"
    if not (source / "__init__.py").is_file():
        fail(f"{source}/__init__.py is missing")
    if (source / "jars").exists():
        fail(f"{source}/jars exists: the jars are staged at build time only, never there")
    declared = re.search(r'^__version__ = ["\']([^"\']+)["\']', (source / "__init__.py").read_text(),
                         re.MULTILINE)
    if declared and declared.group(1) != version:
        fail(f"{source}/__init__.py declares __version__ {declared.group(1)}, java/pom.xml {version}")
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    shutil.copy2(ROOT / "python" / "pyproject.toml", directory / "pyproject.toml")
    (directory / "VERSION").write_text(version + "\n")
    package = directory / "rowbridge"
    shutil.copytree(source, package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    manifest = {}
    for properties in spark_lines(root):
        line = properties["spark.line"]
        target = package / "jars" / f"spark-{line}"
        target.mkdir(parents=True)
        jars = line_jars(properties, version)
        for jar in jars:
            shutil.copy2(jar, target / jar.name)
        manifest[line] = {"spark": properties["spark.version"],
                          "scala": properties["scala.binary.version"],
                          "jars": [jar.name for jar in jars]}
        print(f"stage_wheel: Spark {line} ({manifest[line]['spark']}, Scala "
              f"{manifest[line]['scala']}): {', '.join(manifest[line]['jars'])}")
    (package / "jars" / "lines.json").write_text(json.dumps(manifest, indent=2) + "\n")


def check(wheel, directory):
    """Every staged file is in the wheel, byte for byte, and nothing else under
    rowbridge/jars; the wheel's version and tags are the staged ones."""
    version = (directory / "VERSION").read_text().strip()
    staged = {path.relative_to(directory).as_posix(): path
              for path in (directory / "rowbridge").rglob("*")
              if path.is_file() and "__pycache__" not in path.parts}
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for name, path in sorted(staged.items()):
            if name not in names:
                fail(f"{wheel} lacks {name}")
            if archive.read(name) != path.read_bytes():
                fail(f"{wheel}: {name} differs from the staged file")
        extra = sorted(name for name in names
                       if name.startswith("rowbridge/jars/") and name not in staged)
        if extra:
            fail(f"{wheel} has jars that were not staged: {extra}")
        dist_info = f"rowbridge-{version}.dist-info"
        metadata = archive.read(f"{dist_info}/METADATA").decode()
        tags = sorted(line.split(": ", 1)[1] for line in
                      archive.read(f"{dist_info}/WHEEL").decode().splitlines()
                      if line.startswith("Tag: "))
    if f"\nVersion: {version}\n" not in metadata:
        fail(f"{wheel}: METADATA does not give version {version}")
    expected = ["py3-none-manylinux_2_28_aarch64", "py3-none-manylinux_2_28_x86_64"]
    if tags != expected:
        fail(f"{wheel}: tags {tags}, expected {expected}")
    jars = sum(1 for name in staged if name.endswith(".jar"))
    print(f"stage_wheel: {wheel} holds the package and its {jars} jars, tags {', '.join(tags)}")


def main(argv):
    usage = __doc__.split("\n\n")[1]
    if argv[:1] == ["version"] and len(argv) == 1:
        print(project_version(ElementTree.parse(POM).getroot()))
    elif argv[:1] == ["stage"] and len(argv) == 2:
        stage(Path(argv[1]))
    elif argv[:1] == ["check"] and len(argv) == 3:
        check(Path(argv[1]), Path(argv[2]))
    else:
        sys.exit(f"usage:\n{usage}")


if __name__ == "__main__":
    main(sys.argv[1:])
