"""Benchmark validation and statistics on a Dask cluster: 1 worker against 2.

    python benchmarks/distributed_bench.py --hands 200000 --files 16

The corpus is simulated once into ``--dir`` (as ``stats_bench.py`` does) and reused.
Then, in the same run, on the same files:

1. the baseline: ``truclog validate`` and ``truclog stats`` work in this process;
2. a LocalCluster of 1 worker process, then of 2, each started before the clock
   starts (its start-up is printed apart): the same work as tasks, one per file;
3. the per-task overhead: a batch of tasks that do nothing, per task.

It prints wall seconds, hands per second, and the ratios against the baseline and
of 2 workers against 1.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dask.distributed import Client

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stats_bench import DATA, corpus

from truclog import COMPILED
from truclog.stats import distributed
from truclog.stats.counts import Grouping
from truclog.stats.run import collect
from truclog.validate.report import mark_duplicates, report_file


def timed(work: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def validate_here(paths: list[str]) -> int:
    return sum(r.hands for r in mark_duplicates(report_file(p) for p in paths))


def validate_there(client: Client, paths: list[str]) -> int:
    return sum(r.hands for r in distributed.reports(client, paths))


def stats_here(paths: list[str]) -> int:
    return collect(paths, Grouping())[1].hands


def stats_there(client: Client, paths: list[str]) -> int:
    return distributed.statistics(client, paths, Grouping())[1].hands


def nothing(item: int) -> int:
    return item


def overhead(client: Client, tasks: int) -> float:
    """Wall seconds per task of ``tasks`` tasks that do nothing, in file order."""
    failed = lambda item, exc: -1  # noqa: E731
    seconds, _ = timed(lambda: list(distributed.ordered(client, nothing, range(tasks), failed)))
    return seconds / tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--files", type=int, default=16)
    parser.add_argument("--dir", type=Path, default=DATA / "distributed")
    parser.add_argument("--tasks", type=int, default=500, help="no-op tasks for the overhead")
    args = parser.parse_args()
    paths = corpus(args.dir / f"{args.hands}-{args.files}", args.hands, args.files, 2)
    build = "compiled" if COMPILED else "pure Python"
    print(f"{len(paths)} files, {args.hands:,} hands asked, {build} build")
    rows: dict[str, dict[str, float]] = {"validate": {}, "stats": {}}
    hands = 0
    for name, here in (("validate", validate_here), ("stats", stats_here)):
        rows[name]["here"], hands = timed(lambda here=here: here(paths))
    for workers in (1, 2):
        started = time.perf_counter()
        with distributed.connect(f"local:{workers}") as client:
            start = time.perf_counter() - started
            print(f"LocalCluster of {workers}: started in {start:.1f} s")
            for name, there in (("validate", validate_there), ("stats", stats_there)):
                rows[name][f"{workers}"], _ = timed(lambda there=there: there(client, paths))
            per_task = overhead(client, args.tasks)
            print(f"  per-task overhead: {per_task * 1e3:.2f} ms ({args.tasks} no-op tasks)")
    print(f"{hands:,} hands")
    print(f"{'job':<9}{'here':>9}{'1 worker':>10}{'2 workers':>11}{'2 vs 1':>8}{'2 vs here':>11}")
    for name, row in rows.items():
        print(
            f"{name:<9}{row['here']:>8.2f}s{row['1']:>9.2f}s{row['2']:>10.2f}s"
            f"{row['1'] / row['2']:>7.2f}x{row['here'] / row['2']:>10.2f}x"
        )
    for name, row in rows.items():
        print(
            f"{name}: {hands / row['2']:,.0f} hands/s on 2 workers, {hands / row['here']:,.0f} here"
        )


if __name__ == "__main__":
    main()
