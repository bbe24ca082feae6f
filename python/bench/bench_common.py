"""Helpers the Python benchmarks share (python/bench): the CPU time of the driver's JVM and of its
Python workers, read from /proc.

- ``cpu_seconds(jvm_pid)``: (the JVM's CPU seconds, the CPU seconds of its descendants: PySpark's
  daemon and the workers it forks), for a before/after difference around one run.
- ``jvm_pid(spark)``: the process id of a session's JVM.
"""

import os

TICKS = os.sysconf("SC_CLK_TCK")


def process_table():
    """{pid: (parent pid, own CPU seconds, CPU seconds of its reaped children)} of every process."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # After the command: state ppid ... utime(12) stime(13) cutime(14) cstime(15), counted
        # from state as 1.
        table[int(name)] = (
            int(fields[1]),
            (int(fields[11]) + int(fields[12])) / TICKS,
            (int(fields[13]) + int(fields[14])) / TICKS,
        )
    return table


def cpu_seconds(jvm_pid):
    """(JVM CPU seconds, CPU seconds of the JVM's descendants: the Python workers). A worker that
    exited and was reaped counts through its parent's children's time (the daemon's), so that a
    worker's CPU is not lost when it ends between two readings."""
    table = process_table()
    children = {}
    for pid, (parent, _, _) in table.items():
        children.setdefault(parent, []).append(pid)
    workers = 0.0
    pending = list(children.get(jvm_pid, []))
    while pending:
        pid = pending.pop()
        workers += table[pid][1] + table[pid][2]
        pending.extend(children.get(pid, []))
    return table.get(jvm_pid, (0, 0.0, 0.0))[1], workers


def jvm_pid(spark):
    return int(spark._jvm.java.lang.ProcessHandle.current().pid())
