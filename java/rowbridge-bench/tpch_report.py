#!/usr/bin/env python3
"""The TPC-H benchmark's report (java/rowbridge-bench/tpch.sh).

    tpch_report.py --out tpch.json [--plot tpch.png] DEFAULT.json [UNSAFE.json]

Reads TpchBench's JSON of the default JVM and, optionally, of the JVM with Arrow Java's checks
off; fails (exit 1) when a query's answer differs between them (within one JVM, TpchBench
already failed). Writes one JSON with every time and, per query, the best seconds per mode, the
ratios of times rowbridge / spark-c2r and spark-c2r-aa / spark-c2r (the A/A twin: noise), and
the transition's share; prints a Markdown table; draws the ratios as a PNG.

The transition's share: rowbridge's transition reports `convertTime` (nanoseconds inside its
native conversion, summed over tasks), so share = convertTime / (wall seconds x cores) of the
best rowbridge run, the fraction of the query's available task time spent converting (a lower
bound of the time in the transition: the rows' consumers are not in it). Spark's ColumnarToRow
has no time metric, so for spark-c2r only its rows and batches are reported; the time it
costs is what the two modes' difference shows.
"""
import argparse
import json
import math
import subprocess
import sys

NOISE_MODE = "spark-c2r-aa"


def best(times):
    return min(times) if times else None


def geomean(values):
    values = [v for v in values if v]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def ratio(a, b):
    return a / b if a and b else None


def machine():
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
    except OSError:
        return "unknown"


def summarize(run, query):
    """Best seconds per mode, the ratios and the transition's share of one JVM's query."""
    seconds = query["seconds"]
    result = {"best": {mode: best(times) for mode, times in seconds.items()}}
    b = result["best"]
    result["rowbridge_over_spark_c2r"] = ratio(b.get("rowbridge"), b.get("spark-c2r"))
    result["aa_over_spark_c2r"] = ratio(b.get(NOISE_MODE), b.get("spark-c2r"))
    transitions = query.get("transitions", {})
    if seconds.get("rowbridge"):
        i = seconds["rowbridge"].index(b["rowbridge"])
        t = transitions["rowbridge"][i]
        result["rowbridge_transition"] = dict(t, share_of_task_time=t["convert_time_ns"] / (
            b["rowbridge"] * 1e9 * run["cores"]))
    if seconds.get("spark-c2r"):
        i = seconds["spark-c2r"].index(b["spark-c2r"])
        result["spark_c2r_transition"] = transitions["spark-c2r"][i]
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--plot")
    parser.add_argument("--commit", help="the commit the jars were built from")
    parser.add_argument("runs", nargs="+")
    args = parser.parse_args()
    runs = [json.load(open(path)) for path in args.runs]
    labels = ["default"] + ["unsafe"] * (len(runs) - 1)

    failed = []
    queries = []
    for query in runs[0]["queries"]:
        entry = {"name": query["name"], "whole_row": query["whole_row"]}
        for label, run in zip(labels, runs):
            match = [q for q in run["queries"] if q["name"] == query["name"]]
            if not match:
                continue
            if match[0]["answer_sha256"] != query["answer_sha256"]:
                failed.append(query["name"])
            entry[label] = summarize(run, match[0])
        queries.append(entry)

    summary = {}
    for group, whole in (("tpch", False), ("whole_row", True)):
        members = [q for q in queries if q["whole_row"] == whole]
        if not members:
            continue
        summary[group] = {}
        for label, run in zip(labels, runs):
            means = {mode: geomean([q[label]["best"][mode] for q in members if label in q])
                     for mode in run["modes"]}
            summary[group][label] = {
                "geomean_seconds": means,
                "rowbridge_over_spark_c2r": ratio(means.get("rowbridge"), means.get("spark-c2r")),
                "aa_over_spark_c2r": ratio(means.get(NOISE_MODE), means.get("spark-c2r")),
            }
    report = {"machine": machine(), "commit": args.commit or commit(), "scale_factor": runs[0]["scale_factor"],
              "master": runs[0]["master"], "rounds": runs[0]["rounds"],
              "ratios": "times: below 1 is rowbridge (or the A/A twin) faster than spark-c2r",
              "transition_share": "rowbridge's convertTime / (best wall seconds x cores)",
              "jvms": {label: {"jvm_options": run["jvm_options"], "modes": run["modes"]}
                       for label, run in zip(labels, runs)},
              "summary": summary, "queries": queries, "runs": runs,
              "answers_match": not failed}
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)

    print_table(report, runs, labels)
    if args.plot:
        plot(report, args.plot, labels)
        print(f"plot: {args.plot}")
    print(f"written: {args.out}")
    if failed:
        print(f"ANSWERS DIFFER between the JVMs for {', '.join(failed)}", file=sys.stderr)
        sys.exit(1)


def cell(value, digits=2):
    return "–" if value is None else f"{value:.{digits}f}"


def print_table(report, runs, labels):
    modes = runs[0]["modes"]
    unsafe = "unsafe" in labels
    print(f"\nTPC-H SF {report['scale_factor']}, {report['master']}, {report['machine']}; "
          f"seconds, best of {report['rounds']} interleaved runs; ratios of times "
          "(below 1: faster than spark-c2r)")
    header = ["query"] + modes + ["rowbridge/spark-c2r", "A/A (aa/spark-c2r)"]
    if unsafe:
        header += ["unsafe: rowbridge", "unsafe: spark-c2r", "unsafe: ratio"]
    header += ["convert share"]
    print("| " + " | ".join(header) + " |")
    print("|---|" + "---:|" * (len(header) - 1))

    def row(name, d, u, share):
        cells = [name] + [cell(d["seconds"].get(m)) for m in modes]
        cells += [cell(d["ratio"]), cell(d["aa"])]
        if unsafe:
            cells += [cell(u["seconds"].get("rowbridge")), cell(u["seconds"].get("spark-c2r")),
                      cell(u["ratio"])] if u else ["–"] * 3
        cells.append(share)
        print("| " + " | ".join(cells) + " |")

    for group, whole in (("tpch", False), ("whole_row", True)):
        members = [q for q in report["queries"] if q["whole_row"] == whole]
        for q in members:
            d = q["default"]
            u = q.get("unsafe")
            share = d.get("rowbridge_transition", {}).get("share_of_task_time")
            row(q["name"], {"seconds": d["best"], "ratio": d["rowbridge_over_spark_c2r"],
                            "aa": d["aa_over_spark_c2r"]},
                u and {"seconds": u["best"], "ratio": u["rowbridge_over_spark_c2r"]},
                "–" if share is None else f"{100 * share:.1f} %")
        if members:
            s = report["summary"][group]
            d = s["default"]
            u = s.get("unsafe")
            row(f"**geomean {group.replace('_', '-')}**",
                {"seconds": d["geomean_seconds"], "ratio": d["rowbridge_over_spark_c2r"],
                 "aa": d["aa_over_spark_c2r"]},
                u and {"seconds": u["geomean_seconds"], "ratio": u["rowbridge_over_spark_c2r"]},
                "")


def plot(report, path, labels):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [q["name"] for q in report["queries"]]
    series = [("rowbridge / spark-c2r", "default", "rowbridge_over_spark_c2r", "tab:blue"),
              ("A/A: spark-c2r-aa / spark-c2r", "default", "aa_over_spark_c2r", "tab:gray")]
    if "unsafe" in labels:
        series.append(("rowbridge / spark-c2r, Arrow checks off", "unsafe",
                       "rowbridge_over_spark_c2r", "tab:orange"))
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(max(8, 0.45 * len(names)), 4.5))
    for i, (title, label, key, color) in enumerate(series):
        values = [q.get(label, {}).get(key) or float("nan") for q in report["queries"]]
        ax.bar([x + (i - (len(series) - 1) / 2) * width for x in range(len(names))], values,
               width, label=title, color=color)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("ratio of times (below 1: faster)")
    ax.set_title(f"TPC-H SF {report['scale_factor']}, Spark {report['master']}: best of "
                 f"{report['rounds']} interleaved runs")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
