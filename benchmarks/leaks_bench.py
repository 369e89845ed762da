"""Benchmark ``truclog leaks`` against ``truclog stats`` on the same corpus, in one run.

    python benchmarks/leaks_bench.py --dir /work/bench/stats-bench --player Ana
    python benchmarks/leaks_bench.py --logs big.jsonl --baseline /tmp/main/bin/python

The corpus is the one of ``benchmarks/stats_bench.py`` (simulated once into ``--dir``,
or given with ``--logs``). Each command runs as a user runs it, in a process of its
own and on one process (``truclog stats --format json -j 1``, ``truclog leaks
--player NAME --format json``: leaks have no ``-j``), and the benchmark prints, for
each, wall and CPU seconds, peak resident memory and CPU µs per hand, and the ratio
of leaks to statistics. With ``--baseline PYTHON`` (another install, say a build of
``main``), both commands also run on that install, each just before this one's, and
the ratios of this install's CPU seconds to the baseline's are printed too.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from stats_bench import DATA, MAIN, TRUCLOG, build_of, corpus, per_hand, run

from truclog.build import COMPILED


def hands_of(paths: list[str], installs: dict[str, list[str]]) -> int:
    """The hands of the corpus, as ``truclog validate`` of this install counts them."""
    _, summary = run([*installs["this"], "validate", "--format", "json", *paths], True)
    return int(summary["hands"])


def measured(
    installs: dict[str, list[str]], paths: list[str], player: str
) -> dict[str, dict[str, Any]]:
    """Statistics, then leaks, of ``paths`` by each install in turn (so that each pair
    runs at about the same load)."""
    commands = {
        "stats": ["stats", "--format", "json", "-j", "1", *paths],
        "leaks": ["leaks", "--player", player, "--format", "json", *paths],
    }
    figures: dict[str, dict[str, Any]] = {name: {} for name in installs}
    for command, arguments in commands.items():
        for name, truclog in installs.items():
            figures[name][command], _ = run([*truclog, *arguments])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--files", type=int, default=8)
    parser.add_argument("--dir", default=str(DATA / "stats-bench"))
    parser.add_argument("--logs", nargs="+", help="measure these logs instead of the corpus")
    parser.add_argument("--player", default="Ana", help="whose leaks to list")
    parser.add_argument("--baseline", metavar="PYTHON", help="also run both on this install")
    args = parser.parse_args()
    logs = args.logs or corpus(Path(args.dir), args.hands, args.files, 2)
    paths = [str(Path(p).resolve()) for p in logs]
    installs = {"this": TRUCLOG}
    if args.baseline is not None:
        installs = {"baseline": [args.baseline, "-c", MAIN], **installs}
    hands = hands_of(paths, installs)
    report: dict[str, Any] = {
        "build": "compiled" if COMPILED else "pure Python",
        "files": len(paths),
        "hands": hands,
        "load_before": round(os.getloadavg()[0], 1),
    }
    runs = measured(installs, paths, args.player)
    for name, done in runs.items():
        report[name] = {
            "stats": per_hand(done["stats"], hands),
            "leaks": per_hand(done["leaks"], hands),
            "leaks_over_stats": {
                "wall": round(done["leaks"]["seconds"] / done["stats"]["seconds"], 2),
                "cpu": round(done["leaks"]["cpu_seconds"] / done["stats"]["cpu_seconds"], 2),
            },
        }
    if args.baseline is not None:
        report["baseline"]["python"] = args.baseline
        report["baseline"]["build"] = build_of(args.baseline)
        report["cpu_over_baseline"] = {
            name: round(
                runs["this"][name]["cpu_seconds"] / runs["baseline"][name]["cpu_seconds"], 2
            )
            for name in ("stats", "leaks")
        }
    report["load_after"] = round(os.getloadavg()[0], 1)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
