"""``truclog review`` against ``truclog stats`` on the same log, in the same run.

Usage: python benchmarks/decisions_bench.py LOG... [--python PYTHON] [--baseline PYTHON] [-j N]
    [--rounds N] [--stats-of PYTHON]

Each command runs in a child process of its own, with the same Python (pass a
compiled install's, and run from outside the checkout, to measure that build):

1. ``truclog stats --format json LOG``: the baseline, wall and CPU time, peak memory;
2. ``truclog review --format json LOG``: every decision written out;
3. ``truclog review LOG``: the readable report (counts and the costliest decisions);

with the ratios of their CPU time and peak memory to the baseline's, and of their
wall time; last, the ratio of each review's wall time to the statistics' (the target:
at most 2 on the corpus of ``benchmarks/stats_bench.py`` at ``-j 2``). With
``--baseline PYTHON`` (the interpreter of another install, say of ``main`` before a
change), the three commands also run on that install, each just before this
install's, and the ratios of this install's times to it are printed.
``-j N`` is given to all. With ``--rounds N``, every command runs N times, round after
round (on a shared machine, each round sees about the same load), and each figure is the
median of its N. With ``--stats-of PYTHON`` (the interpreter of another install, say
of a branch that makes ``stats`` faster), that install's ``truclog stats --format json``
runs too, each round, and the ratios of this install's reviews to it are printed. A log: ``truclog simulate --hands 50000 -o LOG``; several
logs are read as one corpus. Run from outside the checkout, so that each install
imports its own truclog.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict


def measured(command: list[str]) -> tuple[float, float, int]:
    """Run a command: its wall seconds, its CPU seconds (user + sys) and peak KB."""
    start = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{command!r} failed")
    return time.monotonic() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def median(runs: list[tuple[float, float, int]]) -> tuple[float, float, int]:
    """The median wall time, CPU time and peak of some runs, each on its own."""
    walls, cpus, peaks = zip(*runs, strict=True)
    return statistics.median(walls), statistics.median(cpus), int(statistics.median(peaks))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("logs", nargs="+")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--baseline", help="the interpreter of another install")
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=1, help="runs of each command (medians)")
    parser.add_argument("--stats-of", help="the interpreter of an install whose stats to compare")
    args = parser.parse_args()
    truclog = [args.python, "-m", "truclog"]
    build = subprocess.run([*truclog, "--version"], capture_output=True, text=True, check=True)
    size = sum(os.path.getsize(log) for log in args.logs)
    print(f"{build.stdout.strip()} · {len(args.logs)} log(s), {size / 1e6:.0f} MB")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    jobs = ["-j", str(args.jobs)]
    stats = ["stats", "--format", "json", *jobs]
    runs = {
        "stats --format json": stats,
        "review --format json": ["review", "--format", "json", *jobs],
        "review (report)": ["review", *jobs],
    }
    runs_of: dict[tuple[bool, str], list[tuple[float, float, int]]] = defaultdict(list)
    for _ in range(args.rounds):
        for name, command in runs.items():
            if args.baseline:
                based = measured([args.baseline, "-m", "truclog", *command, *args.logs])
                runs_of[True, name].append(based)
            runs_of[False, name].append(measured([*truclog, *command, *args.logs]))
        if args.stats_of:
            other = measured([args.stats_of, "-m", "truclog", *stats, *args.logs])
            runs_of[True, "other stats"].append(other)
    if args.rounds > 1:
        print(f"medians of {args.rounds} rounds")
    first = (0.0, 0.0, 0)
    base_first = (0.0, 0.0, 0)
    ratios, base_ratios = [], []
    for name, command in runs.items():
        if args.baseline:
            base = median(runs_of[True, name])
            base_first = base_first if base_first[0] else base
            print(
                f"baseline {name}: {base[0]:.1f} s wall ({base[0] / base_first[0]:.2f} x stats),"
                f" {base[1]:.1f} s CPU ({base[1] / base_first[1]:.2f} x stats)"
            )
            if command is not stats:
                base_ratios.append(f"{name} {base[0] / base_first[0]:.2f}")
        wall, cpu, peak = median(runs_of[False, name])
        first = first if first[0] else (wall, cpu, peak)
        if command is not stats:
            ratios.append(f"{name} {wall / first[0]:.2f}")
        print(
            f"{name}: {wall:.1f} s wall ({wall / first[0]:.2f} x stats),"
            f" {cpu:.1f} s CPU ({cpu / first[1]:.2f} x stats),"
            f" {peak / 1024:.0f} MB peak ({peak / first[2]:.2f} x stats)"
        )
        if args.baseline:
            print(f"  against the baseline: {wall / base[0]:.2f} x wall, {cpu / base[1]:.2f} x CPU")
    print(f"review / stats (wall, -j {args.jobs}): {', '.join(ratios)}")
    if args.stats_of:
        other = median(runs_of[True, "other stats"])
        print(f"{args.stats_of} stats --format json: {other[0]:.1f} s wall, {other[1]:.1f} s CPU")
        reviews = [
            (name, median(runs_of[False, name])) for name in runs if name != "stats --format json"
        ]
        told = [f"{name} {r[0] / other[0]:.2f} ({r[1] / other[1]:.2f})" for name, r in reviews]
        print(f"review / its stats, wall (CPU): {', '.join(told)}")
    if base_ratios:
        print(f"the baseline's (wall): {', '.join(base_ratios)}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
