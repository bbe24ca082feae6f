#!/usr/bin/env bash
# The Spark data source benchmark (make bench-spark; docs/BENCHMARKS.md, section "Spark data source"): about
# 2 GB of the workload of record (CONTRACTS.md §6 "record") as Arrow IPC files, a scan-and-aggregate
# query and a query that shuffles every row, through
#   rowbridge  = format("rowbridge") columnar batches, rows by rowbridge's operator,
#   spark-c2r  = the same batches, rows by Spark's own ColumnarToRow,
#   rows       = the source's row mode, rows converted in the native scan's workers,
#   parquet    = Spark's vectorized Parquet reader on a copy Spark wrote itself.
# 1. Times: one JVM, local[2], the variants taking turns, RUNS runs each (best and median).
# 2. Peak memory: one JVM per variant and per master (local[2], local[8]), one run each; the
#    peak resident set size (VmHWM) of the whole JVM, heap and native memory together.
# Each JVM runs io.rowbridge.bench.SourceBench. Writes OUT_DIR/spark-source.json and prints the
# tables. Deletes the data afterwards unless KEEP_DATA=1.
#
#   java/rowbridge-bench/source-bench.sh [OUT_DIR]          (after make java)
#
# Environment: BUILD (build), DATA_DIR ($BUILD/bench-spark), RECORD_FILES (8), RECORD_ROWS
# (rows per file, 7200000: 57.6 M rows, 2.1 GB), RUNS (3), BENCH_JAVA_OPTS (-Xmx4g).
set -euo pipefail
cd "$(dirname "$0")/../.."

out=${1:-${BUILD:-build}/bench}
data=${DATA_DIR:-${BUILD:-build}/bench-spark}
files=${RECORD_FILES:-8}
rows=${RECORD_ROWS:-7200000}
runs=${RUNS:-3}
mkdir -p "$out" "$data"

# ~37.5 bytes per row as Arrow IPC, ~22 as Parquet, plus room for Spark's shuffle files.
need_gb=$(( (files * rows * 60 / 1000000000) + 4 ))
free_gb=$(df -P -BG "$data" | awk 'NR == 2 { sub("G", "", $4); print $4 }')
if (( free_gb < need_gb )); then
  echo "source-bench.sh: $free_gb GB free under $data, $need_gb GB needed" >&2
  exit 1
fi

common=(--data "$data" --record-files "$files" --record-rows "$rows"
        --nested-files 0)
variants=parquet,rowbridge,spark-c2r,rows
export BENCH_MAIN=io.rowbridge.bench.SourceBench
echo "== times: local[2], variants in turn, $runs runs each"
java/rowbridge-bench/run.sh "${common[@]}" --master 'local[2]' --runs "$runs" \
  --variants "$variants" --json "$out/spark-times.json"

echo "== peak memory: one JVM per variant and master, one run each"
export BENCH_SKIP_BUILD=1
for master in 'local[2]' 'local[8]'; do
  for variant in ${variants//,/ }; do
    json="$out/spark-memory-${master//[^a-z0-9]/}-$variant.json"
    java/rowbridge-bench/run.sh "${common[@]}" --master "$master" --runs 1 \
      --variants "$variant" --json "$json" > /dev/null
    echo "   $master $variant: $(grep -o '"peak_rss_bytes":[0-9-]*' "$json")"
  done
done

python3 - "$out" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
times = json.load(open(os.path.join(out, "spark-times.json")))
memory = {}
for path in sorted(glob.glob(os.path.join(out, "spark-memory-*.json"))):
    record = json.load(open(path))
    variant = next(iter(record["queries"][0]["seconds"]))
    memory.setdefault(record["master"], {})[variant] = record["peak_rss_bytes"]
summary = {"record_rows": times["record_rows"], "times": times["queries"], "peak_rss": memory}
json.dump(summary, open(os.path.join(out, "spark-source.json"), "w"), indent=1)
variants = list(times["queries"][0]["seconds"].keys())
print(f"\n{times['record_rows']:,} rows; seconds, best / median of runs, local[2]; "
      "ratio of the best to Parquet's best")
print("| query | " + " | ".join(variants) + " |")
print("|---|" + "---:|" * len(variants))
for q in times["queries"]:
    parquet = min(q["seconds"]["parquet"])
    cells = []
    for v in variants:
        s = sorted(q["seconds"][v])
        cells.append(f"{s[0]:.2f} / {s[len(s) // 2]:.2f} ({s[0] / parquet:.2f}x)")
    print(f"| {q['name']} | " + " | ".join(cells) + " |")
print("\npeak RSS of the JVM, GiB (both queries, one run)")
print("| master | " + " | ".join(variants) + " |")
print("|---|" + "---:|" * len(variants))
for master, by_variant in memory.items():
    print(f"| {master} | " + " | ".join(f"{by_variant[v] / 2**30:.2f}" for v in variants) + " |")
print(f"\nwritten: {os.path.join(out, 'spark-source.json')}")
PY

if [[ "${KEEP_DATA:-0}" != 1 ]]; then
  rm -rf "$data"
fi
