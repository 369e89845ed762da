"""The browser's players screen on a large log: statistics, then ratings and costliest answers.

Usage: python benchmarks/review_bench.py LOG [--python PYTHON]

With a compiled install in a venv of its own (``pip install .``), pass its Python
and run from outside the checkout, so that the installed build is used.

In the same run and with the same Python, each in a child process of its own:

1. ``truclog stats --format json LOG``: the baseline, CPU time and peak memory;
2. the players screen's worker process (``truclog.tui.browse.standings``, as the
   browser starts it): wall time until the statistics are shown, then until the
   ratings and costliest answers follow (rated after the one reading), its CPU
   time and peak memory, and the ratios of both to the baseline's.

It also prints what the reading kept: players rated, ordinal points charted
and costliest answers kept per player (bounded whatever the log's size).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import orjson


def waited(child: subprocess.Popen[bytes]) -> tuple[float, int]:
    """Wait for a child: its own CPU seconds (user + sys) and peak resident KB."""
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"{child.args!r} failed")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def stats(python: str, log: str) -> tuple[float, float, int]:
    """``truclog stats``: wall seconds, CPU seconds, peak KB."""
    start = time.monotonic()
    command = [python, "-m", "truclog", "stats", "--format", "json", log]
    cpu, peak = waited(subprocess.Popen(command, stdout=subprocess.DEVNULL))
    return time.monotonic() - start, cpu, peak


def players(python: str, log: str) -> tuple[float, float, float, int, dict[str, object]]:
    """The players worker: seconds to the statistics and to the rest, CPU seconds, peak
    KB, and the rest itself."""
    start = time.monotonic()
    command = [python, "-m", "truclog.tui.browse.standings"]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stdin=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(orjson.dumps({"paths": [log], "threshold": 0.5}))  # as the browser asks
    child.stdin.close()
    rows_at = 0.0
    found: dict[str, object] = {}
    for line in child.stdout:
        document = orjson.loads(line)
        if "rows" in document:
            rows_at = time.monotonic() - start
        elif "hindsight" in document:
            found = document["hindsight"]
        elif "error" in document:
            raise SystemExit(f"the worker failed: {document['error']}")
    spent, peak = waited(child)
    return rows_at, time.monotonic() - start, spent, peak, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("log")
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    build = subprocess.run(
        [args.python, "-m", "truclog", "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    print(f"{build} · {args.log} ({os.path.getsize(args.log) / 1e6:.0f} MB)")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    wall, cpu, peak = stats(args.python, args.log)
    print(f"truclog stats (baseline): {wall:.1f} s wall, {cpu:.1f} s CPU, {peak / 1024:.0f} MB")
    rows_at, total, spent, worker_peak, found = players(args.python, args.log)
    print(
        f"players worker: statistics shown after {rows_at:.1f} s, ratings and answers after"
        f" {total:.1f} s wall; {spent:.1f} s CPU ({spent / cpu:.2f} x stats), peak"
        f" {worker_peak / 1024:.0f} MB ({worker_peak / peak:.2f} x stats)"
    )
    ratings = found.get("ratings", [])
    given = found.get("given", {})
    assert isinstance(ratings, list) and isinstance(given, dict)
    points = max((len(r["trail"]) for r in ratings), default=0)
    kept = max((len(g["costliest"]) for g in given.values()), default=0)
    answers = sum(g["answers"] for g in given.values())
    print(
        f"kept: {len(ratings)} players rated, at most {points} ordinal points a player,"
        f" at most {kept} of {answers} costly answers a player"
    )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
