"""How ``truclog stats -j N`` shares the files out: this process counts files too,
beside ``N - 1`` workers, and the counts come back in file order whoever made them."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from truclog.stats.counts import combine
from truclog.stats.run import FileCounts, shared

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def counted_by(names: dict[str, str]) -> Callable[[str], FileCounts]:
    """A count that notes which thread counted each file (the pool's threads stand for
    worker processes)."""

    def count(path: str) -> FileCounts:
        time.sleep(0.02)
        names[path] = threading.current_thread().name
        return FileCounts(path, combine([]))

    return count


@pytest.mark.parametrize("files", [2, 3, 8])
def test_counts_come_in_file_order_and_this_process_counts_too(files: int) -> None:
    paths = [f"f{i}.jsonl" for i in range(files)]
    names: dict[str, str] = {}
    with ThreadPoolExecutor(1, thread_name_prefix="worker") as pool:
        results = [r.path for r in shared(paths, counted_by(names), pool, 1)]
    assert results == paths
    here = [p for p in paths if names[p] == threading.current_thread().name]
    there = [p for p in paths if names[p].startswith("worker")]
    assert sorted(here + there) == sorted(paths)
    assert here and there  # both counted: nobody waits while files are left


def test_two_files_on_two_processes_are_one_each() -> None:
    names: dict[str, str] = {}
    with ThreadPoolExecutor(1, thread_name_prefix="worker") as pool:
        list(shared(["a", "b"], counted_by(names), pool, 1))
    assert names["b"] == threading.current_thread().name
    assert names["a"].startswith("worker")


def test_a_slow_file_here_leaves_the_rest_to_the_worker() -> None:
    # while this process counts one big file, the worker counts the two files it was
    # given; then the worker is given two more, and this process takes the last
    paths = ["a", "b", "big", "c", "d", "e"]
    names: dict[str, str] = {}
    worker_done = threading.Event()
    note = counted_by(names)

    def count(path: str) -> FileCounts:
        if path == "big":  # done after the worker's two files (and their futures)
            assert worker_done.wait(10)
            time.sleep(0.2)
        counts = note(path)
        if path == "b":
            worker_done.set()
        return counts

    with ThreadPoolExecutor(1, thread_name_prefix="worker") as pool:
        list(shared(paths, count, pool, 1))
    here = threading.current_thread().name
    assert [names[p] == here for p in paths] == [False, False, True, False, False, True]


def test_a_failure_is_raised_and_the_files_not_started_are_dropped() -> None:
    started: list[str] = []

    def count(path: str) -> FileCounts:
        started.append(path)
        if path == "bad":
            raise ValueError("bad: unreadable")
        time.sleep(0.05)
        return FileCounts(path, combine([]))

    paths = ["a", "b", "bad", *(f"f{i}" for i in range(6))]
    with ThreadPoolExecutor(1) as pool, pytest.raises(ValueError, match="unreadable"):
        list(shared(paths, count, pool, 1))
    assert len(started) < len(paths)


def test_a_worker_starts_without_the_formats_models() -> None:
    # a worker imports what counting a file needs (the module of count_file); the
    # pydantic models of the format come only when a game goes line by line
    code = (
        "import sys, truclog.stats.run; "
        "print(sorted({'truclog.format.events', 'pydantic'} & set(sys.modules)))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"


def test_a_worker_takes_its_share_of_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    # polars reads its thread count when imported: a worker sets it before, from the
    # cores shared among the run's processes
    import polars as pl

    from truclog.stats.run import workers
    from truclog.stats.threads import cores_each

    monkeypatch.delenv("POLARS_MAX_THREADS", raising=False)
    with workers(2) as pool:
        assert pool.submit(pl.thread_pool_size).result() == cores_each(2)
    monkeypatch.setenv("POLARS_MAX_THREADS", "3")  # the user's own choice is kept
    with workers(2) as pool:
        assert pool.submit(pl.thread_pool_size).result() == 3


def test_this_process_keeps_its_environment() -> None:
    # polars is imported here already: nothing to set, and nothing is set
    import os

    from truclog.stats.threads import share_cores

    before = dict(os.environ)
    share_cores(2)
    assert dict(os.environ) == before


THREADS_AFTER = """
import sys
from truclog.cli import run
try:
    run(sys.argv[1:])
except SystemExit as done:
    assert not done.code, done.code
import polars
print(polars.thread_pool_size())
"""
"""Run the ``truclog`` command of ``sys.argv`` in this process, then print how many
threads its polars started."""


@pytest.mark.parametrize(("command", "given"), [("export", None), ("export", "2"), ("stats", None)])
def test_an_export_runs_polars_on_one_thread(
    command: str, given: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an export's batches are a few thousand rows: more threads only hold more memory
    import os

    monkeypatch.delenv("POLARS_MAX_THREADS", raising=False)
    if given is not None:  # the user's own choice is kept
        monkeypatch.setenv("POLARS_MAX_THREADS", given)
    log = SAMPLES / "2026-11-29-cafe-du-port-classic.truclog.jsonl"
    args = [command, str(log)] + (["--to", str(tmp_path / "out")] if command == "export" else [])
    done = subprocess.run(
        [sys.executable, "-c", THREADS_AFTER, *args], capture_output=True, text=True, check=True
    )
    wanted = given or ("1" if command == "export" else str(os.cpu_count()))
    assert done.stdout.split()[-1] == wanted
