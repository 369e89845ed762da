"""A large log: the games list fills in while the log is still being read, and a game\nis read again from its byte offset; the games screen comes first, the rest after it."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets._footer import FooterKey

from truclog.engine.actions import Accept, Deal, Fold, Play, Raise
from truclog.engine.cards import deck
from truclog.engine.state import Phase, State
from truclog.replay import Game
from truclog.tui.browse import BrowseApp, catalog
from truclog.tui.browse.catalog import (
    SORT_KEYS,
    GameEntry,
    Indexer,
    index_in_child,
    start_index,
)
from truclog.tui.browse.index import summarize_hand
from truclog.tui.browse.screens import GamesScreen
from truclog.tui.browse.screens.games import DEBOUNCE
from truclog.tui.browse.screens.hands import hand_row
from truclog.tui.widgets.rows import RowList
from truclog.validate import CheckedGame, check_logs


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
        """The index of a log that stops after its first games and never ends (the forked
        child runs it): only quitting ends the child."""
        for number, item in enumerate(index_log(*args)):
            if number == 5:
                time.sleep(3600)
            yield item

    monkeypatch.setattr(catalog, "index_log", slowly)
    app = BrowseApp([str(log)])
    async with app.run_test(size=(120, 36)) as pilot:
        deadline = time.monotonic() + 30  # the child's first batch, or at least its start
        while not (started and app.catalog.entries) and time.monotonic() < deadline:
            await pilot.pause(0.01)
        await pilot.press("q")
    assert not app.loaded and len(started) == 1 and started[0] > 0
    for _ in range(1000):  # killed and collected (by the app or its worker), not left running
        try:
            os.kill(started[0], 0)
        except ProcessLookupError:
            break
        time.sleep(0.01)
    with pytest.raises(ProcessLookupError):
        os.kill(started[0], 0)


async def test_the_index_worker_builds_the_columns_filter_and_sort_read(tmp_path: Path) -> None:
    log = tmp_path / "big.truclog.jsonl"
    write_big_log(log, games=600)
    app = BrowseApp([str(log)])
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(1000):  # read, and what other screens need imported in the background
            preloading = any(w.group == "preload" and w.is_running for w in app.workers)
            if app.loaded and app.preloaded and not preloading:
                break
            await pilot.pause(0.02)
        await pilot.pause()
        catalog = app.catalog
        assert {name: len(column) for name, column in catalog.columns.items()} == dict.fromkeys(
            SORT_KEYS, 600
        )
        assert list(catalog.matching("NIGHT")) == list(range(600))  # every game, any case
        assert list(catalog.matching("night-17", 100, 200)) == [*range(170, 180)]
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


LEAN_START = """
import asyncio, json, sys
from truclog.tui.browse import BrowseApp
from truclog.tui.browse.screens.games import GamesScreen

HEAVY = json.loads(sys.argv[2])
seen = {}
shown = GamesScreen.on_games_read

def noting(self, message):
    if message.entries and "first" not in seen:
        seen["first"] = sorted(m for m in HEAVY if m in sys.modules)
    shown(self, message)

GamesScreen.on_games_read = noting

async def main():
    app = BrowseApp([sys.argv[1]])
    async with app.run_test(size=(120, 36)) as pilot:
        while not app.loaded:
            await pilot.pause(0.02)
        for _ in range(1000):
            if all(m in sys.modules for m in HEAVY):
                break
            await pilot.pause(0.02)
        seen["later"] = sorted(m for m in HEAVY if m in sys.modules)
        await pilot.press("end", "enter")
        rows = app.screen.rows
        seen["screen"] = type(app.screen).__name__
        seen["hands"] = [[c.plain for c in rows.cell(i)] for i in range(rows.count)]
        await pilot.press("q")

asyncio.run(main())
print(json.dumps(seen))
"""
LATER = [
    "pydantic",
    "textual_plotext",
    "truclog.engine.state",
    "truclog.format.events",
    "truclog.tui.browse.review",
    "truclog.tui.browse.screens.hands",
    "truclog.tui.browse.screens.players",
    "truclog.tui.browse.screens.replay",
    "truclog.validate.checker",
]
"""What the games screen does without: the validator, the engine, the other screens."""


def test_the_games_screen_shows_before_the_rest_is_imported(tmp_path: Path) -> None:
    log = tmp_path / "big.truclog.jsonl"
    write_big_log(log, games=40)
    script = [sys.executable, "-c", LEAN_START, str(log), json.dumps(LATER)]
    done = subprocess.run(script, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["first"] == []  # none of them when the first games came to the screen
    assert seen["later"] == LATER  # all of them once the list was drawn, without asking
    (last,) = [g for g in check_logs([str(log)]) if isinstance(g, CheckedGame)][-1:]
    lost = [sum(j.lost or 0 for j in hand.review()) for hand in Game(last).hands]
    expected = [
        [*(c.plain for c in hand_row(last, summarize_hand(h))), str(points)]
        for h, points in zip(last.hands, lost, strict=True)
    ]
    assert seen["screen"] == "HandsScreen" and seen["hands"] == expected and len(expected) > 1


def test_the_index_process_expands_the_sources_itself(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    write_big_log(folder / "a.truclog.jsonl", games=3)
    write_big_log(folder / "b.truclog.jsonl", games=2)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    data = (folder / "a.truclog.jsonl").read_bytes()
    writer = threading.Thread(target=lambda: pipe.write_bytes(data))
    writer.start()
    missing = str(tmp_path / "missing")
    indexer, spool_dir = start_index([str(folder), missing, str(pipe)])
    try:
        pairs, problems = indexer.files()
        batches = list(indexer.batches(lambda: False))
    finally:
        indexer.stop()
        writer.join(timeout=5)
    assert spool_dir is not None  # a pipe may be among the sources
    shown = [str(folder / "a.truclog.jsonl"), str(folder / "b.truclog.jsonl"), str(pipe)]
    assert [path for _, path in pairs] == shown
    assert [read for read, _ in pairs][:2] == shown[:2]  # plain files are read where they are
    copy = Path(pairs[2][0])
    assert copy.parent == Path(spool_dir.name) and copy.read_bytes() == data
    assert [(p.path, p.severity) for p in problems] == [(missing, "error")]
    entries = [e for batch, _ in batches for e in batch if isinstance(e, GameEntry)]
    assert [(Path(e.path).name, e.id) for e in entries] == [
        *(("a.truclog.jsonl", f"night-{i}") for i in range(3)),
        *(("b.truclog.jsonl", f"night-{i}") for i in range(2)),
        *(("pipe", f"night-{i}") for i in range(3)),
    ]
    spool_dir.cleanup()


async def test_a_screen_builds_its_footer_keys_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "big.truclog.jsonl"
    write_big_log(log, games=5)
    built: list[str] = []
    build = FooterKey.__init__

    def counted(self: FooterKey, *args: Any, **kwargs: Any) -> None:
        build(self, *args, **kwargs)
        built.append(self.description)

    monkeypatch.setattr(FooterKey, "__init__", counted)
    app = BrowseApp([str(log)])
    async with app.run_test(size=(120, 36)) as pilot:
        while not app.loaded:
            await pilot.pause(0.02)
        await pilot.pause()
        built.clear()
        await pilot.press("enter")  # the hands screen: mounted, its list focused, drawn
        await pilot.pause(0.3)
        shown = [k.description for k in app.screen.query(FooterKey)]
        assert "Go to hand" in shown and "Quit" in shown
        assert sorted(built) == sorted(shown)  # each key built once, not once a focus move
