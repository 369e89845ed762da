"""Where the wall time of ``truclog validate -j N`` on one large log goes, process by process.

    python benchmarks/parts_bench.py --log bench_data/disk-150MB.truclog.jsonl -j 2

Runs ``truclog validate -j N LOG`` (and ``-j 1``) ``--repeat`` times, each as a process
of this interpreter (run it with the compiled install's ``python``, from outside a
work tree, as ``disk_bench.py`` does), with time stamps taken around its phases: the
start-up (the interpreter and the imports), the cut, the forking of a process for each
part after the first (or, with more parts than processes, the making of the pool and its
imports), each part checked (by which process, with its CPU time), the lines a worker
counts before its part, each report as the first process takes it in order, and the
end. Prints, as JSON, for the run of least wall time of each ``-j``: each stamp in
seconds from the process's start, and the CPU time of each part; and the load of the
machine. The CPU times and the stamps of one process are steadier than wall ratios on
a loaded machine: the first process's stamps are its critical path.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any

STAMPS = "PARTS_BENCH_STAMPS"
"""The environment variable naming the file the stamps of a run go to."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--log", required=True)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--run", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        run(args.log, args.jobs)
        return
    report: dict[str, Any] = {"load_before": [round(x, 2) for x in os.getloadavg()]}
    for jobs in (1, args.jobs):
        runs = [timed(args.log, jobs) for _ in range(args.repeat)]
        walls = [r["wall_s"] for r in runs]
        report[f"j{jobs}"] = {"walls_s": walls, "best": min(runs, key=lambda r: r["wall_s"])}
    report["load_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(report, indent=2))


def timed(log: str, jobs: int) -> dict[str, Any]:
    """One run of ``validate -j jobs`` in its own process: its wall and CPU time and its stamps."""
    with tempfile.TemporaryDirectory() as where:
        stamps = os.path.join(where, "stamps")
        command = [sys.executable, os.path.abspath(__file__), "--run", "--log", log]
        start = time.time()
        child = subprocess.Popen(
            [*command, "-j", str(jobs)],
            stdout=subprocess.DEVNULL,
            cwd=where,
            env={**os.environ, STAMPS: stamps},
        )
        _, _, usage = os.wait4(child.pid, 0)
        wall = time.time() - start
        with open(stamps) as lines:
            found = [json.loads(line) for line in lines]
    parent = found[0]["pid"]
    return {
        "wall_s": round(wall, 3),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
        "stamps": [
            {
                "at_s": round(s["at"] - start, 3),
                "process": "first" if s["pid"] == parent else f"worker {s['pid']}",
                **{k: v for k, v in s.items() if k not in ("at", "pid")},
            }
            for s in found
        ],
    }


_ORIGINAL: dict[str, Any] = {}
"""The functions of truclog that the stamped ones call (module functions: a worker
process is sent the check it runs by name)."""


def stamp(what: str, **more: object) -> None:
    """Write one stamp: when, in which process, what, and ``more``."""
    with open(os.environ[STAMPS], "a") as stamps:
        stamps.write(json.dumps({"at": time.time(), "pid": os.getpid(), "what": what, **more}))
        stamps.write("\n")


def run(log: str, jobs: int) -> None:
    """``truclog validate -j jobs log`` in this process, its phases stamped."""
    stamp("started")
    import truclog.cli.forks as forks
    import truclog.cli.validate as command
    from truclog.cli import main as truclog
    from truclog.format import parts

    stamp("imported")
    stamped = (
        (parts, "cut", _cut),
        (parts, "_count_before", _count),
        (command, "report_file", _check),
        (command, "_pool", _pool),
        (forks, "forked", _forked),
        (command, "_in_order", _in_order),
        (command, "_first_here", _first_here),
    )
    for module, name, function in stamped:
        _ORIGINAL[name] = getattr(module, name)
        setattr(module, name, function)
    with contextlib.suppress(SystemExit):
        truclog(["validate", "-j", str(jobs), log])
    stamp("end", cpu_s=round(time.process_time(), 3))


def _cut(*args: Any) -> Any:
    found = _ORIGINAL["cut"](*args)
    stamp("cut")
    return found


def _pool(workers: int) -> Any:
    made = _ORIGINAL["_pool"](workers)
    stamp("pool made")
    return made


@contextlib.contextmanager
def _forked(tasks: Any) -> Iterator[Any]:
    with _ORIGINAL["forked"](tasks) as children:
        stamp("processes forked")
        yield children


def _check(source: Any, *args: Any, **kwargs: Any) -> Any:
    at, cpu = getattr(source, "start", 0), time.process_time()
    stamp("check begins", part=at)
    report = _ORIGINAL["report_file"](source, *args, **kwargs)
    stamp("check ends", part=at, cpu_s=round(time.process_time() - cpu, 3))
    return report


def _count(part: Any) -> int:
    counting, cpu = part.line is None, time.process_time()
    lines: int = _ORIGINAL["_count_before"](part)
    if counting:
        stamp("lines counted", part=part.start, cpu_s=round(time.process_time() - cpu, 3))
    return lines


def _in_order(*args: Any) -> Iterator[Any]:
    for report in _ORIGINAL["_in_order"](*args):
        stamp("report taken")
        yield report


def _first_here(*args: Any) -> Iterator[Any]:
    for report in _ORIGINAL["_first_here"](*args):
        stamp("report taken")
        yield report


if __name__ == "__main__":
    main()
