"""Validation throughput against the bare orjson line-parse rate of the same file.

Usage: python benchmarks/validate_bench.py [--games N | --log PATH] [--rss]

Simulates a legal log (cached in bench_data/), then in the same run measures on one
core: (1) orjson.loads of every line, (2) reading into events (truclog.format.reader),
(3) validation line by line (the Python validator alone), (4) validation as
``truclog validate`` does it for one file (truclog.validate.report.report_file: the quick core
clears plain legal games, see truclog/validate/quick.py). Each stage is timed --repeat times
and the best CPU time counts (the machine may be shared). Prints hands/s of each and
the ratios to bare parsing (the issue's target for validation: >= 0.4). With --rss it
also validates in a child process and prints its peak resident memory. With --log, a
legal log of your own is measured instead (its hands counted by the validator).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson

from truclog import COMPILED
from truclog.diagnostic import ERROR
from truclog.format.reader import read_log
from truclog.simulate.run import Simulation, simulate_to
from truclog.validate.quick import AVAILABLE
from truclog.validate.report import report_file

DATA = Path(__file__).resolve().parent.parent / "bench_data"


def corpus(games: int) -> tuple[Path, int]:
    DATA.mkdir(exist_ok=True)
    path = DATA / f"validate-{games}.truclog.jsonl"
    marker = path.with_suffix(".hands")
    if not path.exists() or not marker.exists():
        tally = simulate_to(Simulation(games=games, seed=7, hidden=0.3, timestamps=True), path)
        marker.write_text(str(tally.hands))
    return path, int(marker.read_text())


def timed(label: str, hands: int, run: Callable[[], None], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    rate = hands / best
    print(f"{label:<28} {best:8.2f} s CPU  {rate:12,.0f} hands/s")
    return rate


def bare_parse(path: Path) -> None:
    with open(path, "rb") as f:
        for line in f:
            if line.strip():
                orjson.loads(line)


def read_only(path: Path) -> None:
    for _ in read_log(str(path)):
        pass


def validate(path: Path, quick: bool = True) -> None:
    report = report_file(str(path), quick=quick)
    errors = report.count(ERROR)
    assert errors == 0, f"the simulated corpus should be legal, found {errors} errors"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--log", type=Path, help="measure this legal log, not a simulated one")
    parser.add_argument("--repeat", type=int, default=3, help="runs per stage (best counts)")
    parser.add_argument("--rss", action="store_true", help="also measure peak memory")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        validate(Path(args.child))
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
        return
    if args.log is not None:
        path, hands = args.log, report_file(str(args.log), detail=False).hands
    else:
        path, hands = corpus(args.games)
    size = path.stat().st_size
    build = ("compiled" if COMPILED else "pure Python") + (
        ", quick core" if AVAILABLE else ", no quick core"
    )
    print(f"corpus: {path.name}, {size / 1e6:.1f} MB, {hands:,} hands; truclog {build}")
    repeat = args.repeat
    parse = timed("orjson.loads per line", hands, lambda: bare_parse(path), repeat)
    read = timed("read_log (events)", hands, lambda: read_only(path), repeat)
    lines = timed("validation line by line", hands, lambda: validate(path, False), repeat)
    check = timed("validation (report_file)", hands, lambda: validate(path), repeat)
    print(f"ratio read/parse:         {read / parse:.3f}")
    print(f"ratio line by line/parse: {lines / parse:.3f}")
    print(f"ratio validate/parse:     {check / parse:.3f}   (target >= 0.4)")
    if args.rss:
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(path)], capture_output=True, text=True
        )
        print(
            f"peak RSS validating {size / 1e6:.0f} MB: {int(out.stdout.split()[-1]) / 1024:.0f} MB"
        )


if __name__ == "__main__":
    main()
