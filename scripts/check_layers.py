#!/usr/bin/env python3
"""Fails on an include that crosses the library's layers the wrong way (make test).

    scripts/check_layers.py [ROOT]      ROOT: the source tree (default: this repository)
    scripts/check_layers.py --self-test

Each folder of src/ is one concern and one CMake target (rowbridge_NAME, declared by
rowbridge_concern in src/NAME/CMakeLists.txt); each public header of include/rowbridge/ belongs to
the concern that implements it. A file may include its own concern and the concerns below it in
ALLOWED (docs/ARCHITECTURE.md, "Targets"), never one above or beside it. ALLOWED must equal what
each concern's target links, directly or through the concerns it links (the LINKS of its
rowbridge_concern call): the build's include roots and this check enforce one graph. Test
support (tests/support), the benchmarks (bench/) and every *_test.cc, *_benchmark.cc and
*_fuzz.cc file may include anything; no product file may include them, except that the command
line's `bench` includes the benchmark library. Quoted includes only (system and third-party
headers use angle brackets); an include that resolves nowhere must be one of the generated
headers in GENERATED.
"""

import os
import re
import sys
import tempfile

# The concerns, lowest first, and what each may include besides itself.
BASE = "base"  # the ABI and the status type every layer shares
ALLOWED = {
    BASE: set(),
    "arrow": {BASE},
    "spark": {BASE, "arrow"},
    "row": {BASE, "arrow", "spark"},
    "decoder": {BASE, "arrow", "spark", "row"},
    "ipc": {BASE, "arrow"},
    "stream": {BASE, "arrow", "spark", "row"},
    "scan": {BASE, "arrow", "spark", "row", "ipc", "stream"},
    "write": {BASE, "arrow", "spark", "row", "decoder", "ipc", "stream"},
    "capi": {BASE, "arrow", "spark", "row", "decoder", "ipc", "stream", "scan"},
    "jni": {BASE, "arrow", "spark", "row", "decoder", "ipc", "stream", "scan", "write", "capi"},
    "cli": {BASE, "arrow", "spark", "row", "decoder", "ipc", "stream", "scan", "write", "capi",
            "bench"},
}
# The folders (under the root) of test support and benchmarks, not the product, by concern.
SUPPORT = {"tests/support": "support", "bench": "bench"}
SUPPORT_FILES = re.compile(r"_(test|benchmark|fuzz)\.cc$")
# The public headers (include/rowbridge/NAME) and the concern each belongs to.
PUBLIC = {
    "arrow_c_data.h": BASE,
    "export.h": BASE,
    "status.hpp": BASE,
    "status_codes.h": BASE,
    "version.h": BASE,
    "spark_type.hpp": "spark",
    "converter.hpp": "row",
    "row_decoder.hpp": "decoder",
    "ipc_format.hpp": "ipc",
    "ipc_reader.hpp": "ipc",
    "ipc_writer.hpp": "ipc",
    "stream.hpp": "stream",
    "ipc_scan.hpp": "scan",
    "row_encode_stream.hpp": "write",
    "rowbridge.h": "capi",
    "stream.h": "capi",
}
# Headers the build generates (javac -h, CMake's configure steps).
GENERATED = {
    "io_rowbridge_RowbridgeNative.h",
    "io_rowbridge_scan_ScanNative.h",
    "rowbridge_ipc_test_config.hpp",
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCES = (".h", ".hpp", ".cpp", ".cc")


def concern_of(path):
    """The concern of a file (a path relative to root): its folder of src/, its public header's,
    or "support" or "bench" for test support, benchmarks and test, benchmark or fuzz files."""
    parts = path.split(os.sep)
    for folder, concern in SUPPORT.items():
        if path.startswith(folder + os.sep):
            return concern
    if parts[0] == "include":
        name = parts[-1][: -len(".in")] if parts[-1].endswith(".in") else parts[-1]
        if name not in PUBLIC:
            raise SystemExit(f"check_layers: {path}: a public header with no concern in PUBLIC")
        return PUBLIC[name]
    if SUPPORT_FILES.search(path):
        return "support"
    if parts[0] != "src" or parts[1] not in ALLOWED:
        raise SystemExit(f"check_layers: {path}: src/{parts[1]} is no concern of ALLOWED")
    return parts[1]


def resolve(root, path, target):
    """The included file (relative to root), or None for a generated header."""
    if target.startswith("rowbridge/"):
        name = target[len("rowbridge/"):]
        if name in PUBLIC:
            return os.path.join("include", "rowbridge", name)
    for base in ("src", "tests", ".", os.path.dirname(path)):
        candidate = os.path.normpath(os.path.join(base, target))
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    if os.path.basename(target) in GENERATED:
        return None
    raise SystemExit(f"check_layers: {path}: #include \"{target}\" resolves to no file")


def violations(root):
    found = []
    for top in ("include", "src", *SUPPORT):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(SOURCES + (".h.in",)):
                    continue
                path = os.path.relpath(os.path.join(folder, name), root)
                mine = concern_of(path)
                with open(os.path.join(root, path), encoding="utf-8") as source:
                    text = source.read()
                for line, match in enumerate_includes(text):
                    included = resolve(root, path, match)
                    if included is None:
                        continue
                    theirs = concern_of(included)
                    if mine in ("support", "bench"):
                        continue
                    if theirs == mine or theirs in ALLOWED[mine]:
                        continue
                    found.append(f"{path}:{line}: {mine} includes {included} ({theirs})")
    return found


def enumerate_includes(text):
    for match in INCLUDE.finditer(text):
        yield text.count("\n", 0, match.start()) + 1, match.group(1)


def self_test():
    """A tree with one upward include (arrow -> row) and one product file that includes test
    support must give exactly those two violations; the same tree without them, none."""
    with tempfile.TemporaryDirectory() as root:
        files = {
            "include/rowbridge/status.hpp": "",
            "include/rowbridge/converter.hpp": '#include "rowbridge/status.hpp"\n',
            "src/arrow/bits.hpp": '#include "rowbridge/status.hpp"\n',
            "src/row/writer.cpp": '#include "arrow/bits.hpp"\n#include "rowbridge/converter.hpp"\n',
            "src/row/writer_test.cc": '#include "support/helper.hpp"\n#include "row/writer.cpp"\n',
            "tests/support/helper.hpp": '#include "row/writer.cpp"\n',
        }
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as out:
                out.write(text)
        if violations(root):
            raise SystemExit(f"check_layers self-test: a clean tree gave {violations(root)}")
        with open(os.path.join(root, "src/arrow/bits.hpp"), "a", encoding="utf-8") as out:
            out.write('#include "rowbridge/converter.hpp"\n')
        with open(os.path.join(root, "src/row/writer.cpp"), "a", encoding="utf-8") as out:
            out.write('#include "support/helper.hpp"\n')
        expected = [
            "src/arrow/bits.hpp:2: arrow includes include/rowbridge/converter.hpp (row)",
            "src/row/writer.cpp:3: row includes tests/support/helper.hpp (support)",
        ]
        if sorted(violations(root)) != expected:
            raise SystemExit(f"check_layers self-test: got {violations(root)}, want {expected}")
        target = "rowbridge_concern(stream\n  SOURCES a.cpp\n  LINKS rowbridge_row Threads::Threads)\n"
        if target_mismatches({"stream": target, **SELF_TEST_CONCERNS}):
            raise SystemExit("check_layers self-test: targets that match ALLOWED were refused")
        target = target.replace("rowbridge_row", "rowbridge_spark")
        if len(target_mismatches({"stream": target, **SELF_TEST_CONCERNS})) != 1:
            raise SystemExit("check_layers self-test: a target that links less than ALLOWED passed")
    print("check_layers self-test: an upward include, an include of test support and a target "
          "that disagrees with ALLOWED are caught")


SELF_TEST_CONCERNS = {
    "row": "rowbridge_concern(row SOURCES r.cpp LINKS rowbridge_spark rowbridge_arrow)",
    "spark": "rowbridge_concern(spark SOURCES s.cpp LINKS rowbridge_arrow)",
    "arrow": "rowbridge_concern(arrow SOURCES a.cpp LINKS rowbridge_base)",
}
CONCERN_CALL = re.compile(r"rowbridge_concern\((\w+)(.*?)\)", re.S)


def concern_links(texts):
    """Each concern's directly linked concerns, from its rowbridge_concern call (texts: the
    CMakeLists.txt text of each folder of src/)."""
    links = {BASE: set()}
    for text in texts.values():
        for name, body in CONCERN_CALL.findall(text):
            listed = body.split("LINKS", 1)[1].split() if "LINKS" in body else []
            links[name] = {t[len("rowbridge_"):] for t in listed if t.startswith("rowbridge_")}
    return links


def target_mismatches(texts):
    """Concerns whose targets reach (through LINKS, transitively) other concerns than ALLOWED
    lets them include."""
    links = concern_links(texts)
    found = []
    for name in sorted(links):
        if name == BASE:
            continue
        reached, todo = set(), list(links[name])
        while todo:
            other = todo.pop()
            if other not in reached:
                reached.add(other)
                todo.extend(links.get(other, ()))
        if reached != ALLOWED[name]:
            found.append(f"src/{name}/CMakeLists.txt: rowbridge_{name} reaches {sorted(reached)}, "
                         f"ALLOWED says {sorted(ALLOWED[name])}")
    return found


def cmake_texts(root):
    texts = {}
    for name in ALLOWED:
        path = os.path.join(root, "src", name, "CMakeLists.txt")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as source:
                texts[name] = source.read()
    return texts


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    found = violations(os.path.abspath(root)) + target_mismatches(cmake_texts(root))
    for violation in found:
        print(violation, file=sys.stderr)
    if found:
        raise SystemExit(f"check_layers: {len(found)} include(s) or target(s) cross the layers")
    print("check_layers: every include stays within its layer or goes below it, and every "
          "concern's target links what ALLOWED says")


if __name__ == "__main__":
    main()
