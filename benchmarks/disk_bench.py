"""Whole-process speed of the commands on one large log, against the bare line-parse loop.

    python benchmarks/disk_bench.py --mb 150 --python /path/to/compiled/venv/bin/python

Simulates a legal log of about ``--mb`` megabytes once (cached in bench_data/: runs of
10,000 games, about 75 MB, one seed each, joined into one file), reads it once so that every
command finds it in the page cache, then in the same run times, each as its own
process of ``--python`` (a venv where truclog was built with ``pip install .``, so
compiled), ``--repeat`` times with the best wall time kept:

- the baseline: a bare Python loop that only parses each line with ``orjson.loads``;
- ``truclog validate`` (``-j 1``) and ``truclog validate -j 2`` (the file in parts);
- ``truclog stats --format json`` and ``truclog export`` (``-j 1``), and
  ``truclog export -j 2`` (the file in parts); ``--skip export`` leaves both exports out,
  ``--skip stats`` leaves statistics out (and the exports, whose ratios are to it).

Prints, as JSON, each wall time, CPU time and peak resident memory (of the command's
largest process), the load of the machine, and the ratios the targets are stated in
(of wall times; of CPU times too, which a loaded machine disturbs less):
validate speed over the bare loop (>= 1.0), ``-j 2`` over ``-j 1`` (>= 1.6), stats
over validate (<= 1.5), export over stats (<= 2.0), export ``-j 2`` over ``-j 1``.
With ``--baseline PYTHON`` (another install, e.g. of the main branch), every command
is timed with it too, each right after the same command of ``--python``, and its
figures, its ratios and each command's time over the baseline's are printed beside.
Every command runs in a temporary folder, so that ``-m truclog`` finds the install
of its interpreter, never a work tree it was started from.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "bench_data"

GAMES_A_SEED = 10_000
"""Games simulated with one seed: about 75 MB."""

BARE = """
import sys, orjson
loads = orjson.loads
with open(sys.argv[1], "rb") as f:
    for line in f:
        if line.strip():
            loads(line)
"""


def corpus(megabytes: int) -> Path:
    """The simulated log of about ``megabytes`` MB, made on first use."""
    path = DATA / f"disk-{megabytes}MB.truclog.jsonl"
    if path.exists():
        return path
    from truclog.simulate.run import Simulation, simulate_to

    DATA.mkdir(exist_ok=True)
    runs = [DATA / f"disk-seed{seed}.jsonl" for seed in range(1, round(megabytes / 75) + 1)]
    for seed, run in enumerate(runs, 1):
        if not run.exists():
            simulation = Simulation(games=GAMES_A_SEED, seed=seed, hidden=0.3, timestamps=True)
            simulate_to(simulation, run)
    with open(path.with_suffix(".tmp"), "wb") as out:
        for run in runs:
            with open(run, "rb") as part:
                shutil.copyfileobj(part, out)
    os.replace(path.with_suffix(".tmp"), path)
    return path


def timed(name: str, command: list[str], repeat: int, where: str) -> dict[str, float]:
    """The best wall time of ``command`` (``name``, run in the folder ``where``), the
    CPU time of that run (its processes together) and its peak memory (its largest
    process)."""
    best, cpu, peak = float("inf"), 0.0, 0
    for _ in range(repeat):
        start = time.perf_counter()
        child = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=where
        )
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        if wall < best:
            best, cpu = wall, usage.ru_utime + usage.ru_stime
        peak = max(peak, usage.ru_maxrss)
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            raise SystemExit(f"{' '.join(command)} failed: {status}")
    found = {"wall_s": round(best, 3), "cpu_s": round(cpu, 3), "peak_mb": round(peak / 1024, 1)}
    print(command[0], name, found, file=sys.stderr)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=int, default=150)
    parser.add_argument("--python", default=sys.executable, help="the truclog to measure")
    parser.add_argument("--baseline", help="another truclog's python, timed in the same run")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        choices=["stats", "export"],
        help="a command not to time",
    )
    args = parser.parse_args()
    path = corpus(args.mb)
    with open(path, "rb") as warm:
        while warm.read(1 << 24):
            pass
    pythons = [args.python, *([args.baseline] if args.baseline else [])]
    runs: list[dict[str, dict[str, float]]] = [{} for _ in pythons]
    with tempfile.TemporaryDirectory() as where:
        for name, command in commands(str(path), f"{where}/t", args.skip):
            for python, found in zip(pythons, runs, strict=True):
                found[name] = timed(name, [python, *command], args.repeat, where)
    report: dict[str, object] = {
        "log": {"path": path.name, "mb": round(path.stat().st_size / 1e6, 1)},
        "load": [round(x, 2) for x in os.getloadavg()],
        **figures(runs[0]),
    }
    if args.baseline:
        report["baseline"] = {"python": args.baseline, **figures(runs[1])}
        report["time_over_baseline"] = {
            name: round(run["wall_s"] / runs[1][name]["wall_s"], 2) for name, run in runs[0].items()
        }
    print(json.dumps(report, indent=2))


def commands(log: str, tables: str, skip: list[str]) -> list[tuple[str, list[str]]]:
    """Each command timed, by name, as the arguments of its interpreter."""
    truclog = ["-m", "truclog"]
    found = [
        ("bare_parse", ["-c", BARE, log]),
        ("validate", [*truclog, "validate", log]),
        ("validate_j2", [*truclog, "validate", "-j", "2", log]),
    ]
    if "stats" in skip:
        return found
    found.append(("stats", [*truclog, "stats", "-j", "1", "--format", "json", log]))
    if "export" not in skip:
        found.append(("export", [*truclog, "export", "--overwrite", "--to", tables, log]))
        export_j2 = [*truclog, "export", "-j", "2", "--overwrite", "--to", tables, log]
        found.append(("export_j2", export_j2))
    return found


def figures(runs: dict[str, dict[str, float]]) -> dict[str, object]:
    """The runs of one install and the ratios the targets are stated in."""
    wall = {name: run["wall_s"] for name, run in runs.items()}
    cpu = {name: run["cpu_s"] for name, run in runs.items()}
    return {
        "runs": runs,
        "ratios": {
            "validate_speed_over_bare_parse": round(wall["bare_parse"] / wall["validate"], 2),
            "validate_j2_speed_over_j1": round(wall["validate"] / wall["validate_j2"], 2),
            **_stats_ratios(wall),
        },
        "cpu_ratios": {
            "validate_speed_over_bare_parse": round(cpu["bare_parse"] / cpu["validate"], 2),
            "validate_j2_cpu_over_j1": round(cpu["validate_j2"] / cpu["validate"], 2),
            **_stats_ratios(cpu),
        },
    }


def _stats_ratios(times: dict[str, float]) -> dict[str, float]:
    """The ratios of statistics and export, when they were timed."""
    if "stats" not in times:
        return {}
    return {"stats_time_over_validate": round(times["stats"] / times["validate"], 2)} | (
        _export_ratio(times)
    )


def _export_ratio(times: dict[str, float]) -> dict[str, float]:
    """Export's time over stats' and its speed-up on two processes, when export was timed."""
    if "export" not in times:
        return {}
    return {
        "export_time_over_stats": round(times["export"] / times["stats"], 2),
        "export_j2_speed_over_j1": round(times["export"] / times["export_j2"], 2),
    }


if __name__ == "__main__":
    main()
