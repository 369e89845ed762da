"""An export writes the same tables whether its rows come from the quick core or from
the engine's replay.

``truclog export`` builds the rows of a game the quick core clears from the facts
the core gives of it (``truclog.validate._quick.scan(..., facts=4)``), and of every
other game (an error in it, a note or marks on its lines, a log with a notes file)
from the engine's replay of the validator's hands. The replay is the reference: each
test exports the same logs both ways (the quick core switched off for the second) and
reads the Parquet tables back with polars and DuckDB, which must find them equal.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from simulated import mixed_log

from truclog.engine.rules import PRESETS
from truclog.format import parts
from truclog.format.parts import PART_SIZE
from truclog.simulate.run import Simulation, simulate_to
from truclog.stats import export as export_module
from truclog.stats.export import TABLES, export
from truclog.stats.kept import GameFilter, Tally
from truclog.stats.run import kept_games
from truclog.stats.tables import Tables, table_batches
from truclog.validate import GameTally, quick
from truclog.validate.quick import EXPORT_FACTS

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
FOUR = ("A", "B", "C", "D")

pytestmark = pytest.mark.skipif(not quick.facts_available(), reason="the C core is not built")


def cleared(path: Path) -> int:
    """How many games of ``path`` the quick core clears with an export's rows."""
    games = kept_games(str(path), GameFilter(), Tally(), set(), None, None, EXPORT_FACTS)
    return sum(isinstance(game, GameTally) for game in games)


def read_back(root: Path, name: str) -> tuple[pl.DataFrame, list[tuple[object, ...]]]:
    """A table as polars reads it, and its rows as DuckDB reads them (in a set order)."""
    frame = pl.read_parquet(root / name, hive_partitioning=True)
    files = f"{root}/{name}/**/*.parquet"
    rows = duckdb.sql(f"select * from read_parquet('{files}', hive_partitioning=true)")
    assert rows is not None
    return frame, sorted(rows.fetchall(), key=repr)


def export_both(
    paths: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **options: object
) -> tuple[Path, Path]:
    """The tables of ``paths`` exported from the quick core's facts, and from the replay."""
    sources = [str(path) for path in paths]
    fast = export(sources, tmp_path / "fast", **options)  # type: ignore[arg-type]
    with monkeypatch.context() as patched:
        patched.setattr(quick, "facts_available", lambda: False)
        slow = export(sources, tmp_path / "replayed", **options)  # type: ignore[arg-type]
    assert fast.tally == slow.tally
    return fast.root, slow.root


def assert_same_tables(fast: Path, slow: Path) -> dict[str, pl.DataFrame]:
    tables = {}
    for name in TABLES:
        (frame, rows), (expected, expected_rows) = read_back(fast, name), read_back(slow, name)
        assert_frame_equal(frame, expected)
        assert rows == expected_rows
        tables[name] = expected
    return tables


def without_notes(source: Path, target: Path) -> Path:
    """A copy of a log without its lines' notes and marks (which the replay writes)."""
    lines = [json.loads(line) for line in source.read_text().splitlines() if line.strip()]
    for line in lines:
        line.pop("note", None)
        line.pop("marks", None)
    target.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return target


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.jsonl")), ids=lambda p: p.name[11:30])
def test_a_sample_exports_the_same_from_facts(
    path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = without_notes(path, tmp_path / path.name)
    assert cleared(plain) > 0
    tables = assert_same_tables(*export_both([plain], tmp_path, monkeypatch))
    assert tables["actions"].height > 0
    assert tables["actions"].get_column("t").is_not_null().any()


def test_a_game_of_a_deal_and_no_action_exports_as_replayed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "dealt.truclog.jsonl"
    lines = [
        {"type": "game", "format": "truclog/1", "id": "g1", "rules": "classic",
         "players": ["Ana", "Marc"], "dealer": "Marc"},
        {"type": "deal", "hand": 1, "dealer": "Marc", "cards": {"Ana": ["7h", "Q", "9s"]}},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert cleared(path) == 1  # no line of the batch has a reviewed action
    tables = assert_same_tables(*export_both([path], tmp_path, monkeypatch))
    assert tables["actions"].get_column("type").to_list() == ["deal"]
    assert tables["actions"].get_column("grade").is_null().all()


def simulated(tmp_path: Path, preset: str | dict[str, object], players: tuple[str, ...]) -> Path:
    """Games of ``preset`` as the simulator writes them: plain, hidden deals, teams, with
    timestamps, notes and marks (those games are replayed)."""
    return mixed_log(tmp_path, preset, players, games=(3, 3, 2, 2))


@pytest.mark.parametrize("players", [("Ana", "Marc"), FOUR], ids=["two", "four"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_simulated_games_export_the_same_from_facts(
    preset: str, players: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = simulated(tmp_path, preset, players)
    assert cleared(path) >= 6
    tables = assert_same_tables(*export_both([path], tmp_path, monkeypatch))
    actions = tables["actions"]
    kinds = set(actions.get_column("type"))
    assert {"deal", "play", "raise", "fold"} <= kinds
    if len(players) == 2:  # reviews, best decisions and grades, worked out in C
        assert actions.get_column("grade").is_not_null().any()
        assert actions.filter(pl.col("type") == "play").get_column("best").is_not_null().any()
        answers = actions.filter(pl.col("type").is_in(["accept", "fold"]))
        assert answers.get_column("best").is_not_null().any()
    assert tables["annotations"].height > 0  # the annotated games, replayed


def test_bad_games_and_hands_export_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # legal games around games with errors: those go line by line, their bad hands out
    legal = simulated(tmp_path, "classic", ("Ana", "Marc")).read_bytes()
    bad = b"".join(p.read_bytes() for p in sorted((SAMPLES / "invalid").glob("E2*.jsonl")))
    mixed = tmp_path / "mixed.truclog.jsonl"
    mixed.write_bytes(legal + bad + legal.replace(b'"id":"', b'"id":"again-'))
    assert cleared(mixed) > 0
    fast, slow = export_both([mixed], tmp_path, monkeypatch, partition_by_date=True)
    tables = assert_same_tables(fast, slow)
    assert tables["games"].get_column("hands_left_out").sum() > 0


@pytest.mark.parametrize("timestamps", [False, True], ids=["untimed", "timed"])
def test_a_long_game_is_written_a_few_hands_at_a_time(
    timestamps: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "long.truclog.jsonl"
    rules = {"preset": "classic", "reste": False, "max_value": 4, "target": 60}  # ~90 hands
    simulate_to(Simulation(games=1, seed=3, rules=rules, timestamps=timestamps), path)
    monkeypatch.setattr(export_module, "BATCH_ROWS", 40)
    fast, slow = export_both([path], tmp_path, monkeypatch)
    tables = assert_same_tables(fast, slow)
    assert tables["actions"].height > 400
    assert tables["actions"].get_column("t").is_not_null().all() == timestamps
    parts = len(list((fast / "actions").glob("*.parquet")))
    assert parts >= tables["actions"].height // 80  # one part file a batch of 40 rows or so


def test_an_export_on_two_processes_reads_back_as_on_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a file cut in parts (copies of games across them, bad games, a notes file's log
    # beside it) and a copy of the file: every game once, in the order of one process
    monkeypatch.setenv(PART_SIZE, "20000")
    legal = simulated(tmp_path, "sackson", ("Ana", "Marc")).read_bytes()
    bad = b"".join(p.read_bytes() for p in sorted((SAMPLES / "invalid").glob("E2*.jsonl")))
    log = tmp_path / "big.truclog.jsonl"
    log.write_bytes(legal + bad + legal)
    copy = tmp_path / "copy.truclog.jsonl"
    copy.write_bytes(log.read_bytes())
    sources = [str(log), str(SAMPLES / "2026-11-29-cafe-du-port-classic.truclog.jsonl"), str(copy)]
    assert len(parts.sources(sources, 4)) > 4
    one = export(sources, tmp_path / "one", partition_by_date=True)
    two = export(sources, tmp_path / "two", partition_by_date=True, jobs=2)
    assert one.tally == two.tally and one.tally.duplicates > 0
    tables = assert_same_tables(two.root, one.root)
    assert tables["games"].height == one.tally.games


def export_facts(path: Path) -> list[GameTally]:
    """The games of ``path`` the quick core clears, with an export's rows."""
    games = kept_games(str(path), GameFilter(), Tally(), set(), None, None, EXPORT_FACTS)
    return [game for game in games if isinstance(game, GameTally)]


def taken(*games: tuple[object, int, int]) -> list[pl.DataFrame]:
    """A batch's rows once it took the hands ``start`` to ``stop`` of each game's facts
    (as game ``g``, its order in ``games``): hands, actions, hands' and actions' more, lines."""
    assert quick._quick is not None
    batch = quick._quick.Facts()
    for g, (facts, start, stop) in enumerate(games):
        batch.take_hands(facts, g, start, stop)
    return [pl.DataFrame(table) for table in (*batch.flush(), *batch.flush_more())]


def test_a_game_taken_a_few_hands_at_a_time_is_the_game_taken_whole(tmp_path: Path) -> None:
    path = tmp_path / "timed.truclog.jsonl"
    simulate_to(Simulation(games=2, seed=5, hidden=0.3, timestamps=True), path)
    first, second = (game.facts.rows for game in export_facts(path)[:2])  # type: ignore[union-attr]
    count = int(first.hands)
    assert count > 3
    whole = taken((first, 0, count), (second, 0, int(second.hands)))
    cut = [(first, 0, 1), (first, 1, count - 2), (first, count - 2, count)]
    pieces = taken(*cut, (second, 0, int(second.hands)))
    hands, actions, hands_more, actions_more, lines = pieces
    for piece, one in zip(pieces, whole, strict=True):
        assert_frame_equal(piece.drop("g", strict=False), one.drop("g", strict=False))
    assert hands.height == hands_more.height and actions.height == actions_more.height
    assert lines.get_column("t").is_not_null().all()
    # each line's hand and action are rows of the batch: an action's hand is its line's
    reviewed = lines.drop_nulls("at_review")
    assert reviewed.height > 0 and lines.get_column("row").max() < hands.height  # type: ignore[operator]
    hand_of = actions.get_column("row").gather(reviewed.get_column("at_review"))
    assert (hand_of == reviewed.get_column("row")).all()


def test_a_batch_takes_only_hands_a_game_has_of_an_export(tmp_path: Path) -> None:
    path = tmp_path / "plain.truclog.jsonl"
    simulate_to(Simulation(games=1, seed=2), path)
    (game,) = export_facts(path)
    assert game.facts is not None and game.facts.wide
    rows, count = game.facts.rows, game.facts.hand_count
    assert quick._quick is not None
    batch = quick._quick.Facts()
    for start, stop in ((0, count + 1), (-1, 1), (2, 1)):
        with pytest.raises(IndexError):
            batch.take_hands(rows, 0, start, stop)
    with pytest.raises(ValueError, match="its own rows"):
        batch.take_hands(batch, 0, 0, 0)
    statistics = next(iter(kept_games(str(path), GameFilter(), Tally(), set(), None, None, 3)))
    assert isinstance(statistics, GameTally) and statistics.facts is not None
    with pytest.raises(IndexError, match="not an export's"):
        batch.take_hands(statistics.facts.rows, 0, 0, 1)  # the facts of statistics only
    assert (batch.hands, batch.actions, batch.lines) == (0, 0, 0)


@pytest.mark.parametrize("players", [("Ana", "Marc"), FOUR], ids=["two", "four"])
def test_an_exports_batches_are_the_tables_but_the_seats(
    players: tuple[str, ...], tmp_path: Path
) -> None:
    path = simulated(tmp_path, "classic", players)

    def batches(seats: bool) -> list[Tables]:
        games = kept_games(str(path), GameFilter(), Tally(), set(), None, None, EXPORT_FACTS)
        return list(table_batches(games, Tally(), 100, seats=seats))

    counted, exported = batches(True), batches(False)
    assert len(counted) == len(exported) > 2
    for full, written in zip(counted, exported, strict=True):
        for name, frame in full.items():
            assert_frame_equal(getattr(written, name), frame)
        assert full.seats.height > 0 and written.seats.is_empty()


def test_games_scanned_on_threads_at_once_give_the_tables_of_one(tmp_path: Path) -> None:
    """The quick core checks a game's lines without the GIL, its solver's memory under a
    lock of its own: games read on four threads at once make the same tables as read on
    one (the memory's answers are never mixed)."""
    path = tmp_path / "many.truclog.jsonl"
    simulate_to(Simulation(games=12, seed=11, hidden=0.2), path)

    def batches() -> list[Tables]:
        games = kept_games(str(path), GameFilter(), Tally(), set(), None, None, EXPORT_FACTS)
        return list(table_batches(games, Tally(), 200, seats=False))

    alone = batches()
    assert len(alone) > 2
    found: list[list[Tables]] = []
    threads = [threading.Thread(target=lambda: found.append(batches())) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 4
    for tables in found:
        assert len(tables) == len(alone)
        for batch, one in zip(tables, alone, strict=True):
            for name, frame in one.items():
                assert_frame_equal(getattr(batch, name), frame)


def long_games(tmp_path: Path, players: tuple[str, ...]) -> Path:
    """A rubber of two games of about 60 hands each, timed, some deals hidden."""
    path = tmp_path / "long.truclog.jsonl"
    rules = {"preset": "classic", "target": 40, "max_value": 4, "reste": False}
    sim = Simulation(
        games=1, seed=11, rules=rules, players=players, hidden=0.3, timestamps=True, match=True
    )
    simulate_to(sim, path)
    return path


def parts_of(root: Path) -> dict[str, bytes]:
    """Every part file of a dataset, by its path in it."""
    return {str(part.relative_to(root)): part.read_bytes() for part in root.rglob("*.parquet")}


@pytest.mark.parametrize("players", [("Ana", "Marc"), FOUR], ids=["two", "four"])
def test_a_long_game_told_a_block_of_hands_at_a_time_exports_as_told_whole(
    players: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = long_games(tmp_path, players)
    monkeypatch.setattr(quick, "BLOCK", 2048)  # every game longer than a block read
    monkeypatch.setattr(export_module, "BATCH_ROWS", 37)  # batches cut inside the blocks
    whole = export([str(path)], tmp_path / "whole", partition_by_date=True)
    games = export_facts(path)
    assert len(games) == 2 and all(g.facts is not None and g.facts.blocks is None for g in games)
    monkeypatch.setattr(quick, "BLOCK_HANDS", 5)
    games = export_facts(path)
    assert all(g.facts is not None and g.facts.blocks is not None for g in games)
    assert [g.facts.hand_count for g in games if g.facts] == [g.hands for g in games]
    assert min(g.hands for g in games) > 20
    cut = export([str(path)], tmp_path / "cut", partition_by_date=True)
    assert cut.tally == whole.tally and cut.files == whole.files
    assert parts_of(cut.root) == parts_of(whole.root)  # the same files, byte for byte
    tables = assert_same_tables(*export_both([path], tmp_path, monkeypatch))
    assert tables["games"].get_column("match").is_not_null().all()
    assert tables["actions"].get_column("t").is_not_null().all()


def test_a_games_blocks_hold_its_hands_once_each_whole_or_cut(tmp_path: Path) -> None:
    path = long_games(tmp_path, ("Ana", "Marc"))
    game = export_facts(path)[0]
    assert game.facts is not None and game.header is not None and quick._quick is not None
    start = quick.start_of(game.header)
    assert start is not None
    data = path.read_bytes()
    first = data.index(b"\n") + 1  # the first game's lines, from line 2 to the next game
    end = data.index(b'{"type":"game"', first)
    whole = quick._quick.hand_blocks(data, first, 2, end, start[1], 10**6)
    cut = quick._quick.hand_blocks(data, first, 2, end, start[1], 4)
    assert whole.hands == cut.hands == game.hands
    assert whole.first_day == cut.first_day == game.facts.first_day is not None
    blocks = list(cut)
    assert [int(block.hands) for block in blocks[:-1]] == [4] * (len(blocks) - 1)
    assert [int(block.hands) for block in cut] == [int(block.hands) for block in blocks]
    assert [int(block.hands) for block in whole] == [game.hands]

    def rows(told: list[object]) -> list[pl.DataFrame]:
        """The rows of the blocks ``told``, taken one after the other as one game's."""
        assert quick._quick is not None
        batch = quick._quick.Facts()
        for block in told:
            batch.take_hands(block, 0, 0, block.hands)  # type: ignore[attr-defined]
        return [pl.DataFrame(table) for table in (*batch.flush(), *batch.flush_more())]

    for cut_rows, whole_rows in zip(rows(blocks), rows(list(whole)), strict=True):
        assert_frame_equal(cut_rows, whole_rows)
    assert cut_rows.height > 100  # the lines


def test_a_game_is_told_in_blocks_only_from_its_own_bytes(tmp_path: Path) -> None:
    path = long_games(tmp_path, ("Ana", "Marc"))
    game = export_facts(path)[0]
    assert game.header is not None and quick._quick is not None
    start = quick.start_of(game.header)
    assert start is not None
    data = path.read_bytes()
    for pos, end, blocks in ((-1, 10, 4), (10, 5, 4), (0, len(data) + 1, 4), (0, 10, 0)):
        with pytest.raises(ValueError, match="within the data"):
            quick._quick.hand_blocks(data, pos, 1, end, start[1], blocks)
    # the game line itself is not one of its lines: the core cannot tell the game
    assert quick._quick.hand_blocks(data, 0, 1, len(data), start[1], 4) is None


def test_rows_of_python_values_make_the_frame_polars_makes_of_them() -> None:
    """``_quick.wide_rows`` (an export's ``games``) makes of tuples the columns polars
    makes: text (a long one repeated kept once), numbers, flags, dates and lists, with
    their nulls; a row of another width or a value of another kind is refused."""
    from datetime import date

    from truclog.build import QUICK_CORE

    assert QUICK_CORE is not None
    schema = {
        "name": pl.Utf8,
        "n": pl.Int64,
        "ok": pl.Boolean,
        "day": pl.Date,
        "who": pl.List(pl.Utf8),
        "score": pl.List(pl.Int64),
    }
    long = "a fingerprint of more than twelve bytes, é"
    rows = [
        (long, 3, True, date(2026, 12, 7), ("Ana", "Marc"), (12, 7)),
        (long, None, False, None, [], None),
        (None, -(2**40), None, date(1969, 12, 31), ["x" * 20, "Bo"], [0]),
        ("Ana", 0, True, date(1970, 1, 1), None, [1, 2, 3, 4]),
    ]
    made = pl.DataFrame(QUICK_CORE.wide_rows(rows, tuple(schema), "tibdTI"))
    assert_frame_equal(made, pl.DataFrame([list(row) for row in rows], schema=schema, orient="row"))
    with pytest.raises(ValueError, match="a tuple of 6"):
        QUICK_CORE.wide_rows([rows[0][:5]], tuple(schema), "tibdTI")
    with pytest.raises(TypeError):
        QUICK_CORE.wide_rows([(1, 3, True, None, None, None)], tuple(schema), "tibdTI")
    with pytest.raises(ValueError, match="not a kind"):
        QUICK_CORE.wide_rows([], ("x",), "z")
