#!/usr/bin/env python3
"""Measures `rowbridge scan` for docs/BENCHMARKS.md (issue 6).

    measure_scan.py [--build build/release] [--repeats 3] [--data DIR]

Writes (once) ZSTD-compressed IPC files with large batches: "flat" (24 batches
of 524 288 rows, about 24 MB each decoded) and "lists" (24 batches of 131 072
list-heavy rows, about 17 MB each decoded), with tests/stream/make_scan_files.py
and the pyarrow of build/venv. Then, for each file:

  memory      peak RSS measured from outside (/usr/bin/time -v, "Maximum
              resident set size") and the scan's own peaks of RssAnon and
              RssFile, for --workers 1 2 4 8 16, with the default K = 1, W = 2
              and with --queue per-worker (one finished batch queued per
              worker, K = W = workers); the median over the repeats.
  throughput  seconds of the scan (columns, and --rows) with --workers 1 and 2
              (W = 2); the best of the repeats, and the ratio.

Both with the scan's fixed malloc thresholds (its default) and with glibc's
dynamic ones (--malloc-defaults).

Prints Markdown tables and one JSON object with every run on the last line.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MALLOC = {"fixed": [], "glibc": ["--malloc-defaults"]}
FILES = {
    "flat": ("flat", 24, 524288),
    "lists": ("lists", 24, 131072),
}


def make_files(data, python):
    paths = {}
    for name, (kind, batches, rows) in FILES.items():
        path = os.path.join(data, name, kind + ".zstd.arrow")
        if not os.path.exists(path):
            subprocess.run([python, os.path.join(HERE, "make_scan_files.py"), os.path.dirname(path),
                            "--kinds", kind, "--compressions", "zstd", "--formats", "file",
                            "--batches", str(batches), "--batch-rows", str(rows)], check=True)
        paths[name] = path
    return paths


def scan(cli, path, *args):
    """One run: the scan's JSON plus the peak RSS /usr/bin/time reports (kB)."""
    done = subprocess.run(["/usr/bin/time", "-v", cli, "scan", path, *args],
                          capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    result["time_max_rss_kb"] = int(peak.group(1))
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "release"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--data", default=None)
    parser.add_argument("--workers", default="1,2,4,8,16")
    parser.add_argument("--only", choices=["memory", "throughput"], default=None)
    args = parser.parse_args()
    cli = os.path.join(args.build, "bin", "rowbridge")
    data = args.data or os.path.join(args.build, "scanbench")
    python = os.path.join(ROOT, "build", "venv", "bin", "python3")
    paths = make_files(data, python if os.path.exists(python) else sys.executable)
    workers = [int(w) for w in args.workers.split(",")]
    runs = []

    if args.only != "throughput":
        runs += memory_table(cli, paths, workers, args.repeats)
    if args.only != "memory":
        runs += throughput_table(cli, paths, args.repeats)
    print()
    print(json.dumps({"runs": runs}))


def memory_table(cli, paths, workers, repeats):
    runs = []
    print("## Peak memory (MiB; median of %d runs)\n" % repeats)
    print("| file | malloc | queue | workers | peak RSS (time -v) | RssAnon peak | RssFile peak "
          "| max batches held |")
    print("|---|---|---|---|---|---|---|---|")
    for name, path in paths.items():
        for malloc in MALLOC:
            for queue in ("bounded", "per-worker"):
                for w in workers:
                    results = [scan(cli, path, "--workers", str(w), "--queue", queue,
                                    *MALLOC[malloc]) for _ in range(repeats)]
                    runs += [dict(r, file=name) for r in results]
                    med = lambda key: statistics.median(r[key] for r in results) / 1024
                    print("| %s | %s | %s | %d | %.0f | %.0f | %.0f | %d |" % (
                        name, malloc, queue, w, med("time_max_rss_kb"), med("rss_anon_peak_kb"),
                        med("rss_file_peak_kb"), max(r["max_batches_held"] for r in results)),
                        flush=True)
    return runs


def throughput_table(cli, paths, repeats):
    runs = []
    print("\n## Throughput (best of %d runs)\n" % repeats)
    print("| file | malloc | mode | 1 worker s | 2 workers s | decoded MB/s, 2 workers "
          "| speed-up | median speed-up |")
    print("|---|---|---|---|---|---|---|---|")
    for name, path in paths.items():
        for malloc in MALLOC:
            for mode in ("columns", "rows"):
                extra = (["--rows"] if mode == "rows" else []) + MALLOC[malloc]
                best = {}
                median = {}
                results = {1: [], 2: []}
                for _ in range(repeats):  # interleaved: both see the same noise
                    for w in (1, 2):
                        results[w].append(scan(cli, path, "--workers", str(w), *extra))
                for w in (1, 2):
                    runs += [dict(r, file=name) for r in results[w]]
                    best[w] = min(results[w], key=lambda r: r["seconds"])
                    median[w] = statistics.median(r["seconds"] for r in results[w])
                print("| %s | %s | %s | %.3f | %.3f | %.0f | %.2f | %.2f |" % (
                    name, malloc, mode, best[1]["seconds"], best[2]["seconds"],
                    best[2]["bytes"] / best[2]["seconds"] / 1e6,
                    best[1]["seconds"] / best[2]["seconds"], median[1] / median[2]), flush=True)
    return runs


if __name__ == "__main__":
    main()
