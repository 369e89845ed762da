"""How long ``truclog`` takes to start, against a bare ``python -c pass`` in the same run.

Runs each command ``--runs`` times (default 20), taking turns so that a busy
machine slows them alike, and prints the median wall time and CPU time (user and
system) of each, and how much it adds to the bare interpreter's start (the floor).
On a shared machine the CPU time is the steadier figure. The target: ``truclog
--version`` and ``truclog validate`` of a small log under 0.15 s.

    python benchmarks/startup_bench.py [--runs 20] [--python PATH] [--baseline PATH]

``--python``: the interpreter of another environment, e.g. one where ``pip
install .`` built the compiled package (``.venv-compiled/bin/python``).
``--baseline``: the interpreter of an environment to compare with (another
build, e.g. of ``main``), whose commands take their turns in the same runs: each
line then gives its figures, and the CPU time against the baseline's. The
commands run from a temporary directory, so that the installed package is the
one measured, not the sources of a checkout.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SMALL_LOG = (
    Path(__file__).resolve().parent.parent
    / "sample_logs"
    / ("2026-11-29-cafe-du-port-classic.truclog.jsonl")
)


def commands(python: str, log: Path) -> dict[str, list[str]]:
    truclog = [python, "-m", "truclog"]
    return {
        "python -c pass (floor)": [python, "-c", "pass"],
        "import truclog.cli": [python, "-c", "import truclog.cli"],
        "truclog --version": [*truclog, "--version"],
        "truclog validate (small log)": [*truclog, "validate", str(log)],
    }


def timed(command: list[str], cwd: str) -> tuple[float, float]:
    """Wall time and CPU time (user and system) of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--baseline", help="the interpreter of a build to compare with")
    args = parser.parse_args()
    builds = {"": args.python, "baseline ": args.baseline} if args.baseline else {"": args.python}
    with tempfile.TemporaryDirectory() as cwd:
        log = Path(cwd) / "small.truclog.jsonl"
        log.write_bytes(SMALL_LOG.read_bytes())
        runs = {
            label + name: command
            for label, python in builds.items()
            for name, command in commands(python, log).items()
        }
        for label in builds:
            version = subprocess.run(
                runs[label + "truclog --version"],
                cwd=cwd,
                check=True,
                capture_output=True,
                text=True,
            )
            print(f"{label or 'measured '}{version.stdout.strip()}")
        print(f"{args.runs} runs each, taking turns, medians")
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
        for _ in range(args.runs):
            for name, command in runs.items():
                times[name].append(timed(command, cwd))
    print(f"{'':<39} {'wall':>7} {'over floor':>11} {'CPU':>7} {'over floor':>11}")
    for label in builds:
        floor = _medians(times[label + "python -c pass (floor)"])
        for name in commands(args.python, log):
            wall, cpu = _medians(times[label + name])
            against = ""
            if args.baseline and not label:
                against = f"  {cpu / _medians(times['baseline ' + name])[1]:5.2f}x baseline CPU"
            print(
                f"{label + name:<39} {wall:6.3f}s {wall - floor[0]:+10.3f}s "
                f"{cpu:6.3f}s {cpu - floor[1]:+10.3f}s{against}"
            )


def _medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


if __name__ == "__main__":
    main()
