"""How long ``truclog`` takes to start, against a bare ``python -c pass`` in the same run.

Runs each command ``--runs`` times (default 20), taking turns so that a busy
machine slows them alike, and prints the median wall time of each, and how much
it adds to the bare interpreter's start (the floor). The target: ``truclog
--version`` and ``truclog validate`` of a small log under 0.15 s.

    python benchmarks/startup_bench.py [--runs 20] [--python PATH]

``--python``: the interpreter of another environment, e.g. one where ``pip
install .`` built the compiled package (``.venv-compiled/bin/python``). The
commands run from a temporary directory, so that the installed package is the
one measured, not the sources of a checkout.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SMALL_LOG = Path(__file__).resolve().parent.parent / "sample_logs" / (
    "2026-11-29-cafe-du-port-classic.truclog.jsonl"
)


def commands(python: str, log: Path) -> dict[str, list[str]]:
    truclog = [python, "-m", "truclog"]
    return {
        "python -c pass (floor)": [python, "-c", "pass"],
        "import truclog.cli": [python, "-c", "import truclog.cli"],
        "truclog --version": [*truclog, "--version"],
        "truclog validate (small log)": [*truclog, "validate", str(log)],
    }


def timed(command: list[str], cwd: str) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cwd:
        log = Path(cwd) / "small.truclog.jsonl"
        log.write_bytes(SMALL_LOG.read_bytes())
        runs = commands(args.python, log)
        version = subprocess.run(
            runs["truclog --version"], cwd=cwd, check=True, capture_output=True, text=True
        )
        print(f"{version.stdout.strip()}, {args.runs} runs each, median wall time")
        times: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.runs):
            for name, command in runs.items():
                times[name].append(timed(command, cwd))
    floor = statistics.median(times["python -c pass (floor)"])
    for name, seconds in times.items():
        median = statistics.median(seconds)
        print(f"{name:<30} {median:6.3f} s  (+{median - floor:.3f} s over the floor)")


if __name__ == "__main__":
    main()
