"""Benchmark ``truclog stats`` on a simulated corpus: time, hands per second, peak memory.

    python benchmarks/stats_bench.py --hands 1000000 --files 8 --jobs 2

The corpus is simulated once into ``--dir`` (one log per file, seeds 1..N) and
reused by later runs. The run streams every file through the validator, the
tables and the counts, exactly as the command does; peak memory is the
largest resident set of this process and of any worker process.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from truclog.simulate.bots import STYLES
from truclog.simulate.run import Simulation, simulate_to
from truclog.stats.players import Grouping, finish
from truclog.stats.run import collect
from truclog.strength import strength_cache_info
from truclog.validate import CheckedGame, check_log


def _simulate(path: str, seed: int, hands: int) -> int:
    styles = {"Ana": STYLES["bluffer"], "Marc": STYLES["balanced"]}
    sim = Simulation(hands=hands, seed=seed, styles=styles, timestamps=True, hidden=0.2)
    return simulate_to(sim, path).hands


def corpus(folder: Path, hands: int, files: int, jobs: int) -> list[str]:
    """The corpus files, simulated where missing."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [str(folder / f"sim-{i:02d}.truclog.jsonl") for i in range(1, files + 1)]
    missing = [(p, i) for i, p in enumerate(paths, 1) if not Path(p).exists()]
    if missing:
        print(f"simulating {len(missing)} file(s) into {folder} ...", file=sys.stderr)
        with ProcessPoolExecutor(jobs) as pool:
            done = pool.map(_simulate, *zip(*missing, strict=True), [hands // files] * len(missing))
            print(f"simulated {sum(done)} hands", file=sys.stderr)
    return paths


def cpu_seconds() -> float:
    """CPU time used so far by this process and its finished workers."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def _validate(path: str) -> int:
    return sum(isinstance(item, CheckedGame) for item in check_log(path))


def validation_only(paths: list[str], jobs: int) -> float:
    """Wall seconds to only validate the corpus (the floor under statistics)."""
    start = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        sum(pool.map(_validate, paths))
    return time.perf_counter() - start


def peak_mib() -> tuple[float, float]:
    """Peak resident memory (MiB) of this process, and of the largest worker."""
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return me, children


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--files", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--dir", default="/tmp/truclog-stats-bench")
    parser.add_argument(
        "--baseline", action="store_true", help="also time validation alone, for comparison"
    )
    args = parser.parse_args()
    paths = corpus(Path(args.dir), args.hands, args.files, args.jobs)
    size = sum(Path(p).stat().st_size for p in paths)
    cpu = cpu_seconds()
    start = time.perf_counter()
    counts, tally = collect(paths, Grouping(), jobs=args.jobs)
    rows = finish(counts)
    seconds = time.perf_counter() - start
    cpu = cpu_seconds() - cpu
    me, workers = peak_mib()
    hits, misses = strength_cache_info()
    figures = {
        "files": len(paths),
        "bytes": size,
        "games": tally.games,
        "hands": tally.hands,
        "jobs": args.jobs,
        "seconds": round(seconds, 2),
        "hands_per_second": round(tally.hands / seconds),
        "cpu_seconds": round(cpu, 1),
        "cpu_microseconds_per_hand": round(cpu / max(tally.hands, 1) * 1e6),
        "peak_rss_mib_main": round(me),
        "peak_rss_mib_worker": round(workers),
        "strength_cache_main": {"hits": hits, "misses": misses},
        "raises": sum(r["raises"] for r in rows),
    }
    if args.baseline:
        figures["validation_only_seconds"] = round(validation_only(paths, args.jobs), 2)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
