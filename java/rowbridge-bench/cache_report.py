"""The cache benchmark's report (java/rowbridge-bench/cache-bench.sh): per dataset and mode, the
median over the rounds (one JVM per mode and round) of the build time, the size in memory and each
query's time; the ratios against Spark's default serializer; a check that every mode answered the
same. Writes the JSON file named and prints the Markdown table of docs/BENCHMARKS.md, "Cache".

    python3 cache_report.py CACHE_JSONL OUT_JSON COMMIT
"""

import json
import math
import statistics
import sys

QUERIES = ["aggregate", "filter", "every-row"]


def main(lines_path, out_path, commit):
    runs = [json.loads(line) for line in open(lines_path) if line.strip()]
    datasets = sorted({r["dataset"] for r in runs}, key=lambda d: d != "lineitem")
    modes = []
    for r in runs:
        if r["mode"] not in modes:
            modes.append(r["mode"])
    report = {"commit": commit, "datasets": {}}
    mismatches = []
    for dataset in datasets:
        rows = {}
        for mode in modes:
            mine = [r for r in runs if r["dataset"] == dataset and r["mode"] == mode]
            if not mine:
                continue
            entry = {"rounds": len(mine)}
            for key in ["scan_s", "build_s", "memory_bytes"] + [q + "_s" for q in QUERIES]:
                entry[key] = statistics.median(r[key] for r in mine)
            entry["answers"] = {q: sorted({r[q + "_answer"] for r in mine}) for q in QUERIES}
            rows[mode] = entry
        base = rows["spark"]
        for mode, entry in rows.items():
            for q in QUERIES:
                if entry["answers"][q] != base["answers"][q] or len(entry["answers"][q]) != 1:
                    mismatches.append(f"{dataset} {mode} {q}: {entry['answers'][q]}")
            entry["build_speedup"] = base["build_s"] / entry["build_s"]
            net = entry["build_s"] - entry["scan_s"]
            base_net = base["build_s"] - base["scan_s"]
            entry["build_net_speedup"] = base_net / net if net > 0 else None
            entry["memory_vs_spark"] = entry["memory_bytes"] / base["memory_bytes"]
            if "spark-plain" in rows:
                entry["memory_vs_spark_plain"] = (
                    entry["memory_bytes"] / rows["spark-plain"]["memory_bytes"])
            speedups = [base[q + "_s"] / entry[q + "_s"] for q in QUERIES]
            entry["query_speedups"] = dict(zip(QUERIES, speedups))
            entry["query_geomean_speedup"] = math.exp(
                sum(math.log(s) for s in speedups) / len(speedups))
        report["datasets"][dataset] = rows
    report["answers_match"] = not mismatches
    with open(out_path, "w") as out:
        json.dump(report, out, indent=2)
    print(table(report))
    if mismatches:
        print("answers differ:\n  " + "\n  ".join(mismatches))
        sys.exit(1)


def table(report):
    lines = [
        "| dataset | mode | build s (× Spark) | build less scan (× Spark) | memory MB "
        "(× Spark, × Spark uncompressed) | aggregate s (×) | filter s (×) | every row s (×) "
        "| queries' geomean × |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for dataset, rows in report["datasets"].items():
        for mode, e in rows.items():
            net = e["build_net_speedup"]
            plain = e.get("memory_vs_spark_plain")
            q = e["query_speedups"]
            lines.append(
                f"| {dataset} | {mode} | {e['build_s']:.2f} ({e['build_speedup']:.2f}) "
                f"| {e['build_s'] - e['scan_s']:.2f} ({net:.2f}) "
                f"| {e['memory_bytes'] / 1e6:.0f} ({e['memory_vs_spark']:.2f}"
                + (f", {plain:.2f})" if plain is not None else ")")
                + f" | {e['aggregate_s']:.3f} ({q['aggregate']:.2f}) "
                f"| {e['filter_s']:.3f} ({q['filter']:.2f}) "
                f"| {e['every-row_s']:.3f} ({q['every-row']:.2f}) "
                f"| {e['query_geomean_speedup']:.2f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main(*sys.argv[1:4])
