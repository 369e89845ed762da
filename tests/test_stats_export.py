"""``truclog export`` never mixes two exports: a folder with tables is refused,
``--overwrite`` replaces them whole, ``--append`` adds only new games. Results
are read back with polars and with DuckDB."""

from __future__ import annotations

import fcntl
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from click.testing import CliRunner, Result
from polars.testing import assert_frame_equal
from test_stats_players import FOUR, GAME
from test_stats_splits import G2, G3

from truclog.cli import main
from truclog.errors import PathError
from truclog.simulate.run import Simulation, simulate_to
from truclog.stats import export as dataset
from truclog.stats.export import LOCK, TABLES, DatasetError, export
from truclog.stats.kept import GameFilter, Tally
from truclog.stats.run import kept_games
from truclog.stats.tables import gathered_batches, table_batches
from truclog.validate.quick import EXPORT_FACTS

SORT = {
    "games": ["fingerprint"],
    "hands": ["fingerprint", "hand"],
    "actions": ["fingerprint", "line"],
    "annotations": ["fingerprint", "hand", "step", "source"],
}


@pytest.fixture
def logs(tmp_path: Path) -> dict[str, str]:
    """Three logs: ``cafe`` (two games), ``zoe`` (two others) and ``again`` (a copy of
    one game of ``cafe`` and one new game)."""
    texts = {"cafe": GAME + FOUR, "zoe": G2 + G3, "again": GAME + G3.replace('"g3"', '"g5"')}
    paths = {}
    for name, text in texts.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text(text, encoding="utf-8")
        paths[name] = str(path)
    return paths


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["export", *args])


def read(root: Path, by_date: bool = False) -> dict[str, pl.DataFrame]:
    """The tables, with polars, in a stable row order."""
    return {
        name: pl.read_parquet(root / name / "**" / "*.parquet", hive_partitioning=by_date)
        .select(sorted(pl.read_parquet_schema(next((root / name).rglob("*.parquet")))))
        .sort(SORT[name])
        for name in TABLES
    }


def counted(root: Path, table: str) -> int:
    """Rows of a table, as DuckDB reads the folder."""
    found = duckdb.sql(f"select count(*) from read_parquet('{root / table}/**/*.parquet')")
    return int(found.fetchall()[0][0])


def same(one: Path, other: Path, by_date: bool = False) -> None:
    a, b = read(one, by_date), read(other, by_date)
    for name in TABLES:
        assert_frame_equal(a[name], b[name], check_column_order=False)
        assert counted(one, name) == counted(other, name) == a[name].height


def test_a_second_export_into_the_same_folder_is_refused(tmp_path: Path, logs: dict) -> None:
    out = tmp_path / "out"
    assert run("--to", str(out), logs["cafe"]).exit_code == 0
    before = {p: p.read_bytes() for p in out.rglob("*.parquet")}
    made = run("--to", str(out), logs["zoe"])
    assert made.exit_code == 1
    assert "already holds tables (games, hands, actions, annotations)" in made.output
    assert "--overwrite" in made.output and "--append" in made.output
    assert "Traceback" not in made.output
    assert {p: p.read_bytes() for p in out.rglob("*.parquet")} == before
    assert sorted(p.name for p in out.iterdir()) == ["actions", "annotations", "games", "hands"]


def test_overwrite_equals_a_fresh_export(tmp_path: Path, logs: dict) -> None:
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    assert run("--to", str(out), "--partition-by", "date", logs["cafe"]).exit_code == 0
    made = run("--to", str(out), "--overwrite", logs["zoe"])
    assert made.exit_code == 0, made.output
    assert run("--to", str(fresh), logs["zoe"]).exit_code == 0
    same(out, fresh)
    assert not list(out.rglob("date=*"))  # nothing of the first export is left
    assert counted(out, "games") == 2
    assert sorted(p.name for p in out.iterdir()) == ["actions", "annotations", "games", "hands"]


def test_append_equals_exporting_both_at_once(tmp_path: Path, logs: dict) -> None:
    out, both = tmp_path / "out", tmp_path / "both"
    assert run("--to", str(out), logs["cafe"]).exit_code == 0
    made = run("--to", str(out), "--append", logs["again"])
    assert made.exit_code == 0, made.output
    # ``again`` holds a copy of a game already exported: left out and said
    assert "added 1 games, 1 hands; 1 game(s) already in" in made.stderr
    assert run("--to", str(both), logs["cafe"], logs["again"]).exit_code == 0
    same(out, both)
    assert counted(out, "games") == 3
    assert len(list((out / "games").glob("part-*.parquet"))) == 2


def test_append_keeps_the_date_partitions(tmp_path: Path, logs: dict) -> None:
    out, both = tmp_path / "out", tmp_path / "both"
    assert run("--to", str(out), "--partition-by", "date", logs["cafe"]).exit_code == 0
    assert run("--to", str(out), "--append", logs["zoe"]).exit_code == 0
    args = ["--partition-by", "date", logs["cafe"], logs["zoe"]]
    assert run("--to", str(both), *args).exit_code == 0
    same(out, both, by_date=True)
    assert {p.name for p in (out / "hands").iterdir()} == {
        "date=2026-11-29",
        "date=2026-11-30",
        "date=2026-12-02",
    }
    unpartitioned = run("--to", str(out), "--append", "--partition-by", "date", logs["zoe"])
    assert unpartitioned.exit_code == 0  # the same layout: all already there
    assert "no games to write" in unpartitioned.stderr
    assert "2 game(s) already in" in unpartitioned.stderr


def test_append_to_another_layout_is_refused(tmp_path: Path, logs: dict) -> None:
    out = tmp_path / "out"
    assert run("--to", str(out), logs["cafe"]).exit_code == 0
    made = run("--to", str(out), "--append", "--partition-by", "date", logs["zoe"])
    assert made.exit_code == 1
    assert "holds tables without partitions: append the same way" in made.output


def test_append_into_an_empty_folder_is_an_export(tmp_path: Path, logs: dict) -> None:
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    assert run("--to", str(out), "--append", logs["zoe"]).exit_code == 0
    assert run("--to", str(fresh), logs["zoe"]).exit_code == 0
    same(out, fresh)


def test_the_message_lists_the_paths_written(tmp_path: Path, logs: dict) -> None:
    out = tmp_path / "out"
    made = run("--to", str(out), logs["cafe"])
    assert made.exit_code == 0
    assert made.stderr.strip() == (
        f"wrote 2 games, 7 hands: {out}/games/, {out}/hands/, {out}/actions/, {out}/annotations/"
    )


def test_no_games_writes_nothing(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    out = tmp_path / "out"
    made = run("--to", str(out), str(empty))
    assert made.exit_code == 0
    assert f"no games to write: {out} left as it was" in made.stderr
    assert not out.exists()


@pytest.mark.parametrize("to", ["", "  "])
def test_an_empty_folder_name_is_an_error(logs: dict, to: str) -> None:
    made = run("--to", to, logs["cafe"])
    assert made.exit_code == 2
    assert "--to" in made.output and "is empty" in made.output


def test_overwrite_and_append_together_is_an_error(tmp_path: Path, logs: dict) -> None:
    made = run("--to", str(tmp_path / "out"), "--overwrite", "--append", logs["cafe"])
    assert made.exit_code == 2
    assert "do not go together" in made.output


def test_a_failed_overwrite_leaves_the_old_tables(
    tmp_path: Path, logs: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    export([logs["cafe"]], out)
    before = read(out)
    real = dataset._stage_parts

    def full_disk(parts: list[tuple[pl.DataFrame, Path]]) -> None:
        real(parts[:1])  # the batch's first part written, then the disk is full
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(dataset, "_stage_parts", full_disk)
    with pytest.raises(OSError):
        export([logs["zoe"]], out, "overwrite")
    after = read(out)
    for name in TABLES:
        assert_frame_equal(after[name], before[name])
    assert sorted(p.name for p in out.iterdir()) == ["actions", "annotations", "games", "hands"]


def test_a_failed_write_is_a_clear_error(
    tmp_path: Path, logs: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(parts: list[tuple[pl.DataFrame, Path]]) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(dataset, "_stage_parts", full_disk)
    made = run("--to", str(tmp_path / "out"), logs["cafe"])
    assert made.exit_code == 1
    assert made.output.strip().endswith("No space left on device")
    assert "Traceback" not in made.output
    assert not (tmp_path / "out").exists()


def test_a_second_export_at_the_same_time_is_refused(tmp_path: Path, logs: dict) -> None:
    out = tmp_path / "out"
    out.mkdir()
    with open(out / LOCK, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(DatasetError, match="another export is writing there"):
            export([logs["cafe"]], out)
    assert not any((out / name).exists() for name in TABLES)


def test_what_a_killed_export_left_is_tidied(tmp_path: Path, logs: dict) -> None:
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    export([logs["cafe"]], out)
    export([logs["cafe"]], fresh)
    # killed while writing: a staged table; killed while swapping in an overwrite: the
    # old games table moved aside, the new one not yet in place
    (out / ".export-1" / "games").mkdir(parents=True)
    (out / ".export-1" / "games" / "part-00000.parquet").write_bytes(b"half")
    (out / ".replaced-1").mkdir()
    (out / "games").rename(out / ".replaced-1" / "games")
    made = run("--to", str(out), "--append", logs["cafe"])
    assert made.exit_code == 0, made.output
    assert "no games to write" in made.stderr and "2 game(s) already in" in made.stderr
    same(out, fresh)
    assert sorted(p.name for p in out.iterdir()) == ["actions", "annotations", "games", "hands"]


def test_a_cluster_export_is_into_a_new_folder(tmp_path: Path, logs: dict) -> None:
    made = run("--to", str(tmp_path / "out"), "--append", "--scheduler", "local:1", logs["cafe"])
    assert made.exit_code == 2
    assert "--scheduler exports into a new folder" in made.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("by_date", [False, True], ids=["flat", "by-date"])
def test_the_annotations_table_holds_the_log_notes_and_the_notes_file(
    tmp_path: Path, by_date: bool
) -> None:
    import json

    from truclog.record.annotations import annotate

    sample = Path(__file__).resolve().parent.parent / "sample_logs"
    rows = (sample / "2026-11-29-cafe-du-port-classic.truclog.jsonl").read_text().splitlines()
    raise_line = json.loads(rows[24])  # hand 3, step 6: Ana raises to 2 (it has a note)
    raise_line["marks"] = ["bluff?"]
    rows[24] = json.dumps(raise_line, ensure_ascii=False)
    log = tmp_path / "logs" / "cafe.truclog.jsonl"
    log.parent.mkdir()
    log.write_text("\n".join(rows) + "\n")
    game = "cafe-du-port-2026-11-29-1"
    annotate(log, game, 3, 6, note="too bold?", add=["review"], clock=None)
    out = tmp_path / "out"
    args = ["--partition-by", "date"] if by_date else []
    assert run("--to", str(out), *args, str(log.parent)).exit_code == 0
    table = pl.read_parquet(out / "annotations" / "**" / "*.parquet", hive_partitioning=by_date)
    at_raise = table.filter((pl.col("hand") == 3) & (pl.col("step") == 6)).sort("source")
    assert at_raise.select("game", "line", "source", "note", "marks").rows() == [
        (game, 25, "log", "bluff? Ana raises with the 7 on the table", ["bluff?"]),
        (game, 25, "notes", "too bold?", ["review"]),
    ]
    notes_in_log = sum('"note"' in row or '"marks"' in row for row in rows[1:])
    assert table.height == notes_in_log + 1
    marked = duckdb.sql(
        f"select hand, step from read_parquet('{out}/annotations/**/*.parquet') "
        "where list_contains(marks, 'review')"
    ).fetchall()
    assert marked == [(3, 6)]
    fingerprints = pl.read_parquet(out / "games" / "**" / "*.parquet")["fingerprint"].to_list()
    assert set(table["fingerprint"].to_list()) == set(fingerprints)


def test_an_append_to_tables_made_before_annotations_adds_that_table(
    tmp_path: Path, logs: dict
) -> None:
    out = tmp_path / "out"
    assert run("--to", str(out), logs["cafe"]).exit_code == 0
    for part in (out / "annotations").iterdir():
        part.unlink()
    (out / "annotations").rmdir()  # as an export of an older truclog left it
    assert run("--to", str(out), "--append", logs["zoe"]).exit_code == 0
    assert counted(out, "annotations") == 0
    assert counted(out, "games") == 4


def test_a_write_failing_behind_the_reading_stops_the_export_with_its_error(
    tmp_path: Path, logs: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Batches are written by a thread of their own while the next is read: an error
    of an early batch's write is the export's error, nothing is written after it and
    the thread is gone when the export returns."""
    monkeypatch.setattr(dataset, "BATCH_ROWS", 5)  # a batch per few actions: many
    calls: list[str] = []
    real = dataset._stage_parts

    def full_disk(parts: list[tuple[pl.DataFrame, Path]]) -> None:
        calls.append(threading.current_thread().name)
        if len(calls) == 2:  # the second batch's parts
            raise PathError(str(parts[0][1]), "cannot write: no space left on device")
        real(parts)

    monkeypatch.setattr(dataset, "_stage_parts", full_disk)
    before = threading.active_count()
    made = run("--to", str(tmp_path / "out"), logs["cafe"], logs["zoe"])
    assert made.exit_code == 1
    assert made.output.strip().splitlines()[-1].endswith("cannot write: no space left on device")
    assert "Traceback" not in made.output
    assert len(calls) == 2
    assert all(name.startswith("truclog-export") for name in calls)
    assert threading.active_count() == before
    assert not (tmp_path / "out").exists()


def test_games_read_ahead_come_in_order_with_the_bytes_read() -> None:
    """An export reads a file's games on a thread of its own, handed over one by one:
    they come in order, the bytes read are told on the export's thread, and the reading
    thread is gone at the end."""
    told: list[tuple[int, int, str]] = []
    readers: list[str] = []

    def read(progress: object) -> Iterator[int]:
        readers.append(threading.current_thread().name)
        for n in range(100):
            assert callable(progress)
            progress(10, 0)
            yield n

    before = threading.active_count()
    progress = lambda size, hands: told.append((size, hands, threading.current_thread().name))  # noqa: E731
    assert list(dataset._read_ahead(read, progress)) == list(range(100))
    assert readers == ["truclog-export-read"]
    assert sum(size for size, _, _ in told) == 1000
    assert {name for _, _, name in told} == {threading.current_thread().name}
    assert threading.active_count() == before


def test_an_error_of_the_reading_thread_is_raised_after_the_games_before_it() -> None:
    def read(progress: object) -> Iterator[int]:
        yield from range(11)
        raise PathError("log", "cannot read: input/output error")

    got: list[int] = []
    with pytest.raises(PathError, match="input/output error"):
        for n in dataset._read_ahead(read, None):
            got.append(n)
    assert got == list(range(11))


def test_leaving_the_games_read_ahead_early_stops_the_reading() -> None:
    """A batch's write fails, or the export is interrupted: the reading stops (its
    games closed, so the log is closed) and its thread is gone."""
    closed = threading.Event()

    def read(progress: object) -> Iterator[int]:
        try:
            yield from range(10**9)
        finally:
            closed.set()

    before = threading.active_count()
    games = dataset._read_ahead(read, None)
    assert [next(games) for _ in range(5)] == list(range(5))
    games.close()
    assert closed.is_set()
    assert threading.active_count() == before


def test_a_failed_write_stops_the_reading_thread_before_the_error_is_raised(
    tmp_path: Path, logs: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reading thread is gone when the export's error reaches its caller, even while
    the caller holds the error (and with it the export's frames, which hold the games
    not read yet)."""
    monkeypatch.setattr(dataset, "BATCH_ROWS", 5)  # batches handed over one at a time

    def full_disk(parts: list[tuple[pl.DataFrame, Path]]) -> None:
        raise PathError(str(parts[0][1]), "cannot write: no space left on device")

    monkeypatch.setattr(dataset, "_stage_parts", full_disk)
    log = tmp_path / "many.truclog.jsonl"
    simulate_to(Simulation(games=80, seed=3), log)
    before = threading.active_count()
    with pytest.raises(PathError) as failed:
        export([str(log)], tmp_path / "out")
    assert failed.value is not None  # the error and its frames still held here
    assert threading.active_count() == before


def test_an_export_tells_its_progress_on_its_own_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The games are read and gathered into batches on a thread of their own; the bytes
    read and the hands gathered are told on the export's thread, all of them."""
    monkeypatch.setattr(dataset, "BATCH_ROWS", 300)
    log = tmp_path / "many.truclog.jsonl"
    simulate_to(Simulation(games=40, seed=5), log)
    told: list[tuple[int, int, str]] = []
    progress = lambda size, hands: told.append((size, hands, threading.current_thread().name))  # noqa: E731
    done = export([str(log)], tmp_path / "out", progress=progress)
    assert done.files["actions"] > 3  # in batches
    assert sum(size for size, _, _ in told) == log.stat().st_size
    assert sum(hands for _, hands, _ in told) == done.tally.hands > 0
    assert {name for _, _, name in told} == {threading.current_thread().name}


def test_batches_gathered_apart_make_the_tables_made_in_place(tmp_path: Path) -> None:
    """An export's batches detached from their builder (to be made into tables on
    another thread) make the tables a builder flushed in place makes, whenever they are
    flushed: here all of them after the last is gathered, long games cut between them."""
    log = tmp_path / "many.truclog.jsonl"
    simulate_to(Simulation(games=12, seed=8), log)

    def games() -> Iterator[Any]:
        return kept_games(str(log), GameFilter(), Tally(), set(), facts=EXPORT_FACTS)

    held = list(gathered_batches(games(), Tally(), 200))
    assert len(held) > 3
    apart = [batch.flush() for batch in held]
    in_place = list(table_batches(games(), Tally(), 200, seats=False))
    assert len(apart) == len(in_place)
    for one, other in zip(apart, in_place, strict=True):
        for (name, frame), (also, same) in zip(one.items(), other.items(), strict=True):
            assert name == also
            assert_frame_equal(frame, same, check_exact=True)


def test_items_read_with_none_ahead_wait_to_be_taken() -> None:
    """The reading thread hands an item over (an export's batch) and reads on only once
    it is taken: never more than the next item read ahead."""
    made: list[int] = []

    def read(progress: object) -> Iterator[int]:
        for n in range(10):
            made.append(n)
            yield n

    items = dataset._read_ahead(read, None)
    assert next(items) == 0
    time.sleep(0.2)  # time for the reading thread to run ahead, were it let
    assert len(made) <= 2
    assert list(items) == list(range(1, 10))


def numbers(folder: Path) -> list[int]:
    """The numbers of a table's part files, in order (date folders and all)."""
    return sorted({int(part.name[5:10]) for part in folder.rglob("part-*.parquet")})


@pytest.mark.parametrize("by_date", [False, True], ids=["flat", "by-date"])
def test_small_tables_are_gathered_and_an_empty_one_has_one_part(
    by_date: bool, tmp_path: Path, logs: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch's games and hands are written with those of the batches after it, a
    table with no row in a batch gets no part file of it (but one empty part file when
    it has no row at all): the tables read back as written a batch a file, and an
    append numbers its parts after every table's."""
    log = tmp_path / "sim.truclog.jsonl"
    simulate_to(Simulation(games=6, seed=4, timestamps=True), log)
    layout = ["--partition-by", "date"] if by_date else []
    whole = tmp_path / "whole"
    assert run("--to", str(whole), *layout, str(log), logs["zoe"]).exit_code == 0
    monkeypatch.setattr(dataset, "BATCH_ROWS", 20)
    monkeypatch.setattr(dataset, "GATHERED_ROWS", 10)  # a few batches' hands a part
    out = tmp_path / "out"
    assert run("--to", str(out), *layout, str(log)).exit_code == 0
    actions, hands = numbers(out / "actions"), numbers(out / "hands")
    assert len(actions) > 10
    assert 1 < len(hands) < len(actions) // 2 and set(hands) <= set(actions)
    assert len(numbers(out / "games")) > 1 and set(numbers(out / "games")) <= set(hands)
    empty = list((out / "annotations").rglob("*.parquet"))
    assert len(empty) == 1 and pl.read_parquet(empty[0]).is_empty()
    if by_date:
        assert empty[0].parent.name == "date=__HIVE_DEFAULT_PARTITION__"
    made = run("--to", str(out), "--append", logs["zoe"])
    assert made.exit_code == 0, made.output
    assert f"{out}/annotations/" not in made.stderr  # nothing added there
    assert len(list((out / "annotations").rglob("*.parquet"))) == 1
    assert min(numbers(out / "hands")[len(hands) :]) == max(actions) + 1
    same(out, whole, by_date)
