"""One large log checked in parts: cut at game lines, its parts checked apart and their
reports joined give exactly what one process reading the whole file gives (copies,
rubbers, diagnostics in line order with their line numbers, the JSON document), for
``validate``, ``stats`` and ``export``, on ``-j 1``, ``-j 2`` and a Dask LocalCluster."""

from __future__ import annotations

import gzip
import itertools
import json
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import Executor
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

from truclog import build
from truclog.cli import main
from truclog.format import parts
from truclog.format.parts import PART_SIZE, Part, Source, numbered, pieces, split_log
from truclog.simulate.run import Simulation, simulate_to
from truclog.validate.report import (
    FileReport,
    joined,
    mark_duplicates,
    report_file,
    report_json,
)

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One file of simulated games, every sample log (a rubber among them) and every
    invalid sample (errors of every kind, lines outside any game, a rubber's game out
    of order), then the simulated games again (every one a copy), then binary data
    (where reading stops)."""
    folder = tmp_path_factory.mktemp("parts")
    simulate_to(Simulation(games=6, seed=5), folder / "sim.jsonl")
    simulate_to(Simulation(games=3, seed=7, players=("A", "B", "C", "D")), folder / "four.jsonl")
    simulated = (folder / "sim.jsonl").read_bytes()
    logs = sorted(SAMPLES.glob("*.jsonl")) + sorted((SAMPLES / "invalid").glob("*.jsonl"))
    binary = [log for log in logs if b"\0" in log.read_bytes()]
    out = [simulated]
    for log in [log for log in logs if log not in binary]:
        data = log.read_bytes()
        out.append(data if data.endswith(b"\n") else data + b"\n")
    out += [(folder / "four.jsonl").read_bytes(), simulated, *(b.read_bytes() for b in binary)]
    path = folder / "big.jsonl"
    path.write_bytes(b"".join(out))
    return path


def _game_starts(path: Path) -> list[int]:
    starts, at = [], 0
    for raw in path.read_bytes().splitlines(keepends=True):
        if parts.game_line(raw.strip()):
            starts.append(at)
        at += len(raw)
    return starts


def test_parts_start_at_game_lines_and_count_the_lines_before(
    big: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = big.read_bytes()
    starts = set(_game_starts(big))
    monkeypatch.setenv(PART_SIZE, "1000")
    found = split_log(str(big), 2)
    assert len(found) > 50 and all(isinstance(p, Part) for p in found)
    pieces = [p for p in found if isinstance(p, Part)]
    assert pieces[0].start == 0 and pieces[-1].stop == len(data)
    assert [p.start for p in pieces[1:]] == [p.stop for p in pieces[:-1]]
    assert all(p.start in starts for p in pieces[1:])
    assert [p.line for p in pieces] == [data[: p.start].count(b"\n") for p in pieces]
    assert [p.last for p in pieces] == [False] * (len(pieces) - 1) + [True]


def test_a_cut_falls_on_the_first_game_line_at_or_after_its_offset(
    big: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _game_starts(big)[5]
    after = next(s for s in _game_starts(big) if s > game)
    for offset, cut in ((game - 1, game), (game, game), (game + 1, after)):
        monkeypatch.setenv(PART_SIZE, str(offset))
        second = split_log(str(big), 2)[1]
        assert isinstance(second, Part) and second.start == cut


def test_no_part_starts_after_binary_data(
    big: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = big.read_bytes()
    middle = data.index(b'{"type":"game"', len(data) // 2)
    log = tmp_path / "binary.jsonl"
    log.write_bytes(data[:middle] + b"\0\n" + data[middle:])
    monkeypatch.setenv(PART_SIZE, "1000")
    found = [p for p in split_log(str(log), 2) if isinstance(p, Part)]
    assert len(found) > 10 and found[-1].start < middle and found[-1].stop == len(data) + 2


def test_parts_come_one_by_one_as_their_lines_are_counted(
    big: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PART_SIZE, "1000")
    plan = parts.cut([str(big)], 2)
    numbered_parts = numbered(plan)
    first = next(numbered_parts)
    assert isinstance(first, Part) and (first.start, first.line) == (0, 0)
    rest = [first, *numbered_parts]
    assert len(rest) == pieces(plan) > 10 and _bounds(rest) == _bounds(split_log(str(big), 2))
    data = big.read_bytes()
    early = tmp_path / "early.jsonl"
    early.write_bytes(b"\0\n" + data)  # binary data in the first part: read whole
    assert pieces(parts.cut([str(early)], 2)) > 10 and list(
        numbered(parts.cut([str(early)], 2))
    ) == [str(early)]


def test_uncounted_parts_count_the_lines_before_them_when_read(
    big: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PART_SIZE, "1000")
    data = big.read_bytes()
    found = [p for p in parts.uncounted(parts.cut([str(big)], 2)) if isinstance(p, Part)]
    assert _bounds(found[:1]) == [(0, found[1].start, 0, False)]
    assert len(found) > 10 and all(p.line is None for p in found[1:])
    assert [parts.first_line(p) for p in found] == [data[: p.start].count(b"\n") for p in found]
    assert _bounds(found) == _bounds(split_log(str(big), 2))
    middle = data.index(b'{"type":"game"', len(data) // 2)
    log = tmp_path / "binary.jsonl"
    log.write_bytes(data[:middle] + b"\0\n" + data[middle:])
    cut = parts.uncounted(parts.cut([str(log)], 2))
    after = [p for p in cut if isinstance(p, Part) and p.start > middle]
    for part in after:
        parts.first_line(part)
    assert after and all(p.size == 0 for p in after)
    with parts.open_source(after[0]) as stream:
        assert stream.read() == b""  # reading the whole log stops at the NUL byte before it


@pytest.mark.skipif(build.QUICK_CORE is None, reason="the quick core was not built")
def test_the_quick_core_counts_lines_as_python_does(big: Path) -> None:
    assert build.QUICK_CORE is not None
    data = big.read_bytes()
    for block in (
        b"",
        b"\0",
        b"a\n\nb\0\n",
        b"\n" * 1000,
        data,
        data[:12345] + b"\0" + data[12345:],
    ):
        found = build.QUICK_CORE.lines(bytearray(block))
        assert found == (block.count(b"\n"), b"\0" in block)


def test_parts_read_after_counting_get_less_so_that_all_finish_together() -> None:
    size, counting = 3_000_000_000, parts.COUNTING
    for count in (2, 3, 5):
        starts = [0, *parts.offsets(size, count, counting), size]
        work = [counting * a + b - a for a, b in itertools.pairwise(starts)]
        assert len(work) == count and max(work) - min(work) <= 2
        assert starts[1] > size / count
    assert parts.offsets(size, 4) == [size // 4 * k for k in (1, 2, 3)]
    assert parts.offsets(20 << 20, 8) == [10 << 20]  # parts of 8 MiB at least


def _bounds(sources: Sequence[Source]) -> list[tuple[int, int, int | None, bool]]:
    return [(p.start, p.stop, p.line, p.last) for p in sources if isinstance(p, Part)]


def test_compressed_standard_input_and_small_logs_stay_whole(big: Path, tmp_path: Path) -> None:
    packed = tmp_path / "big.jsonl.gz"
    packed.write_bytes(gzip.compress(big.read_bytes()))
    assert split_log(str(packed), 4) == [str(packed)]
    assert split_log("-", 4) == ["-"]
    assert split_log(str(big), 4) == [str(big)]  # far under the smallest part


def _whole(path: str, quick: bool) -> bytes:
    reports = list(mark_duplicates([report_file(path, quick=quick)]))
    return json.dumps(report_json(reports)).encode()


def _in_parts(path: str, quick: bool, counted: bool = True) -> bytes:
    plan = parts.cut([path], 2, parts.COUNTING)
    sources = list(parts.numbered(plan) if counted else parts.uncounted(plan))
    found = [report_file(source, quick=quick) for source in sources]
    reports: list[FileReport] = list(joined(sources, found))
    return json.dumps(report_json(reports)).encode()


@pytest.mark.parametrize("quick", [True, False], ids=["quick", "line-by-line"])
def test_reports_of_parts_join_into_the_whole_files_report(
    big: Path, monkeypatch: pytest.MonkeyPatch, quick: bool
) -> None:
    whole = _whole(str(big), quick)
    document = json.loads(whole)["files"][0]
    assert any(d["code"] == "W802" for d in document["diagnostics"])  # copies
    assert {"E222", "E223", "E224"} <= {d["code"] for d in document["diagnostics"]}
    rubber_cuts = 0
    for size in range(150, 9000, 373):
        monkeypatch.setenv(PART_SIZE, str(size))
        rubber_cuts += sum(
            b'"match"' in big.read_bytes()[p.start : p.start + 400]
            for p in split_log(str(big), 2)
            if isinstance(p, Part) and p.start
        )
        assert _in_parts(str(big), quick) == whole, size
        assert _in_parts(str(big), quick, counted=False) == whole, size
    assert rubber_cuts  # some cuts fell between two games of a rubber


def test_a_parts_report_comes_back_from_its_process_whole(big: Path) -> None:
    report = report_file(str(big))
    again = pickle.loads(pickle.dumps(report))
    assert again.to_json() == report.to_json() and report.games
    assert [g.rubber for g in again.games if g.rubber] and all(g.detail for g in again.games)
    kept = ("game_count", "hands", "unreadable", "left_out", "path")
    assert [getattr(again, k) for k in kept] == [getattr(report, k) for k in kept]


def _run(args: list[str], stdin: bytes | None = None) -> tuple[int, bytes]:
    result = CliRunner().invoke(main, args, input=stdin)
    return result.exit_code, result.stdout_bytes


@pytest.fixture
def small_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PART_SIZE, "1100")


@pytest.mark.usefixtures("small_parts")
def test_validate_gives_the_same_bytes_on_one_two_processes_and_a_cluster(big: Path) -> None:
    for fmt in ("text", "json"):
        one = _run(["validate", "-j", "1", "--format", fmt, "--no-color", str(big)])
        assert one[0] == 1 and b"W802" in one[1]
        assert _run(["validate", "-j", "2", "--format", fmt, "--no-color", str(big)]) == one
        assert _run(["validate", "-j", "3", "--format", fmt, "--no-color", str(big)]) == one
        twice = ["--format", fmt, "--no-color", str(big), "-", str(big)]
        one = _run(["validate", "-j", "1", *twice], big.read_bytes())
        assert one[0] == 1 and one[1].count(b"W802") > 2 * len(_game_starts(big)) // 3
        assert _run(["validate", "-j", "2", *twice], big.read_bytes()) == one
    json_one = _run(["validate", "--format", "json", str(big)])
    on_cluster = _run(["validate", "--scheduler", "local:2", "--format", "json", str(big)])
    assert on_cluster == json_one


def test_one_file_in_as_many_parts_as_processes_gives_the_same_bytes_without_a_pool(
    big: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A process forked for each part after the first (no process pool started)."""
    size = big.stat().st_size
    for fmt in ("text", "json"):
        one = _run(["validate", "-j", "1", "--format", fmt, "--no-color", str(big)])
        assert one[0] == 1 and b"W802" in one[1]
        for jobs in (2, 3):
            monkeypatch.setenv(PART_SIZE, str(size // jobs + 1))
            assert pieces(parts.cut([str(big)], jobs)) == jobs
            got = _run(["validate", "-j", str(jobs), "--format", fmt, "--no-color", str(big)])
            assert got == one
    script = tmp_path / "pool.py"
    script.write_text(
        "import sys\nfrom truclog.cli import run\ntry:\n    run(sys.argv[1:])\n"
        "except SystemExit:\n    pass\n"
        "print('concurrent.futures.process' in sys.modules, file=sys.stderr)\n"
    )
    for part_size, pool in ((size // 2 + 1, "False"), (1100, "True")):  # many parts: a pool
        env = {**os.environ, PART_SIZE: str(part_size)}
        done = subprocess.run(
            [sys.executable, str(script), "validate", "-j", "2", str(big)],
            capture_output=True,
            env=env,
            cwd=tmp_path,
            check=False,
            text=True,
        )
        assert done.stderr.splitlines()[-1] == pool, done.stderr


@pytest.mark.usefixtures("small_parts")
def test_stats_give_the_same_bytes_on_one_two_processes_and_a_cluster(big: Path) -> None:
    one = _run(["stats", "-j", "1", "--format", "json", str(big)])
    assert one[0] == 0 and json.loads(one[1])["players"]
    assert _run(["stats", "-j", "2", "--format", "json", str(big)]) == one
    assert _run(["stats", "--scheduler", "local:2", "--format", "json", str(big)]) == one


@pytest.mark.usefixtures("small_parts")
def test_export_on_a_cluster_writes_the_rows_of_one_process(big: Path, tmp_path: Path) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    common = ["--partition-by", "date", str(big)]
    assert _run(["export", "--to", str(here), *common])[0] == 0
    assert _run(["export", "--scheduler", "local:2", "--to", str(there), *common])[0] == 0
    keys = {"games": ["fingerprint"], "hands": ["fingerprint", "hand"]}
    keys["actions"] = ["fingerprint", "seq"]
    for table, key in keys.items():
        mine = pl.read_parquet(here / table, hive_partitioning=True).sort(key)
        theirs = pl.read_parquet(there / table, hive_partitioning=True).sort(key)
        assert mine.height and mine.columns == theirs.columns
        assert_frame_equal(mine, theirs)


def test_workers_are_forked_only_from_a_process_of_one_thread() -> None:
    """A fork copies the locks other threads hold, never their release: with another
    thread running, the workers start fresh instead of forked."""
    from truclog.cli.validate import _pool

    def method(pool: Executor) -> str:
        with pool:
            return str(pool._mp_context.get_start_method())  # type: ignore[attr-defined]

    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert method(_pool(1)) != "fork"
    finally:
        release.set()
        other.join()
    if threading.active_count() == 1:
        assert method(_pool(1)) == "fork"
