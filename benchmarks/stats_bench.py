"""Benchmark ``truclog stats`` on a simulated corpus, against validation alone.

    python benchmarks/stats_bench.py --hands 1000000 --files 8 --jobs 2

The corpus is simulated once into ``--dir`` (one log per file, seeds 1..N) and
reused by later runs; after simulating, the benchmark starts itself again so
that the simulation's processes do not count. Then, in the same run:

1. statistics: every file streamed through the validator, the tables and the
   counts on ``--jobs`` processes, exactly as ``truclog stats -j`` does;
2. the baseline: the same files only validated, on as many processes.

It prints wall and CPU seconds (this process and its workers), CPU µs per hand,
hands per second and peak resident memory of each, the ratio of statistics to
validation alone, and what statistics add per hand on top of validation.
``--review-cost N`` also times statistics in this process without the answer
review and with it, in turn N times, each from empty caches, and prints the
ratio of the fastest runs.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any
from unittest.mock import patch

from truclog import COMPILED, answer, strength
from truclog.answer import AnswerReview, Stakes, judge
from truclog.simulate.bots import STYLES
from truclog.simulate.run import Simulation, simulate_to
from truclog.stats import tables
from truclog.stats.players import Grouping, finish
from truclog.stats.run import collect
from truclog.validate import CheckedGame, check_log

DATA = Path(__file__).resolve().parent.parent / "bench_data"


def _simulate(path: str, seed: int, hands: int) -> int:
    styles = {"Ana": STYLES["bluffer"], "Marc": STYLES["balanced"]}
    sim = Simulation(hands=hands, seed=seed, styles=styles, timestamps=True, hidden=0.2)
    return simulate_to(sim, path).hands


def corpus(folder: Path, hands: int, files: int, jobs: int) -> tuple[list[str], bool]:
    """The corpus files, and whether some had to be simulated first."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [str(folder / f"sim-{i:02d}.truclog.jsonl") for i in range(1, files + 1)]
    missing = [(p, i) for i, p in enumerate(paths, 1) if not Path(p).exists()]
    if missing:
        print(f"simulating {len(missing)} file(s) into {folder} ...", file=sys.stderr)
        with ProcessPoolExecutor(jobs) as pool:
            done = pool.map(_simulate, *zip(*missing, strict=True), [hands // files] * len(missing))
            print(f"simulated {sum(done)} hands", file=sys.stderr)
    return paths, bool(missing)


def cpu_seconds() -> float:
    """CPU time used so far by this process and its finished workers."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def peak_mib() -> tuple[float, float]:
    """Peak resident memory (MiB) of this process, and of the largest worker so far."""
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return me, children


def measured(run: Callable[[], int]) -> dict[str, Any]:
    """Wall and CPU seconds, hands per second and peak memory of ``run`` (which
    returns the hands it counted)."""
    cpu, start = cpu_seconds(), time.perf_counter()
    hands = run()
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    me, workers = peak_mib()
    return {
        "hands": hands,
        "seconds": round(seconds, 2),
        "cpu_seconds": round(cpu, 1),
        "cpu_microseconds_per_hand": round(cpu / max(hands, 1) * 1e6, 1),
        "hands_per_second": round(hands / seconds),
        "peak_rss_mib_main": round(me),
        "peak_rss_mib_worker": round(workers),
    }


def _validate(path: str) -> int:
    return sum(len(item.hands) for item in check_log(path) if isinstance(item, CheckedGame))


def statistics(paths: list[str], jobs: int, figures: dict[str, Any]) -> Callable[[], int]:
    def run() -> int:
        counts, tally = collect(paths, Grouping(), jobs=jobs)
        rows = finish(counts)
        figures.update(games=tally.games, raises=sum(r["raises"] for r in rows))
        return tally.hands + tally.hands_left_out

    return run


def review_cost(paths: list[str], rounds: int) -> dict[str, Any]:
    """Statistics in this process without the answer review and with it, in turn,
    ``rounds`` times, each run from empty caches; the fastest run of each counts
    (the others were slowed by the rest of the machine). The review's cost is the
    ratio."""
    runs: dict[str, list[dict[str, Any]]] = {"without": [], "with": []}
    for _ in range(rounds):
        for review in (False, True):
            clear_caches()
            with patch.object(tables, "judge", judge if review else _unjudged):
                runs["with" if review else "without"].append(measured(statistics(paths, 1, {})))
    figures = {name: min(done, key=lambda run: run["cpu_seconds"]) for name, done in runs.items()}
    with_, without = figures["with"], figures["without"]
    figures["cpu_ratio"] = round(with_["cpu_seconds"] / without["cpu_seconds"], 3)
    figures["wall_ratio"] = round(with_["seconds"] / without["seconds"], 3)
    figures["cpu_seconds_each_run"] = {
        name: [run["cpu_seconds"] for run in done] for name, done in runs.items()
    }
    return figures


def _unjudged(rules: Any, accepted: bool, at_stake: Stakes, *_: Any) -> AnswerReview:
    return AnswerReview(accepted, at_stake)


def clear_caches() -> None:
    """Empty the memo of strengths and answers, so that a run starts cold."""
    for memo in (strength._ranks, strength._odds, strength._expected, strength._play):
        memo.cache_clear()
    strength._dealt.cache_clear()
    answer._judged.cache_clear()


def validation(paths: list[str], jobs: int) -> Callable[[], int]:
    def run() -> int:
        # polars' thread pool does not survive fork: workers start fresh, as in collect
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(jobs, mp_context=context) as pool:
            return sum(pool.map(_validate, paths))

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--files", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--dir", default=str(DATA / "stats-bench"))
    parser.add_argument("--no-baseline", action="store_true", help="skip timing validation alone")
    parser.add_argument(
        "--review-cost",
        type=int,
        default=0,
        metavar="ROUNDS",
        help="also time statistics without and with the answer review in turn, in one process",
    )
    args = parser.parse_args()
    paths, simulated = corpus(Path(args.dir), args.hands, args.files, args.jobs)
    if simulated:  # measure in a fresh process: no simulation workers in the figures
        os.execv(sys.executable, [sys.executable, *sys.argv])
    figures: dict[str, Any] = {
        "build": "compiled" if COMPILED else "pure Python",
        "files": len(paths),
        "bytes": sum(Path(p).stat().st_size for p in paths),
        "jobs": args.jobs,
    }
    figures["stats"] = measured(statistics(paths, args.jobs, figures))
    if not args.no_baseline:
        stats, alone = figures["stats"], measured(validation(paths, args.jobs))
        alone.pop("peak_rss_mib_main")  # this process grew during statistics
        alone.pop("peak_rss_mib_worker")  # the largest worker of either run
        figures["validation_only"] = alone
        figures["stats_over_validation"] = {
            "wall": round(stats["seconds"] / alone["seconds"], 2),
            "cpu": round(stats["cpu_seconds"] / alone["cpu_seconds"], 2),
        }
        added = stats["cpu_microseconds_per_hand"] - alone["cpu_microseconds_per_hand"]
        figures["stats_added_cpu_microseconds_per_hand"] = round(added, 1)
    if args.review_cost:
        figures["answer_review"] = review_cost(paths, args.review_cost)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
