"""A large log: the games list fills in while the log is still being read, and a game\nis read again from its byte offset."""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from truclog.actions import Accept, Deal, Fold, Play, Raise
from truclog.cards import deck
from truclog.engine import Phase, State
from truclog.tui.browse import BrowseApp, catalog
from truclog.tui.browse.catalog import SORT_KEYS, GameEntry, Indexer, index_in_child
from truclog.tui.browse.screens import GamesScreen
from truclog.tui.browse.screens.games import DEBOUNCE
from truclog.tui.widgets.rows import RowList


def drawn(rows: RowList, y: int) -> str:
    """Line ``y`` of a row list as drawn (0 is the header)."""
    return "".join(segment.text for segment in rows.render_line(y))


def played_game(seed: int) -> list[dict[str, Any]]:
    """One legal classic game to 12, played at random through the engine."""
    rng = random.Random(seed)
    players = ["Ana", "Marc"]
    state = State.new(players, dealer="Marc")
    lines: list[dict[str, Any]] = [
        {"type": "game", "format": "truclog/1", "rules": "classic", "players": players,
         "dealer": "Marc", "date": "2026-11-29"}
    ]  # fmt: skip
    while state.phase is not Phase.GAME_OVER:
        (deal,) = state.legal_actions()
        assert isinstance(deal, Deal)
        cards = deck(state.rules.order)
        rng.shuffle(cards)
        dealt = {players[0]: cards[:3], players[1]: cards[3:6]}
        state.push(Deal.of(deal.dealer, dealt, deal.hand))
        lines.append({"type": "deal", "hand": deal.hand, "dealer": deal.dealer,
                      "cards": {p: [str(c) for c in cs] for p, cs in dealt.items()}})  # fmt: skip
        while state.phase is Phase.PLAY:
            player = state.to_act
            assert player is not None
            raised = Raise(player, to=state.value + 1)
            action: Accept | Fold | Raise | Play
            if state.pending is not None:
                action = rng.choice([Accept(player), Fold(player)])
            elif rng.random() < 0.1 and state.is_legal(raised):
                action = raised
            else:
                action = Play(player, rng.choice(state.known_cards(player)[0]))
            state.push(action)
            line: dict[str, Any] = {"type": type(action).__name__.lower(), "player": action.player}
            if isinstance(action, Play):
                line["card"] = str(action.card)
            if isinstance(action, Raise):
                line["to"] = action.to
            lines.append(line)
        outcome = state.outcome
        assert outcome is not None
        lines.append({"type": "result", "winner": outcome.winner, "points": outcome.points,
                      "score": dict(outcome.score)})  # fmt: skip
    return lines


def write_big_log(path: Path, games: int) -> int:
    """``games`` copies of a few played games under distinct ids; returns the hand count."""
    played = [played_game(seed) for seed in range(5)]
    hands = 0
    with path.open("w", encoding="utf-8") as out:
        for i in range(games):
            game = played[i % len(played)]
            game[0]["id"] = f"night-{i}"
            hands += sum(1 for line in game if line["type"] == "result")
            out.write("".join(json.dumps(line) + "\n" for line in game))
    return hands


def test_the_first_game_is_listed_before_the_log_is_read(tmp_path: Path) -> None:
    log = tmp_path / "big.truclog.jsonl"
    hands = write_big_log(log, games=600)
    assert hands > 5000
    batches = list(index_in_child([(str(log), "big")], lambda: False))
    first, fraction = batches[0]
    assert [e.id for e in first if isinstance(e, GameEntry)] == ["night-0"] and fraction < 1
    assert batches[-1][1] == 1.0
    entries = [e for batch, _ in batches for e in batch if isinstance(e, GameEntry)]
    assert [e.id for e in entries] == [f"night-{i}" for i in range(600)]
    assert sum(e.hands for e in entries) == hands and {e.path for e in entries} == {"big"}


async def test_a_large_log_opens_at_its_first_game(tmp_path: Path) -> None:
    log = tmp_path / "big.truclog.jsonl"
    write_big_log(log, games=600)
    app = BrowseApp([str(log)])
    async with app.run_test(size=(120, 36)) as pilot:
        while not app.catalog.entries:
            await pilot.pause(0.01)
        await pilot.press("enter", "enter", "end")  # the replay of hand 1, at its end
        heading = str(app.screen.query_one("#replay-table").content.renderables[0])
        assert heading.startswith("Hand 1 ·")
        assert " wins " in heading or "drawn hand" in heading


async def test_a_game_is_read_again_from_its_offset(tmp_path: Path) -> None:
    log = tmp_path / "big.truclog.jsonl"
    write_big_log(log, games=50)
    app = BrowseApp([str(log)])
    async with app.run_test(size=(120, 36)) as pilot:
        while not app.loaded:
            await pilot.pause(0.05)
        data = log.read_bytes()
        for entry in app.catalog.entries[::7]:
            assert entry.offset is not None
            assert data[entry.offset :].startswith(b'{"type": "game"')
            assert data[: entry.offset].count(b"\n") + 1 == entry.line
            game = app.catalog.open(entry)
            assert game is not None and game.id == entry.id
            assert len(game.hands) == entry.hands and game.line == entry.line


async def test_the_first_rows_show_before_the_index_is_complete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "big.truclog.jsonl"
    write_big_log(log, games=600)
    gate = threading.Event()
    index = Indexer.batches

    def held(self: Indexer, stop: Any) -> Iterator[Any]:
        """The index as it comes, held after its first batch until the test has looked."""
        batches = index(self, stop)
        yield next(batches)
        gate.wait(30)
        yield from batches

    monkeypatch.setattr(Indexer, "batches", held)
    app = BrowseApp([str(log)])
    async with app.run_test(size=(120, 36)) as pilot:
        while not app.catalog.entries:
            await pilot.pause(0.01)
        await pilot.pause()
        rows = app.screen.query_one(RowList)
        assert not app.loaded and rows.count == 1 and "night-0" in drawn(rows, 1)
        assert "1 games · reading…" in str(app.screen.query_one("#games-status").render())
        gate.set()
        while not app.loaded:
            await pilot.pause(0.05)
        await pilot.pause()
        assert rows.count == 600


async def test_quitting_while_indexing_stops_the_index_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "big.truclog.jsonl"
    write_big_log(log, games=600)
    started: list[int] = []
    start = Indexer.__init__

    def recording(self: Indexer, pairs: list[tuple[str, str]], spool_dir: str | None) -> None:
        start(self, pairs, spool_dir)
        started.append(self.pid or (self.process.pid if self.process else 0))

    monkeypatch.setattr(Indexer, "__init__", recording)
    index_log = catalog.index_log

    def slowly(*args: Any) -> Iterator[Any]:
        """The index of a log read slowly (the forked child runs it)."""
        for item in index_log(*args):
            time.sleep(0.005)
            yield item

    monkeypatch.setattr(catalog, "index_log", slowly)
    app = BrowseApp([str(log)])
    async with app.run_test(size=(120, 36)) as pilot:
        while not app.catalog.entries:
            await pilot.pause(0.01)
        await pilot.press("q")
    assert not app.loaded and len(started) == 1 and started[0] > 0
    with pytest.raises(ProcessLookupError):  # killed and collected, not left running
        os.kill(started[0], 0)


async def test_the_index_worker_builds_the_columns_filter_and_sort_read(tmp_path: Path) -> None:
    log = tmp_path / "big.truclog.jsonl"
    write_big_log(log, games=600)
    app = BrowseApp([str(log)])
    async with app.run_test(size=(120, 36)) as pilot:
        while not app.loaded:
            await pilot.pause(0.05)
        await pilot.pause()
        catalog = app.catalog
        assert {name: len(column) for name, column in catalog.columns.items()} == dict.fromkeys(
            SORT_KEYS, 600
        )
        screen = app.screen
        assert isinstance(screen, GamesScreen)
        await pilot.press("slash", *"night-59")
        assert len(screen.shown) == 600  # the filter waits for the typing to pause
        await pilot.pause(DEBOUNCE + 0.2)
        await pilot.pause()
        expected = {"night-59", *(f"night-59{d}" for d in range(10))}
        assert {catalog.entries[i].id for i in screen.shown} == expected
        await pilot.press("enter")
        screen.sort_by("id")
        await pilot.pause()
        assert [catalog.entries[i].id for i in screen.shown] == sorted(expected)
        assert "id ▲" in drawn(screen.query_one(RowList), 0)
        await pilot.press("r")
        assert [catalog.entries[i].id for i in screen.shown] == sorted(expected, reverse=True)
        assert "id ▼" in drawn(screen.query_one(RowList), 0)


async def test_a_growing_log_lists_its_new_hands_and_games(tmp_path: Path) -> None:
    log = tmp_path / "live.truclog.jsonl"
    first, second = played_game(1), played_game(2)
    first[0]["id"], second[0]["id"] = "live-1", "live-2"
    cut = next(i for i, line in enumerate(second) if line["type"] == "result") + 1
    log.write_text("".join(json.dumps(line) + "\n" for line in first + second[:cut]))
    app = BrowseApp([str(log)])
    async with app.run_test(size=(120, 36)) as pilot:
        while not app.loaded:
            await pilot.pause(0.05)
        assert [(e.id, e.hands) for e in app.catalog.entries] == [
            ("live-1", sum(line["type"] == "result" for line in first)),
            ("live-2", 1),
        ]
        third = played_game(3)
        third[0]["id"] = "live-3"
        with log.open("a", encoding="utf-8") as out:
            out.write("".join(json.dumps(line) + "\n" for line in second[cut:] + third))
        for _ in range(200):
            if len(app.catalog.entries) == 3:
                break
            await pilot.pause(0.05)
        await pilot.pause()
        entries = app.catalog.entries
        assert [e.id for e in entries] == ["live-1", "live-2", "live-3"]
        assert entries[1].hands == sum(line["type"] == "result" for line in second)
        screen = app.screen
        assert isinstance(screen, GamesScreen)
        await pilot.press("slash", *"live-3", "enter")
        assert [entries[i].id for i in screen.shown] == ["live-3"]
        assert app.catalog.whole("hands").to_list() == [float(e.hands) for e in entries]
