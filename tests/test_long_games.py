"""A game of any length is read, replayed, reviewed and counted in the memory of a hand.

A game checked line by line (one with a problem, or past the quick core's size) holds
at most ``HANDS_HELD`` hands; the hands of a longer one are checked again from its log
as they are read, one at a time. The tests lower that limit (and the statistics'
batch sizes) so that a game of a few dozen hands is such a long game, and hold every
result to that of the same game read whole.
"""

from __future__ import annotations

import gc
import io
import json
import pickle
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

import truclog
import truclog.stats.run
import truclog.stats.tables
import truclog.validate.games
from truclog.cli import main
from truclog.errors import TruclogError
from truclog.replay import Game, read_games
from truclog.simulate.run import Simulation, simulate_to
from truclog.stats import export as export_module
from truclog.stats.tables import TableBuilder, Tables
from truclog.validate import quick
from truclog.validate.checker import CheckedHand
from truclog.validate.games import HandsOnFile

FOUR = ("Ana", "Bea", "Cid", "Dan")
BAD_LINE = b'{"type":"note","text":"not a truclog line"}\n'


def long_game(folder: Path, players: tuple[str, ...] = ("Ana", "Marc"), bad: bool = True) -> Path:
    """One game of about 60 hands (with one line that is not truclog in its middle:
    checked line by line)."""
    path = folder / f"long-{len(players)}.truclog.jsonl"
    rules = {"preset": "classic", "reste": False, "max_value": 4, "target": 40}
    simulate_to(Simulation(seed=3, rules=rules, players=players, timestamps=True), path)
    if bad:
        lines = path.read_bytes().splitlines(keepends=True)
        lines.insert(len(lines) // 2, BAD_LINE)
        path.write_bytes(b"".join(lines))
    return path


@pytest.fixture
def few_held(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game of more than 5 hands is a long game."""
    monkeypatch.setattr(truclog.validate.games, "HANDS_HELD", 5)


def whole(path: Path) -> Game:
    return next(read_games(path))


def told(game: Game) -> list[tuple[object, ...]]:
    """What a game's hands say: number, lines, start score, outcome, replayed score."""
    return [
        (
            hand.number,
            [step.line for step in hand.steps],
            hand.start.score,
            hand.ok,
            hand.winner,
            hand.points,
            hand.ending,
            hand.final.score,
            [(d.step.line, d.player, d.kind, d.lost, d.grade) for d in hand.review()],
        )
        for hand in game.hands
    ]


def test_a_long_game_gives_the_hands_of_the_game_read_whole(tmp_path: Path) -> None:
    path = long_game(tmp_path)
    held = whole(path)
    assert isinstance(held.hands, list) and len(held.hands) > 40
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(truclog.validate.games, "HANDS_HELD", 5)
        game = whole(path)
    assert not isinstance(game.hands, list)
    assert len(game.hands) == len(held.hands)
    assert told(game) == told(held)
    assert game.score == held.score and game.diagnostics == held.diagnostics
    assert game.fingerprint == held.fingerprint
    # indexing, backwards too, and slices
    for at in (0, 7, 3, -1, -len(held.hands)):
        assert game.hands[at].number == held.hands[at].number
        assert game.hands[at].steps[-1].line == held.hands[at].steps[-1].line
    assert [h.number for h in game.hands[10:14]] == [h.number for h in held.hands[10:14]]
    with pytest.raises(IndexError):
        game.hands[len(held.hands)]


def live_hands() -> int:
    gc.collect()
    return sum(isinstance(o, CheckedHand) for o in gc.get_objects())


def test_a_long_game_holds_a_few_hands_at_a_time(tmp_path: Path, few_held: None) -> None:
    path = long_game(tmp_path)
    games = read_games(path)
    game = next(games)
    before = live_hands()
    counts = []
    for hand in game.hands:
        for _ in hand.replay():
            pass
        del hand
        counts.append(live_hands())
    assert len(counts) > 40
    assert max(counts) - before <= 3


def test_a_long_game_whose_log_changed_is_a_clear_error(tmp_path: Path, few_held: None) -> None:
    path = long_game(tmp_path)
    game = whole(path)
    text = path.read_bytes()
    path.write_bytes(text.replace(b'"card":"7', b'"card":"6', 1))
    with pytest.raises(TruclogError, match="changed"):
        for _ in game.hands:
            pass
    path.write_bytes(b"\n" + text)
    with pytest.raises(TruclogError, match="no longer a game line"):
        game.hands[0]


def stats(path: Path, *args: str) -> dict[str, object]:
    result = CliRunner().invoke(main, ["stats", "--format", "json", *args, str(path)])
    assert result.exit_code == 0, result.output
    found: dict[str, object] = json.loads(result.stdout)
    return found


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch, few_held: None) -> None:
    """Batches of statistics of a few hands: a long game's rows go in several."""
    monkeypatch.setattr(truclog.stats.run, "COUNT_BATCH", 30)
    monkeypatch.setattr(truclog.stats.tables, "_PART_HANDS", 2)


SPLITS = [[], ["--by", "position"], ["--by", "opponent"], ["--by", "month", "--by", "session"]]
"""The ways of splitting a row whose games are counted (a four-player run has the
teams' rows too)."""


@pytest.mark.parametrize("bad", [True, False], ids=["line-by-line", "quick-core"])
@pytest.mark.parametrize("players", [("Ana", "Marc"), FOUR], ids=["two", "four"])
def test_statistics_of_a_game_in_several_batches(
    tmp_path: Path, players: tuple[str, ...], bad: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = long_game(tmp_path, players, bad)
    at_once = [stats(path, *split) for split in SPLITS]
    games = {row["player"]: row["games"] for row in at_once[0]["players"]}  # type: ignore[index]
    assert games == dict.fromkeys(players, 1)
    assert [row["games"] for row in at_once[0]["teams"]] == ([1, 1] if len(players) == 4 else [])  # type: ignore[index]
    with monkeypatch.context() as patch:
        patch.setattr(truclog.validate.games, "HANDS_HELD", 5)
        patch.setattr(truclog.stats.run, "COUNT_BATCH", 30)
        patch.setattr(truclog.stats.tables, "_PART_HANDS", 2)
        # checked line by line, or cleared whole by the quick core: the game's rows
        # are in several batches either way
        for facts in (quick.STATS_FACTS, quick.ROWS_FACTS):
            batches = list(batches_of(path, facts))
            assert len(batches) >= 3
            assert max(b.actions.height for b in batches) < 2 * 30  # a batch, a few hands more
        in_parts = [stats(path, *split) for split in SPLITS]
    assert in_parts == at_once


def batches_of(path: Path, facts: int = quick.STATS_FACTS) -> Iterator[Tables]:
    """A run's batches of statistics of ``path``, its cleared games' ``facts`` as lists
    (or as rows of C values)."""
    from truclog.stats.kept import GameFilter, Tally
    from truclog.stats.run import COUNT_BATCH, kept_games
    from truclog.stats.tables import table_batches

    tally = Tally()
    games = kept_games(str(path), GameFilter(), tally, set(), facts=facts)
    yield from table_batches(games, tally, COUNT_BATCH, narrow=True)


def test_a_game_checked_line_by_line_is_counted_in_smaller_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game checked line by line that fills batches of statistics by itself goes in
    batches of ``LONG_GAME_ROWS`` rows of ``actions``, smaller than the run's (their
    memory at the peak), and is counted the same."""
    path = long_game(tmp_path)
    at_once = [stats(path, *split) for split in SPLITS]
    monkeypatch.setattr(truclog.stats.tables, "_PART_HANDS", 2)
    monkeypatch.setattr(truclog.stats.tables, "LONG_GAME_ROWS", 30)
    assert truclog.stats.run.COUNT_BATCH > 1_000  # the run's batches hold the whole game
    batches = list(batches_of(path))
    assert len(batches) >= 3
    assert max(b.actions.height for b in batches) < 2 * 30  # a batch, a few hands more
    assert [stats(path, *split) for split in SPLITS] == at_once


def test_player_stats_and_review_of_a_long_game(tmp_path: Path, small_batches: None) -> None:
    path = long_game(tmp_path, FOUR)
    split = truclog.player_stats(str(path), teams=True)
    review = truclog.review(str(path))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(truclog.validate.games, "HANDS_HELD", 10_000)
        assert split.equals(truclog.player_stats(str(path), teams=True))
        assert review.equals(truclog.review(str(path)))
    assert split.get_column("games").to_list() == [1, 1]


def test_a_long_game_goes_to_another_process_mid_reading(tmp_path: Path, few_held: None) -> None:
    game = whole(long_game(tmp_path))
    assert game.hands[3].number == 4  # a reading in progress
    hands = game.checked.hands
    assert isinstance(hands, HandsOnFile)
    again = pickle.loads(pickle.dumps(hands))
    assert [h.number for h in again] == [h.number for h in hands]


class Exported(NamedTuple):
    """An export's tables as polars reads them back (all parts in order), its part
    files, and the most rows of ``actions`` and ``hands`` its builder held at once."""

    tables: dict[str, pl.DataFrame]
    parts: int
    actions_held: int
    hands_held: int


def exported(path: Path, to: Path, batch_rows: int, patch: pytest.MonkeyPatch) -> Exported:
    """Export ``path`` to ``to`` in batches of ``batch_rows`` rows of ``actions``."""
    held = [0, 0]
    flush = TableBuilder.flush

    def watched(builder: TableBuilder) -> Tables:
        held[0] = max(held[0], builder.action_rows)
        held[1] = max(held[1], len(builder.hands))
        return flush(builder)

    with patch.context() as patched:
        patched.setattr(export_module, "BATCH_ROWS", batch_rows)
        patched.setattr(TableBuilder, "flush", watched)
        export_module.export([str(path)], to)
    tables = {name: pl.read_parquet(to / name) for name in export_module.TABLES}
    return Exported(tables, len(list((to / "actions").glob("*.parquet"))), *held)


@pytest.mark.parametrize("bad", [True, False], ids=["bad-line", "legal"])
@pytest.mark.parametrize("players", [("Ana", "Marc"), FOUR], ids=["two", "four"])
def test_export_of_a_long_game_in_several_batches(
    tmp_path: Path, players: tuple[str, ...], bad: bool, few_held: None
) -> None:
    path = long_game(tmp_path, players, bad)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(quick, "facts_available", lambda: False)  # checked line by line
        split = exported(path, tmp_path / "split", 40, patch)
        patch.setattr(truclog.validate.games, "HANDS_HELD", 10_000)
        whole = exported(path, tmp_path / "whole", 1_000_000, patch)
    assert whole.parts == 1 and split.parts >= 5
    games = split.tables["games"]
    assert games.height == 1 and games.get_column("hands").item() > 20
    for name in export_module.TABLES:
        assert_frame_equal(split.tables[name], whole.tables[name])
    # a batch holds about 40 rows of actions, and the hands they belong to
    assert split.actions_held < 40 + 30 and split.hands_held < 10


def test_a_long_game_from_standard_input_is_read_again_from_its_copy(
    tmp_path: Path, few_held: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = long_game(tmp_path)
    held = whole(path)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    game = next(read_games("-"))
    assert isinstance(game.checked.hands, HandsOnFile)  # not held whole
    assert told(game) == told(held)
    assert game.hands[7].number == held.hands[7].number
    before = live_hands()
    counts = []
    for hand in game.hands:
        del hand
        counts.append(live_hands())
    assert max(counts) - before <= 3
    with pytest.raises(TypeError, match="standard input"):
        pickle.dumps(game.checked.hands)


@pytest.mark.parametrize("bad", [True, False], ids=["line-by-line", "quick-core"])
def test_statistics_of_a_long_game_from_standard_input(
    tmp_path: Path, small_batches: None, bad: bool
) -> None:
    path = long_game(tmp_path, FOUR, bad)
    from_file = [stats(path, *split) for split in SPLITS]
    piped = []
    for split in SPLITS:
        command = ["stats", "--format", "json", *split, "-"]
        result = CliRunner().invoke(main, command, input=path.read_bytes())
        assert result.exit_code == 0, result.output
        piped.append(json.loads(result.stdout))
    assert piped == from_file


def test_review_and_export_of_a_long_game_from_standard_input(
    tmp_path: Path, small_batches: None
) -> None:
    path = long_game(tmp_path)
    text = path.read_bytes()
    for command in (["review", "--format", "json"], ["export", "--to"]):
        outputs: list[str] = []
        for source, given in ((str(path), None), ("-", text)):
            to = [str(tmp_path / f"out{len(outputs)}")] if command[0] == "export" else []
            result = CliRunner().invoke(main, [*command, *to, source], input=given)
            assert result.exit_code == 0, result.output
            outputs.append(result.stdout if not to else to[0])
        if command[0] == "review":
            assert outputs[1] == outputs[0].replace(str(path), "-")
        else:
            for name in export_module.TABLES:
                tables = [pl.read_parquet(Path(out) / name) for out in outputs]
                if name == "games":
                    tables = [t.drop("file") for t in tables]
                assert_frame_equal(tables[1], tables[0])
