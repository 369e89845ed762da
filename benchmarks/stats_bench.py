"""Benchmark ``truclog stats`` against ``truclog validate`` on the same corpus, in one run.

    python benchmarks/stats_bench.py --hands 1000000 --files 8 --jobs 2
    python benchmarks/stats_bench.py --logs big.jsonl --jobs 1 --memory

The corpus is simulated once into ``--dir`` (one log per file, seeds 1..N) and
reused by later runs, or given with ``--logs``. With ``--copies-of LOG``, it is made
instead by copying the games of LOG, each copy's ``id`` renamed (so that no copy is
a duplicate), until the files hold ``--hands`` hands (or ``--games`` games) in all:

    python benchmarks/stats_bench.py --copies-of sim50k.jsonl --hands 1000000 --files 8
    python benchmarks/stats_bench.py --copies-of sim50k.jsonl --games 200000 --files 1 --memory
 Each command runs as a user runs
it (``truclog stats --format json -j N`` and ``truclog validate --format json -j N``,
each in a process of its own), and the benchmark prints, for each, wall and CPU
seconds (the command and its workers), CPU µs per hand, hands per second, peak
resident memory (the largest process), and the ratio of statistics to validation.

With ``--memory``, statistics also run on the first quarter of the games of the
first log: the difference of the two peaks over the difference in games is what
memory grows by per game.

With ``--baseline PYTHON`` (the interpreter of another install, say a build of
``main``), both commands also run on that install, each just before this one's, and
the benchmark prints its figures and the ratios of this install's CPU seconds to its:

    python benchmarks/stats_bench.py --logs sim50k.jsonl --jobs 1 --baseline /tmp/main/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from truclog.build import COMPILED

DATA = Path(__file__).resolve().parent.parent / "bench_data"
MAIN = "from truclog.cli import main; main()"
TRUCLOG = [sys.executable, "-c", MAIN]


def _simulate(path: str, seed: int, hands: int) -> int:
    # imported here: the process that starts the commands stays small (see SUMMARY)
    from truclog.simulate.bots import STYLES
    from truclog.simulate.run import Simulation, simulate_to

    styles = {"Ana": STYLES["bluffer"], "Marc": STYLES["balanced"]}
    sim = Simulation(hands=hands, seed=seed, styles=styles, timestamps=True, hidden=0.2)
    return simulate_to(sim, path).hands


def corpus(folder: Path, hands: int, files: int, jobs: int) -> list[str]:
    """The corpus files, simulated first when missing."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [str(folder / f"sim-{i:02d}.truclog.jsonl") for i in range(1, files + 1)]
    missing = [(p, i) for i, p in enumerate(paths, 1) if not Path(p).exists()]
    if missing:
        print(f"simulating {len(missing)} file(s) into {folder} ...", file=sys.stderr)
        with ProcessPoolExecutor(jobs) as pool:
            done = pool.map(_simulate, *zip(*missing, strict=True), [hands // files] * len(missing))
            print(f"simulated {sum(done)} hands", file=sys.stderr)
    return paths


def copies(log: str, folder: Path, files: int, hands: int, games: int | None) -> list[str]:
    """Files made of copies of the games of ``log`` (ids renamed), made once: ``games``
    games in all, or else ``hands`` hands."""
    folder.mkdir(parents=True, exist_ok=True)
    size = f"{games}-games" if games else f"{hands}-hands"
    paths = [folder / f"copies-{size}-{i + 1:02d}-of-{files}.truclog.jsonl" for i in range(files)]
    if all(p.exists() for p in paths):
        return [str(p) for p in paths]
    print(f"copying the games of {log} into {folder} ...", file=sys.stderr)
    source = _games_of(log)
    made = count = 0
    for i, path in enumerate(paths):
        with path.open("wb") as out:
            while count < (games or hands) * (i + 1) // files:
                header, rest, dealt = source[made % len(source)]
                header["id"] = f"{header.get('id', 'game')}~{made}"
                out.write(json.dumps(header, separators=(",", ":")).encode() + b"\n" + rest)
                made += 1
                count += 1 if games else dealt
    return [str(p) for p in paths]


def _games_of(log: str) -> list[tuple[dict[str, Any], bytes, int]]:
    """Each game of a log: its game line, its other lines, and how many hands it deals
    (deals but those after a granted redeal)."""
    found: list[tuple[dict[str, Any], list[bytes]]] = []
    with open(log, "rb") as lines:
        for line in lines:
            if line.startswith(b'{"type":"game"'):
                found.append((json.loads(line), []))
            elif found:
                found[-1][1].append(line)
    return [(header, b"".join(rest), _hands(rest)) for header, rest in found]


def _hands(lines: list[bytes]) -> int:
    deals = sum(line.startswith(b'{"type":"deal"') for line in lines)
    granted = sum(
        line.startswith(b'{"type":"redeal"') and b'"accepted":true' in line for line in lines
    )
    return deals - granted


SUMMARY = "import json, sys; print(json.dumps(json.load(open(sys.argv[1]))['summary']))"
"""Reads the summary of a validation report in a process of its own: this one stays
small, since a command's peak memory counts that of the process that starts it."""


def run(command: list[str], summary: bool = False) -> tuple[dict[str, Any], dict[str, Any]]:
    """Wall and CPU seconds and peak memory of a command (with its workers), and the
    ``summary`` of its JSON output when asked."""
    start = time.perf_counter()
    with tempfile.NamedTemporaryFile() as out:
        # run outside any checkout, so that the installed build is measured
        child = subprocess.Popen(
            command, stdout=out, stderr=subprocess.DEVNULL, cwd=tempfile.gettempdir()
        )
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        out.flush()
        told = subprocess.run(
            [sys.executable, "-c", SUMMARY, out.name], capture_output=True, check=summary
        )
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{' '.join(command[3:])} failed ({status})")
    figures = {
        "seconds": round(seconds, 2),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2),
        "peak_rss_mib": round(usage.ru_maxrss / 1024),
    }
    return figures, json.loads(told.stdout) if summary else {}


def per_hand(figures: dict[str, Any], hands: int) -> dict[str, Any]:
    return {
        **figures,
        "cpu_microseconds_per_hand": round(figures["cpu_seconds"] / max(hands, 1) * 1e6, 1),
        "hands_per_second": round(hands / figures["seconds"]),
    }


def first_games(path: str, games: int, to: Path) -> int:
    """Write the lines of the first ``games`` games of a log to ``to``; how many it wrote."""
    seen = 0
    with open(path, "rb") as src, to.open("wb") as dst:
        for line in src:
            if line.startswith(b'{"type":"game"'):
                seen += 1
                if seen > games:
                    break
            dst.write(line)
    return min(seen, games)


def memory(path: str, games: int, whole: dict[str, Any] | None = None) -> dict[str, Any]:
    """Peak memory of statistics on a quarter of a log's games and on all of them
    (``whole``: the figures of a run on all of them already made)."""
    with tempfile.TemporaryDirectory() as folder:
        part = Path(folder) / "quarter.truclog.jsonl"
        fewer = first_games(path, games // 4, part)
        small, _ = run([*TRUCLOG, "stats", "--format", "json", str(part)])
    if whole is None:
        whole, _ = run([*TRUCLOG, "stats", "--format", "json", path])
    grown = (whole["peak_rss_mib"] - small["peak_rss_mib"]) * (1 << 20)
    return {
        "games": [fewer, games],
        "peak_rss_mib": [small["peak_rss_mib"], whole["peak_rss_mib"]],
        "bytes_per_game": round(grown / max(games - fewer, 1)),
    }


def over(stats: dict[str, Any], validate: dict[str, Any]) -> dict[str, float]:
    """Statistics over validation, in wall and in CPU seconds."""
    return {
        "wall": round(stats["seconds"] / validate["seconds"], 2),
        "cpu": round(stats["cpu_seconds"] / validate["cpu_seconds"], 2),
    }


def build_of(python: str) -> str:
    """Which build another interpreter's install runs."""
    told = subprocess.run(
        [python, "-c", "from truclog.build import COMPILED; print(COMPILED)"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tempfile.gettempdir(),
    )
    return "compiled" if told.stdout.strip() == "True" else "pure Python"


def timed(
    installs: dict[str, list[str]], paths: list[str], jobs: list[str]
) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """Validation, then statistics, of ``paths`` by each install in turn (so that each
    pair runs at about the same load); and the summary of this install's validation."""
    figures: dict[str, dict[str, Any]] = {name: {} for name in installs}
    summary: dict[str, Any] = {}
    for command in ("validate", "stats"):
        for name, truclog in installs.items():
            mine = name == "this" and command == "validate"
            done, told = run([*truclog, command, "--format", "json", *jobs, *paths], mine)
            figures[name][command] = done
            summary = told if mine else summary
    return figures, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--files", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--dir", default=str(DATA / "stats-bench"))
    parser.add_argument(
        "--logs", nargs="+", help="measure these logs instead of a simulated corpus"
    )
    parser.add_argument(
        "--copies-of", metavar="LOG", help="make the corpus of copies of this log's games"
    )
    parser.add_argument("--games", type=int, help="with --copies-of: games in all")
    parser.add_argument("--memory", action="store_true", help="also measure memory per game")
    parser.add_argument(
        "--baseline", metavar="PYTHON", help="also run both commands on this interpreter's install"
    )
    args = parser.parse_args()
    if args.logs:
        logs = args.logs
    elif args.copies_of:
        logs = copies(args.copies_of, Path(args.dir), args.files, args.hands, args.games)
    else:
        logs = corpus(Path(args.dir), args.hands, args.files, args.jobs)
    paths = [str(Path(p).resolve()) for p in logs]
    jobs = ["-j", str(args.jobs)]
    figures: dict[str, Any] = {
        "build": "compiled" if COMPILED else "pure Python",
        "files": len(paths),
        "bytes": sum(Path(p).stat().st_size for p in paths),
        "jobs": args.jobs,
    }
    installs = {"this": TRUCLOG}
    if args.baseline is not None:
        installs = {"baseline": [args.baseline, "-c", MAIN], **installs}
    runs, summary = timed(installs, paths, jobs)
    games, hands = summary["games"], summary["hands"]
    figures.update(games=games, hands=hands)
    validate, stats = runs["this"]["validate"], runs["this"]["stats"]
    if args.baseline is not None:
        base = runs["baseline"]
        figures["baseline"] = {
            "python": args.baseline,
            "build": build_of(args.baseline),
            "validate": per_hand(base["validate"], hands),
            "stats": per_hand(base["stats"], hands),
            "stats_over_validate": over(base["stats"], base["validate"]),
        }
    figures["validate"] = per_hand(validate, hands)
    figures["stats"] = per_hand(stats, hands)
    figures["stats_over_validate"] = over(stats, validate)
    if args.baseline is not None:
        figures["cpu_over_baseline"] = {
            name: round(runs["this"][name]["cpu_seconds"] / base[name]["cpu_seconds"], 2)
            for name in ("validate", "stats")
        }
    if args.memory:
        if len(paths) == 1:
            figures["memory"] = memory(paths[0], games, stats)
        else:
            _, one = run([*TRUCLOG, "validate", "--format", "json", paths[0]], True)
            figures["memory"] = memory(paths[0], one["games"])
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
