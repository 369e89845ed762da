"""``truclog review`` against ``truclog stats`` on the same log, in the same run.

Usage: python benchmarks/decisions_bench.py LOG [--python PYTHON] [-j N]

Each command runs in a child process of its own, with the same Python (pass a
compiled install's, and run from outside the checkout, to measure that build):

1. ``truclog stats --format json LOG``: the baseline, wall and CPU time, peak memory;
2. ``truclog review --format json LOG``: every decision written out;
3. ``truclog review LOG``: the readable report (counts and the costliest decisions);

with the ratios of their CPU time and peak memory to the baseline's. ``-j N`` is
given to all three. A log: ``truclog simulate --hands 50000 -o LOG``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time


def measured(command: list[str]) -> tuple[float, float, int]:
    """Run a command: its wall seconds, its CPU seconds (user + sys) and peak KB."""
    start = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{command!r} failed")
    return time.monotonic() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("log")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    args = parser.parse_args()
    truclog = [args.python, "-m", "truclog"]
    build = subprocess.run([*truclog, "--version"], capture_output=True, text=True, check=True)
    print(f"{build.stdout.strip()} · {args.log} ({os.path.getsize(args.log) / 1e6:.0f} MB)")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    jobs = ["-j", str(args.jobs)]
    runs = {
        "stats --format json (baseline)": ["stats", "--format", "json", *jobs],
        "review --format json": ["review", "--format", "json", *jobs],
        "review (report)": ["review", *jobs],
    }
    base_cpu = base_peak = 0.0
    for name, command in runs.items():
        wall, cpu, peak = measured([*truclog, *command, args.log])
        if not base_cpu:
            base_cpu, base_peak = cpu, peak
        print(
            f"{name}: {wall:.1f} s wall, {cpu:.1f} s CPU ({cpu / base_cpu:.2f} x stats),"
            f" {peak / 1024:.0f} MB peak ({peak / base_peak:.2f} x stats)"
        )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
