#!/usr/bin/env python3
"""The report of TPC-H with Apache Comet (java/rowbridge-bench/tpch.sh, COMET_MODES).

    tpch_comet_report.py --out REPORT.json [--commit C] TPCH_COMET.json

Reads TpchBench's JSON of the Comet JVM (within it, TpchBench already failed on any answer
that differs between modes). Per query: the best seconds of each mode, the ratios of times
comet-rowbridge / each of Comet's transitions and comet-jvm-aa / comet-jvm (the A/A twin:
noise), and the transitions in the plans (rowbridge's in comet-rowbridge; Comet's in comet-jvm).
Prints a Markdown table and the geometric means of the 22 TPC-H queries and of the whole-row
queries; writes everything to REPORT.json.
"""
import argparse
import json

from tpch_report import best, cell, geomean, machine, ratio

BASE = "comet-jvm"
OURS = "comet-rowbridge"
TWIN = "comet-jvm-aa"


def nodes(query, mode, key):
    """The transition count `key` of the mode's best run."""
    times = query["seconds"].get(mode)
    if not times:
        return None
    return query["transitions"][mode][times.index(min(times))][key]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--commit")
    parser.add_argument("run")
    args = parser.parse_args()
    run = json.load(open(args.run))
    modes = run["modes"]
    others = [m for m in modes if m not in (OURS, TWIN)]

    rows = []
    for query in run["queries"]:
        b = {mode: best(query["seconds"].get(mode)) for mode in modes}
        entry = {"name": query["name"], "whole_row": query["whole_row"], "best": b,
                 "rowbridge_over": {m: ratio(b.get(OURS), b.get(m)) for m in others},
                 "aa_over_jvm": ratio(b.get(TWIN), b.get(BASE)),
                 "rowbridge_transitions": nodes(query, OURS, "rowbridge_nodes"),
                 "comet_transitions_left": nodes(query, OURS, "comet_nodes"),
                 "comet_transitions_in_jvm_mode": nodes(query, BASE, "comet_nodes")}
        rows.append(entry)

    summary = {}
    for group, whole in (("tpch", False), ("whole_row", True)):
        members = [r for r in rows if r["whole_row"] == whole]
        if members:
            means = {m: geomean([r["best"][m] for r in members]) for m in modes}
            summary[group] = {"geomean_seconds": means,
                              "rowbridge_over": {m: ratio(means.get(OURS), means.get(m))
                                                 for m in others},
                              "aa_over_jvm": ratio(means.get(TWIN), means.get(BASE))}
    commit = args.commit or "unknown"
    report = {"machine": machine(), "commit": commit, "scale_factor": run["scale_factor"],
              "master": run["master"], "rounds": run["rounds"], "jvm_options": run["jvm_options"],
              "ratios": "times: below 1 is comet-rowbridge (or the A/A twin) faster",
              "summary": summary, "queries": rows, "run": run}
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)

    print(f"\nTPC-H SF {run['scale_factor']} with Comet, {run['master']}, {report['machine']}, "
          f"commit {commit}; seconds, best of {run['rounds']} interleaved runs; ratios of times")
    header = (["query"] + modes + [f"rowbridge/{m.removeprefix('comet-')}" for m in others]
              + ["A/A", "transitions: rowbridge's (Comet's left) / Comet's"])
    print("| " + " | ".join(header) + " |")
    print("|---|" + "---:|" * (len(header) - 1))
    for r in rows:
        cells = [r["name"]] + [cell(r["best"][m]) for m in modes]
        cells += [cell(r["rowbridge_over"][m]) for m in others] + [cell(r["aa_over_jvm"])]
        cells.append(f"{r['rowbridge_transitions']} ({r['comet_transitions_left']}) / "
                     f"{r['comet_transitions_in_jvm_mode']}")
        print("| " + " | ".join(cells) + " |")
    for group, label in (("tpch", "geomean, 22 TPC-H queries"),
                         ("whole_row", "geomean, whole-row queries")):
        if group in summary:
            s = summary[group]
            cells = [f"**{label}**"] + [cell(s["geomean_seconds"][m]) for m in modes]
            cells += [cell(s["rowbridge_over"][m]) for m in others] + [cell(s["aa_over_jvm"]), ""]
            print("| " + " | ".join(cells) + " |")
    print(f"written: {args.out}")


if __name__ == "__main__":
    main()
