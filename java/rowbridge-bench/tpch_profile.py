"""Where a TPC-H query's time goes, from a JFR recording of TpchBench (tpch_profile.sh).

Reads `jfr print --events jdk.ExecutionSample,jdk.NativeMethodSample` output and counts the
samples of Spark's task threads ("Executor task launch worker ...") by what their stack is
doing, deciding by the frame nearest the top of the stack that names one of:
  transition  rowbridge's converter and operator (its native convert calls included, and its
              reading of Comet's vectors), Spark's ColumnarToRow reading Arrow vectors
              (ArrowColumnVector and the Arrow Java getters behind it), or Comet's transitions
              and the Comet vectors' getters they read through;
  scan        rowbridge's scan (io.rowbridge.scan, the data source's readers, waiting for
              batches), Spark's Parquet reader, and Comet's native execution (its scan and
              operators, behind CometExecIterator);
  rest        everything else (the query's own operators, shuffle, hashing, ...).
Java samples are taken every 10 ms of a running thread, native ones every 20 ms of a thread in
native code, so each native sample counts twice.

  python3 tpch_profile.py PRINTED_JFR [--label NAME] [--json OUT]
"""
import argparse
import json
import re
import sys

TRANSITION = re.compile(
    r"^(io\.rowbridge\.(RowbridgeConverter|RowbridgeNative|NodeBinder|LeafBinders|NestedBinders"
    r"|BufferColumns|VectorInput|RegisteredVectors|ColumnarBatchInput|ColumnBuffersInput"
    r"|FallbackTree|CDataInput|ConverterInput"
    r"|RowCursor|RowIterator|RowBufferMemory|spark\.transition\.|comet\.)"
    r"|org\.apache\.spark\.sql\.vectorized\.ArrowColumnVector"
    r"|org\.apache\.spark\.sql\.execution\.ColumnarToRow|org\.apache\.arrow\.vector\."
    r"|org\.apache\.arrow\.memory\.ArrowBuf|org\.apache\.comet\.vector\."
    r"|org\.apache\.comet\.shaded\.arrow\."
    r"|org\.apache\.spark\.sql\.comet\.Comet(Native)?ColumnarToRow)")
SCAN = re.compile(
    r"^(io\.rowbridge\.scan\.|io\.rowbridge\.spark\.source\.|org\.apache\.parquet\."
    r"|org\.apache\.spark\.sql\.execution\.datasources\.parquet\."
    r"|org\.apache\.spark\.sql\.execution\.datasources\.v2\.DataSourceRDD"
    r"|org\.apache\.comet\.(CometExecIterator|Native)|org\.apache\.spark\.sql\.comet\.CometExecRDD)")
TASK_THREAD = "Executor task launch worker"


def samples(lines):
    """Yields (event type, thread name, frames from the top of the stack)."""
    event = thread = None
    frames = []
    in_stack = False
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("jdk.") and line.endswith("{"):
            event, thread, frames, in_stack = line.split()[0], None, [], False
        elif line.strip().startswith("sampledThread = "):
            thread = line.split('"')[1] if '"' in line else ""
        elif line.strip() == "stackTrace = [":
            in_stack = True
        elif in_stack and line.strip() == "]":
            in_stack = False
        elif in_stack:
            frames.append(line.strip())
        elif line == "}" and event:
            yield event, thread or "", frames
            event = None


def category(frames):
    for frame in frames:
        if TRANSITION.match(frame):
            return "transition"
        if SCAN.match(frame):
            return "scan"
    return "rest"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("printed")
    parser.add_argument("--label", default="")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    counts = {"transition": 0, "scan": 0, "rest": 0}
    with open(args.printed, encoding="utf-8", errors="replace") as f:
        for event, thread, frames in samples(f):
            if not thread.startswith(TASK_THREAD) or not frames:
                continue
            weight = 2 if event == "jdk.NativeMethodSample" else 1
            counts[category(frames)] += weight
    total = sum(counts.values())
    if total == 0:
        sys.exit(f"tpch_profile.py: no task-thread samples in {args.printed}")
    shares = {k: v / total for k, v in counts.items()}
    print(f"{args.label:<24} samples {total:6d}  " + "  ".join(
        f"{k} {100 * s:5.1f} %" for k, s in shares.items()))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"label": args.label, "samples": counts, "shares": shares}, out)


if __name__ == "__main__":
    main()
