"""Benchmark ``truclog stats --by``: what each split costs over plain statistics.

    python benchmarks/splits_bench.py --hands 100000 --files 2

Uses the simulated corpus of ``stats_bench.py`` (simulated first if missing), then,
in the same run, counts it once to warm up, then with no split (the baseline), with
each split alone and with all of them, in this process, and prints wall and CPU seconds and the ratio
of each to the baseline, as JSON.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from stats_bench import DATA, corpus

from truclog.stats.counts import SPLITS, Grouping
from truclog.stats.run import collect


def timed(paths: list[str], splits: tuple[str, ...]) -> dict[str, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    counts, tally = collect(paths, Grouping(splits))
    return {
        "wall_s": round(time.perf_counter() - wall, 2),
        "cpu_s": round(time.process_time() - cpu, 2),
        "rows": counts.height,
        "hands": tally.hands,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--files", type=int, default=2)
    parser.add_argument("--dir", default=str(DATA / "splits-bench"))
    args = parser.parse_args()
    paths, _ = corpus(Path(args.dir), args.hands, args.files, 2)
    timed(paths, ())  # warm up: the strength memo fills on the first run
    runs = {"none": timed(paths, ())}
    for split in SPLITS:
        runs[split] = timed(paths, (split,))
    runs["all"] = timed(paths, SPLITS)
    base = runs["none"]["cpu_s"]
    for figures in runs.values():
        figures["cpu_ratio"] = round(figures["cpu_s"] / base, 2)
    print(json.dumps({"files": len(paths), "runs": runs}, indent=2))


if __name__ == "__main__":
    main()
