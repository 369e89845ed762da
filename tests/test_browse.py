"""``truclog browse`` driven through Textual's pilot: what each screen shows, and moving around.

The logs are written here by hand from rules.md (classic: 7 8 A K Q J T 9;
sackson: A K Q J T 9 8 7), so every expectation comes from the rules, not
from the code.
"""

from __future__ import annotations

import gc
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Select, Static

import truclog
from truclog.cli import browse as browse_cli
from truclog.cli import main
from truclog.tui.browse import BrowseApp
from truclog.tui.browse import app as browse_app
from truclog.tui.browse.catalog import default_sources
from truclog.tui.browse.index import hand_frames, hand_marks, score_series, summarize_hand
from truclog.tui.browse.screens import (
    DiagnosticsScreen,
    FindHandsScreen,
    GamesScreen,
    HandsScreen,
    PlayersScreen,
    ReplayScreen,
)
from truclog.tui.browse.screens.games import entry_cells
from truclog.tui.browse.screens.players import TALL
from truclog.tui.widgets import TableView
from truclog.tui.widgets.rows import RowList
from truclog.validate import CheckedGame, Diagnostic, check_logs

SIZE = (120, 36)
SIZES = [(80, 24), (160, 50)]

CAFE = [
    {"type": "game", "format": "truclog/1", "id": "cafe-1", "date": "2026-11-29",
     "rules": "classic", "players": ["Ana", "Marc"], "dealer": "Marc"},
    # hand 1: Ana leads; 7 beats A, Q beats J: Ana wins two tricks at value 2
    {"type": "deal", "hand": 1, "dealer": "Marc",
     "cards": {"Ana": ["7h", "Q", "9s"], "Marc": ["??", "??", "??"]}},
    {"type": "raise", "player": "Ana", "to": 2, "note": "Ana grins"},
    {"type": "accept", "player": "Marc"},
    {"type": "play", "player": "Ana", "card": "7h"},
    {"type": "play", "player": "Marc", "card": "As"},
    {"type": "play", "player": "Ana", "card": "Q"},
    {"type": "play", "player": "Marc", "card": "Jd"},
    {"type": "show", "player": "Marc", "cards": ["Kc"]},
    {"type": "result", "winner": "Ana", "points": 2, "score": {"Ana": 2, "Marc": 0}},
    # hand 2: Marc leads; T beats 9; Ana raises, Marc folds: Ana scores the old value 1
    {"type": "deal", "hand": 2, "dealer": "Ana",
     "cards": {"Ana": ["8c", "Kd", "Th"], "Marc": ["7s", "9d", "Jh"]}},
    {"type": "play", "player": "Marc", "card": "9d"},
    {"type": "play", "player": "Ana", "card": "Th"},
    {"type": "raise", "player": "Ana", "to": 3},
    {"type": "fold", "player": "Marc", "note": "too rich for me"},
    {"type": "result", "winner": "Ana", "points": 1, "score": {"Ana": 3, "Marc": 0}},
    # hand 3: a granted redeal, then Ana plays a card she does not hold (line 22)
    {"type": "deal", "hand": 3, "dealer": "Marc", "cards": {"Ana": ["9c", "9h", "Tc"]}},
    {"type": "redeal", "player": "Ana", "accepted": True, "note": "nines again"},
    {"type": "deal", "hand": 3, "dealer": "Marc", "cards": {"Ana": ["7c", "8h", "Ad"]}},
    {"type": "play", "player": "Ana", "card": "7c"},
    {"type": "play", "player": "Marc", "card": "8d"},
    {"type": "play", "player": "Ana", "card": "9s"},
    {"type": "play", "player": "Ana", "card": "8h"},
    {"type": "play", "player": "Marc", "card": "8s"},
    {"type": "result", "winner": "Ana", "points": 1, "score": {"Ana": 4, "Marc": 0}},
    {"type": "game", "format": "truclog/1", "id": "cafe-2", "date": "2026-11-28",
     "rules": "sackson", "players": ["Zoé", "Lu"], "dealer": "Lu"},
    {"type": "deal", "hand": 1, "dealer": "Lu"},
    {"type": "play", "player": "Zoé", "card": "A"},
    {"type": "play", "player": "Lu", "card": "K"},
    {"type": "play", "player": "Zoé", "card": "Q"},
    {"type": "play", "player": "Lu", "card": "J"},
    {"type": "result", "winner": "Zoé", "points": 1, "score": {"Zoé": 1, "Lu": 0}},
]  # fmt: skip

# Four players: Ana and Lu against Marc and Zoé; Zoé deals, Ana leads.
CLUB = [
    {"type": "game", "format": "truclog/1", "id": "club-4", "date": "2026-11-27",
     "rules": "classic", "players": ["Ana", "Marc", "Lu", "Zoé"], "dealer": "Zoé"},
    {"type": "deal", "hand": 1, "dealer": "Zoé", "cards": {"Ana": ["7h", "Qd", "9s"]}},
    {"type": "play", "player": "Ana", "card": "7h"},
    {"type": "play", "player": "Marc", "card": "8h"},
    {"type": "play", "player": "Lu", "card": "As"},
    {"type": "play", "player": "Zoé", "card": "Ks"},
    {"type": "play", "player": "Ana", "card": "Qd", "note": "partner, hold on"},
    {"type": "play", "player": "Marc", "card": "Jc"},
    {"type": "play", "player": "Lu", "card": "Tc"},
    {"type": "play", "player": "Zoé", "card": "9c"},
    {"type": "result", "winner": "Ana+Lu", "points": 1, "score": {"Ana+Lu": 1, "Marc+Zoé": 0}},
]  # fmt: skip


# Raise strength (stats.md, classic): three of the four sevens cannot lose a trick,
# so Ana's raise is worth 1.00; three nines, the lowest rank, can win nothing: Marc's
# raise is worth 0.00, a bluff, and Ana, whose hand the deal line shows, folds to it.
BLUFF = [
    {"type": "game", "format": "truclog/1", "id": "bluff-1", "date": "2026-11-30",
     "rules": "classic", "players": ["Ana", "Marc"], "dealer": "Marc"},
    {"type": "deal", "hand": 1, "dealer": "Marc",
     "cards": {"Ana": ["7h", "7s", "7d"], "Marc": ["9s", "9h", "9d"]}},
    {"type": "raise", "player": "Ana", "to": 2},
    {"type": "accept", "player": "Marc"},
    {"type": "play", "player": "Ana", "card": "7h"},
    {"type": "play", "player": "Marc", "card": "9s"},
    {"type": "play", "player": "Ana", "card": "7s"},
    {"type": "play", "player": "Marc", "card": "9h"},
    {"type": "result", "winner": "Ana", "points": 2, "score": {"Ana": 2, "Marc": 0}},
    {"type": "deal", "hand": 2, "dealer": "Ana",
     "cards": {"Ana": ["7c", "8h", "Ad"], "Marc": ["9c", "9h", "9d"]}},
    {"type": "raise", "player": "Marc", "to": 2, "note": "all in, so to speak"},
    {"type": "fold", "player": "Ana"},
    {"type": "result", "winner": "Marc", "points": 1, "score": {"Ana": 2, "Marc": 1}},
]  # fmt: skip


def write_log(path: Path, events: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events), "utf-8")


@pytest.fixture
def logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A directory of logs, given by a relative path so that screens look the same anywhere."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "logs"
    folder.mkdir()
    write_log(folder / "cafe.truclog.jsonl", CAFE)
    write_log(folder / "club.truclog.jsonl", CLUB)
    (folder / "torn.truclog.jsonl").write_bytes(b'{"type": "game", "format": "truclog/1"\n')
    return "logs"


@pytest.fixture
def bluffs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    write_log(tmp_path / "bluff.truclog.jsonl", BLUFF)
    return "bluff.truclog.jsonl"


def text_of(widget: Static) -> str:
    """What a static widget shows, as plain text."""
    console = Console(width=200, record=True, color_system=None)
    console.print(widget.content)
    return console.export_text()


def rows_of(table: DataTable[Any]) -> list[list[str]]:
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


def cells_of(rows: RowList) -> list[list[str]]:
    """The cells of every row of a row list, as plain text."""
    return [[str(cell) for cell in rows.cell(i)] for i in range(rows.count)]


def listed(app: BrowseApp) -> list[list[str]]:
    """The games list as shown: one list of cells a row, in the list's order."""
    screen = app.screen
    assert isinstance(screen, GamesScreen)
    entries = app.catalog.entries
    return [[Text.plain for Text in entry_cells(entries[i])] for i in screen.shown]


def drawn(rows: RowList, y: int) -> str:
    """Line ``y`` of a row list as drawn (0 is the header)."""
    return "".join(segment.text for segment in rows.render_line(y))


async def wait_loaded(app: BrowseApp, pilot: Pilot[None]) -> None:
    for _ in range(1000):
        if app.loaded:
            break
        await pilot.pause(0.02)
    await pilot.pause()
    assert app.loaded


async def wait_as_of(app: BrowseApp, pilot: Pilot[None]) -> None:
    """Wait for the statistics as of each hand, which the replay shows once counted."""
    for _ in range(1000):
        if app.as_of.as_of is not None:
            break
        await pilot.pause(0.02)
    await pilot.pause()
    assert app.as_of.as_of is not None


async def settle(pilot: Pilot[None]) -> None:
    """Wait out the filter's debounce."""
    await pilot.pause(0.3)
    await pilot.pause()


def table_text(app: BrowseApp) -> str:
    return text_of(app.screen.query_one(TableView))


def title_text(app: BrowseApp) -> str:
    return text_of(app.screen.query_one("#replay-title", Static))


async def open_replay(app: BrowseApp, pilot: Pilot[None], game_row: int = 0) -> ReplayScreen:
    await wait_loaded(app, pilot)
    app.screen.query_one(RowList).go(game_row)
    await pilot.press("enter")
    await pilot.press("enter")
    assert isinstance(app.screen, ReplayScreen)
    return app.screen


async def test_games_screen_lists_every_game(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        assert isinstance(app.screen, GamesScreen)
        rows = listed(app)
        by_players = {row[3]: row for row in rows}
        assert set(by_players) == {"Ana v Marc", "Zoé v Lu", "Ana+Lu v Marc+Zoé"}
        ana = by_players["Ana v Marc"]
        assert ana[:3] == ["cafe-1", "logs/cafe.truclog.jsonl", "2026-11-29"]
        assert ana[4] == "3–0"  # hand 3 broke off at an illegal play
        assert ana[6] == "3" and int(ana[7]) >= 1
        assert by_players["Zoé v Lu"][4:7] == ["1–0", "—", "1"]
        assert by_players["Ana+Lu v Marc+Zoé"][4] == "1–0"
        status = str(app.screen.query_one("#games-status").render())
        assert "3 games" in status and "5 hands" in status and "1 file problem" in status
        header = drawn(app.screen.query_one(RowList), 0)
        for column in ("id", "file", "time", "players", "score", "winner", "hands"):
            assert column in header


async def test_the_index_is_frozen_while_the_app_runs_and_no_longer(logs: str) -> None:
    """The loaded index is kept out of the collector's walks while the app runs; once
    it is gone, the objects are collected as before, and what someone else froze is
    left frozen."""
    gc.unfreeze()  # what an earlier test may have left
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
    gc.freeze()
    try:
        app = BrowseApp([logs])
        async with app.run_test(size=SIZE) as pilot:
            await wait_loaded(app, pilot)
        assert gc.get_freeze_count() > 0  # theirs, still frozen
    finally:
        gc.unfreeze()


async def test_filter_sort_and_the_ends_of_the_list(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        screen = app.screen
        assert isinstance(screen, GamesScreen)
        rows = screen.query_one(RowList)
        await pilot.press("slash", *"zo")
        await settle(pilot)
        assert [row[3] for row in listed(app)] == ["Zoé v Lu", "Ana+Lu v Marc+Zoé"]
        await pilot.press(*"xyz")
        await settle(pilot)
        assert listed(app) == [] and "no game matches “zoxyz”" in drawn(rows, 1)
        await pilot.press("enter", "escape")
        assert len(listed(app)) == 3
        await pilot.press("s")  # by id
        assert [row[0] for row in listed(app)] == ["cafe-1", "cafe-2", "club-4"]
        assert "id ▲" in drawn(rows, 0)
        await pilot.press("r")
        assert [row[0] for row in listed(app)] == ["club-4", "cafe-2", "cafe-1"]
        assert "id ▼" in drawn(rows, 0)
        await pilot.press("s")  # by file, then line
        assert [row[0] for row in listed(app)] == ["cafe-1", "cafe-2", "club-4"]
        await pilot.press("s")  # by time
        assert [row[2] for row in listed(app)] == ["2026-11-27", "2026-11-28", "2026-11-29"]
        hands_x = drawn(rows, 0).index("hands")
        await pilot.click(RowList, offset=(hands_x, 0))
        await pilot.pause()
        assert [row[6] for row in listed(app)] == ["1", "1", "3"] and "hands ▲" in drawn(rows, 0)
        await pilot.press("end")
        assert rows.cursor == 2 and screen.current_entry() is not None
        assert screen.current_entry().id == "cafe-1"  # type: ignore[union-attr]
        await pilot.press("home")
        assert rows.cursor == 0


async def test_filter_waits_for_the_typing_to_pause(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        screen = app.screen
        assert isinstance(screen, GamesScreen)
        await pilot.press("slash", *"lu")
        assert screen.filter_text == "" and len(listed(app)) == 3  # not yet applied
        await settle(pilot)
        assert screen.filter_text == "lu" and len(listed(app)) == 2


async def test_hands_screen_shows_how_each_hand_ended(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        await pilot.press("enter")
        assert isinstance(app.screen, HandsScreen)
        table = app.screen.query_one("#hands-table", RowList)
        rows = cells_of(table)
        assert rows[0][:7] == ["1", "Marc", "2", "Ana", "2", "tricks", "R"]
        assert rows[1][:7] == ["2", "Ana", "1", "Ana", "1", "fold", "RF"]
        assert rows[2][0:2] == ["3", "Marc"]
        assert "D" in rows[2][6] and "E" in rows[2][6]
        assert rows[1][7] == "3–0"
        assert "3–0" in drawn(table, 2)  # the second hand's row, as drawn
        await pilot.press("end")
        assert table.cursor == 2
        await pilot.press("home")
        assert table.cursor == 0
        await pilot.press("escape")
        assert isinstance(app.screen, GamesScreen)


async def test_stepping_through_a_hand(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        replay = await open_replay(app, pilot)
        assert "hand 1 (1/3)" in title_text(app) and "event 1/9" in title_text(app)
        assert "Value  1" in table_text(app)
        await pilot.press("right")
        assert "Ana raises to 2, Marc to answer" in table_text(app)
        assert "Ana grins" in text_of(app.screen.query_one("#replay-note", Static))
        await pilot.press("right", "right")  # accept, then Ana's 7h on the table
        table = table_text(app)
        assert "Value  2" in table and "7♥" in table
        await pilot.press("left")
        assert "7♥" not in table_text(app)
        await pilot.press("end")
        table = table_text(app)
        assert "Ana wins 2 by tricks" in table
        # every finished trick stays on the board with who won it
        assert "1 Ana 7♥ Marc A♠ → Ana" in table and "2 Ana Q  Marc J♦ → Ana" in table
        assert "Score  Ana 2  ·  Marc 0" in table
        await pilot.press("home")
        assert replay.position == 0
        await pilot.press("r")
        assert "event 2/9" in title_text(app)
        await pilot.press("r")  # no other raise in hand 1: stays
        assert "event 2/9" in title_text(app)
        events = app.screen.query_one("#replay-events", DataTable)
        assert events.cursor_row == 1
        await pilot.click("#replay-events", offset=(8, 5))  # the header, then line 6: Marc's As
        await pilot.pause()
        assert "event 5/9" in title_text(app) and "A♠" in table_text(app)


async def test_views_onlooker_seats_and_everything(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await open_replay(app, pilot)
        onlooker = table_text(app)
        assert "what an onlooker knew" in title_text(app)
        assert "7♥" not in onlooker and onlooker.count("▒▒") == 6
        await pilot.press("v")  # Ana's seat: her own cards, Marc's face down
        assert "Ana's seat" in title_text(app)
        seat = table_text(app)
        assert "7♥ Q  9♠" in seat and seat.count("▒▒") == 3
        await pilot.press("v")  # Marc's seat: his cards as the log ends up knowing them
        seat = table_text(app)
        assert "A♠ J♦ K♣" in seat and "7♥" not in seat and seat.count("▒▒") == 3
        await pilot.press("v")
        revealed = table_text(app)
        assert "everything the log reveals" in title_text(app)
        for card in ("7♥", "Q ", "9♠", "A♠", "J♦", "K♣"):
            assert card in revealed
        assert "▒▒" not in revealed
        await pilot.press("end", "v")
        after = table_text(app)  # onlooker again, after Marc showed his king
        assert "what an onlooker knew" in title_text(app)
        assert "K♣" in after and "9♠" not in after


async def test_the_recorders_seat_is_the_first_view(logs: str) -> None:
    app = BrowseApp([logs], me="Ana")
    async with app.run_test(size=SIZE) as pilot:
        await open_replay(app, pilot)
        assert "Ana's seat" in title_text(app) and "7♥ Q  9♠" in table_text(app)


async def test_raise_strength_and_bluff_marks(bluffs: str) -> None:
    app = BrowseApp([bluffs])
    async with app.run_test(size=SIZE) as pilot:
        replay = await open_replay(app, pilot)
        events = app.screen.query_one("#replay-events", DataTable)
        lines = [str(row[1]) for row in (events.get_row_at(i) for i in range(events.row_count))]
        assert "Ana raises to 2  1.00" in lines[1] and "bluff" not in lines[1]
        # Marc's nines are in the deal line: his accept loses to sevens (review: test_answer)
        assert "Marc accepts  unsound, wrong: gave 1" in lines[2]
        await pilot.press("n")
        lines = [str(events.get_row_at(i)[1]) for i in range(events.row_count)]
        assert "Marc raises to 2  0.00 ✗ bluff" in lines[1]
        assert "Ana folds  unsound, wrong: gave 3" in lines[2]
        assert replay.hand == 1


async def test_a_higher_threshold_marks_more_bluffs(bluffs: str) -> None:
    app = BrowseApp([bluffs], bluff_threshold=1.0)
    async with app.run_test(size=SIZE) as pilot:
        await open_replay(app, pilot)
        events = app.screen.query_one("#replay-events", DataTable)
        assert "1.00" in str(events.get_row_at(1)[1]) and "bluff" not in str(
            events.get_row_at(1)[1]
        )
        app.bluff_threshold = 1.01
        assert isinstance(app.screen, ReplayScreen)
        app.screen.load_hand(0)
        assert "1.00 ✗ bluff" in str(events.get_row_at(1)[1])


SHOWN_HAND_2 = """\
bluff-1 · hand 2 · classic · Ana v Marc
Ana deals · score before: Ana 2, Marc 0 (target 12)
Ana: 7c 8h Ad   Marc: 9c 9h 9d
Marc raises to 2  [strength 0.00, bluff]  "all in, so to speak"
Ana folds  [unsound, wrong: gave 3]
result: Marc scores 1
Marc wins 1 on a fold · score Ana 2, Marc 1
"""


async def test_copy_the_hand_as_text(bluffs: str) -> None:
    app = BrowseApp([bluffs])
    async with app.run_test(size=SIZE) as pilot:
        await open_replay(app, pilot)
        await pilot.press("c")
        text = app.clipboard
        assert text.startswith("bluff-1 · hand 1 · ")
        assert "Ana: 7h 7s 7d   Marc: 9s 9h 9d" in text
        assert "Ana raises to 2  [strength 1.00]\nMarc accepts  [unsound, wrong: gave 1]" in text
        assert "  Trick 1: Ana 7h, Marc 9s -> Ana\n" in text
        assert "  Trick 2: Ana 7s, Marc 9h -> Ana\n" in text
        assert text.endswith("Ana wins 2 by tricks · score Ana 2, Marc 0\n")
        await pilot.press("n", "c")
        assert app.clipboard == SHOWN_HAND_2


def test_show_prints_a_hand(bluffs: str) -> None:
    result = CliRunner().invoke(main, ["show", bluffs, "--game", "bluff-1", "--hand", "2"])
    assert result.exit_code == 0, result.output
    assert result.output == SHOWN_HAND_2
    missing = CliRunner().invoke(main, ["show", bluffs, "--game", "bluff-1", "--hand", "7"])
    assert missing.exit_code == 1 and "no hand 7 (hands: 1, 2)" in missing.output
    nogame = CliRunner().invoke(main, ["show", bluffs, "--game", "nope", "--hand", "1"])
    assert nogame.exit_code == 1 and "no game with id 'nope'" in nogame.output
    absent = CliRunner().invoke(main, ["show", "absent.jsonl", "--game", "x", "--hand", "1"])
    assert absent.exit_code == 1 and "Traceback" not in absent.output
    assert "absent.jsonl" in absent.output


async def test_jumps_between_hands(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await open_replay(app, pilot)
        await pilot.press("n")
        assert "hand 2 (2/3)" in title_text(app) and "event 1/6" in title_text(app)
        await pilot.press("n", "n")  # there is no hand 4: stays on 3
        assert "hand 3 (3/3)" in title_text(app)
        await pilot.press("p")
        assert "hand 2" in title_text(app)
        await pilot.press("r")  # Ana's raise to 3, after the first trick
        assert "Ana raises to 3, Marc to answer" in table_text(app)
        assert "1 Marc 9♦ Ana T♥ → Ana" in table_text(app)
        await pilot.press("g", "1", "enter")
        assert "hand 1 (1/3)" in title_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, HandsScreen)


async def test_diagnostic_is_shown_at_its_event(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        replay = await open_replay(app, pilot)
        await pilot.press("n", "n")
        panel = app.screen.query_one("#replay-diagnostic", Static)
        assert not panel.has_class("-shown")
        lines = [frame.step.line for frame in replay.frames]
        await pilot.press(*["right"] * lines.index(22))
        assert "line 22" in title_text(app)
        assert panel.has_class("-shown")
        message = text_of(panel)
        assert "E304" in message and "9s" in message
        # the redeal: Ana asked before anything else, and the same dealer dealt again
        await pilot.press("home", "right")
        assert "redeal granted" in table_text(app)


async def test_four_player_table(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        await pilot.press("slash", *"marc+", "enter")
        replay = await open_replay(app, pilot)
        assert len(replay.game.players) == 4
        await pilot.press("right", "right", "right", "right")  # the first trick
        table = table_text(app)
        for player, team in [("Ana", "Ana+Lu"), ("Marc", "Marc+Zoé"), ("Lu", "Ana+Lu")]:
            assert f"{player} ({team})" in table
        assert "1 Ana 7♥ Marc 8♥ Lu A♠ Zoé K♠ → Ana+Lu" in table
        await pilot.press("end")
        assert "Ana+Lu wins 1 by tricks" in table_text(app)
        assert "Score  Ana+Lu 1  ·  Marc+Zoé 0" in table_text(app)


async def test_broken_and_missing_files_show_diagnostics(logs: str) -> None:
    app = BrowseApp([logs, "no-such-dir"])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        await pilot.press("D")
        assert isinstance(app.screen, DiagnosticsScreen)
        rows = rows_of(app.screen.query_one(DataTable))
        wheres = [row[0] for row in rows]
        assert "no-such-dir" in wheres
        assert any(w.startswith("logs/torn.truclog.jsonl:1") for w in wheres)
        illegal = next(i for i, row in enumerate(rows) if row[1] == "E304")
        app.screen.query_one(DataTable).move_cursor(row=illegal)
        await pilot.press("enter")
        assert isinstance(app.screen, ReplayScreen)
        assert "line 22" in title_text(app)


async def test_help_and_command_palette(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await open_replay(app, pilot)
        await pilot.press("question_mark")
        assert type(app.screen).__name__ == "BrowseHelpScreen"
        await pilot.press("escape")
        await pilot.press("ctrl+p", *"next hand")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert "hand 2" in title_text(app)


def test_default_sources_are_the_installed_samples_or_those_of_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (found,) = default_sources()
    assert Path(found) == truclog.samples()
    assert any(Path(found).glob("*four-players*.truclog.jsonl"))
    (tmp_path / "sample_logs").mkdir()
    assert default_sources() == [str(tmp_path / "sample_logs")]


async def test_browse_with_no_path_outside_a_checkout_lists_the_samples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = BrowseApp(default_sources())
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        ids = {row[0] for row in listed(app)}
        assert "cafe-du-port-2026-11-29-1" in ids
        assert not any(i.startswith("invalid-") for i in ids)  # left out by .truclogignore


async def wait_statistics(app: BrowseApp, pilot: Pilot[None]) -> DataTable[Any]:
    """Wait for the statistics, then for the ratings and answers counted after them."""
    screen = app.screen
    table = screen.query_one("#players-table", DataTable)
    for _ in range(3000):  # the screen's own rows, not only the app's: they come by message
        if table.row_count and getattr(screen, "hindsight", None) is not None:
            break
        await pilot.pause(0.02)
    await pilot.pause()
    await pilot.pause()
    return table


async def wait_still(app: BrowseApp, pilot: Pilot[None], seconds: float = 30.0) -> None:
    """Wait until the screen draws the same twice in a row, 0.1 s apart: nothing is still
    being drawn (a worker's news, a chart drawn after the table, the table's columns
    sized when it is next idle, later on a loaded machine); fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        await pilot.pause(0.1)
        shot = app.export_screenshot()
        if shot == last:
            return
        last = shot
    raise AssertionError(f"the screen was still changing after {seconds} s")


async def wait_players_drawn(app: BrowseApp, pilot: Pilot[None], seconds: float = 60.0) -> None:
    """Wait until the players screen has all it will draw: the statistics, then the
    ratings, from a worker that has finished; the plots shown or hidden for the screen's
    height; the charts of the player under the cursor; the table's columns sized to its
    rows (a DataTable measures rows added on its next idle: a screenshot before that
    draws a column narrower than its cells); then the same screen twice."""
    screen = app.screen
    assert isinstance(screen, PlayersScreen)
    deadline = time.monotonic() + seconds

    def drawn() -> bool:
        worker = app.counting
        tall = screen.size.height >= TALL
        return (
            screen.hindsight is not None
            and worker is not None
            and worker.is_finished
            and screen.query_one("#players-plots").display == tall
            and screen.charted == screen.player
            and not screen.table._require_update_dimensions
        )

    while not drawn():
        assert time.monotonic() < deadline, "the players screen never had all it draws"
        await pilot.pause(0.05)
    await wait_still(app, pilot, max(deadline - time.monotonic(), 1.0))


async def wait_found(app: BrowseApp, pilot: Pilot[None]) -> DataTable[Any]:
    await pilot.pause()  # a new choice starts a new search
    screen = app.screen
    assert isinstance(screen, FindHandsScreen)
    for _ in range(1000):
        if "searching" not in text_of(screen.query_one("#find-heading", Static)):
            break
        await pilot.pause(0.02)
    await pilot.pause()
    return screen.query_one("#find-table", DataTable)


async def test_players_screen_counts_validated_hands(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        await pilot.press("p")
        assert isinstance(app.screen, PlayersScreen)
        table = await wait_statistics(app, pilot)
        rows = {row[0]: row for row in rows_of(table)}
        assert set(rows) == {"Ana", "Marc", "Lu", "Zoé"}
        # hand 3 of cafe-1 has an error: only hands 1 and 2 there, and the club hand, count
        hands, raises, faced, folds, fold_rate = 2, 5, 6, 7, 8
        assert rows["Ana"][hands] == "3" and rows["Marc"][hands] == "3"
        assert rows["Zoé"][hands] == "2" and rows["Lu"][hands] == "2"
        assert rows["Ana"][raises] == "2" and rows["Marc"][raises] == "0"
        assert (rows["Marc"][faced], rows["Marc"][folds]) == ("2", "1")
        assert rows["Marc"][fold_rate].startswith("50% [")
        assert rows["Ana"][fold_rate] == "—"
        folds = text_of(app.screen.query_one("#players-folds", Static))
        assert "Marc" in folds and "1/2" in folds and "50%" in folds
        # the hands behind Ana's name: every hand she sat in
        table.move_cursor(row=list(rows).index("Ana"), column=0)
        await pilot.press("enter")
        found = await wait_found(app, pilot)
        assert [(r[0], r[1]) for r in rows_of(found)] == [
            ("cafe-1", "1"),
            ("cafe-1", "2"),
            ("cafe-1", "3"),
            ("club-4", "1"),
        ]
        found.move_cursor(row=3)
        await pilot.press("enter")
        assert isinstance(app.screen, ReplayScreen)
        assert "club-4 · hand 1" in title_text(app)
        # back on the players screen: statistics are kept, not counted again
        await pilot.press("escape", "escape")
        assert isinstance(app.screen, PlayersScreen)
        kept = app.stats
        await pilot.press("escape", "p")
        assert app.stats is kept and app.screen.query_one("#players-table", DataTable).row_count


async def test_the_hands_behind_a_number(bluffs: str) -> None:
    app = BrowseApp([bluffs])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        await pilot.press("p")
        table = await wait_statistics(app, pilot)
        rows = rows_of(table)
        marc = next(i for i, row in enumerate(rows) if row[0] == "Marc")
        assert rows[marc][10] == "1"  # one bluff
        table.move_cursor(row=marc, column=10)
        await pilot.press("enter")
        found = await wait_found(app, pilot)
        assert [(r[0], r[1]) for r in rows_of(found)] == [("bluff-1", "2")]


async def test_find_hands_by_event(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        await pilot.press("f")
        screen = app.screen
        assert isinstance(screen, FindHandsScreen)
        expected = {
            "fold to a raise": [("cafe-1", "2")],
            "redeal": [("cafe-1", "3")],
            "error": [("cafe-1", "3")],
            "reste": [],
            "raise": [("cafe-1", "1"), ("cafe-1", "2")],
        }
        for event, hands in expected.items():
            screen.query_one("#find-event", Select).value = event
            found = await wait_found(app, pilot)
            assert [(r[0], r[1]) for r in rows_of(found)] == hands, event
        screen.query_one("#find-event", Select).value = "raise"
        await wait_found(app, pilot)
        await pilot.click("#find-player")
        await pilot.press(*"marc", "enter")
        found = await wait_found(app, pilot)
        assert rows_of(found) == []
        heading = text_of(screen.query_one("#find-heading", Static))
        assert "raise · marc: 0 hands" in heading and "no hand matches" in heading


async def test_a_log_being_written_shows_its_new_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(browse_app, "FOLLOW_SECONDS", 0.1)
    log = tmp_path / "live.truclog.jsonl"
    write_log(log, CAFE[:10])  # the first hand of cafe-1
    app = BrowseApp([str(log)])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        assert [row[4:7] for row in listed(app)] == [["2–0", "—", "1"]]
        await pilot.press("enter")
        hands = app.screen.query_one("#hands-table", RowList)
        assert hands.count == 1
        with log.open("a", encoding="utf-8") as out:  # the recorder writes hand 2
            out.write("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in CAFE[10:16]))
        for _ in range(500):
            if hands.count == 2:
                break
            await pilot.pause(0.02)
        assert cells_of(hands)[1][:6] == ["2", "Ana", "1", "Ana", "1", "fold"]
        await pilot.press("escape")
        assert [row[4:7] for row in listed(app)] == [["3–0", "—", "2"]]
        with log.open("a", encoding="utf-8") as out:  # a new game, its line not yet ended
            out.write(json.dumps(CAFE[25], ensure_ascii=False) + "\n" + '{"type": "deal"')
        for _ in range(500):
            if len(listed(app)) == 2:
                break
            await pilot.pause(0.02)
        assert [row[0] for row in listed(app)] == ["cafe-1", "cafe-2"]


async def test_names_with_markup_and_huge_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    ana, marc = "[/]Ana[", "[b]Marc"
    write_log(
        tmp_path / "odd.truclog.jsonl",
        [
            {"type": "game", "format": "truclog/1", "id": "[red]x[/]",
             "rules": {"preset": "classic", "target": 40},
             "players": [ana, marc], "dealer": marc, "score": {ana: 37, marc: 0}},
            {"type": "deal", "hand": 1, "dealer": marc, "cards": {ana: ["7h", "Q", "9s"]}},
            {"type": "raise", "player": ana, "to": 2},
        ],
    )  # fmt: skip
    app = BrowseApp(["odd.truclog.jsonl"])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        row = listed(app)[0]
        assert row[0] == "[red]x[/]" and row[3] == f"{ana} v {marc}"
        assert "[red]x[/]" in drawn(app.screen.query_one(RowList), 1)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("right", "right")
        assert isinstance(app.screen, ReplayScreen)
        table = table_text(app)
        assert ana in table and marc in table and "37" in table
        await pilot.press("c")
        assert f"{ana} raises to 2" in app.clipboard


async def test_numbers_past_what_a_column_holds_do_not_kill_the_browser(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The validator stops them (E007), so the browser lists no such game and lives on."""
    monkeypatch.chdir(tmp_path)
    write_log(
        tmp_path / "huge.truclog.jsonl",
        [
            {"type": "game", "format": "truclog/1", "id": "huge",
             "rules": {"preset": "classic", "target": 2**70},
             "players": ["Ana", "Marc"], "dealer": "Marc", "score": {"Ana": 2**66, "Marc": 0}},
            {"type": "deal", "hand": 1, "dealer": "Marc", "cards": {"Ana": ["7h", "Q", "9s"]}},
        ],
    )  # fmt: skip
    app = BrowseApp(["huge.truclog.jsonl"])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        assert listed(app) == []
        assert app.is_running


async def test_a_pipe_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    data = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in BLUFF).encode()

    def write() -> None:
        with open(pipe, "wb") as out:
            out.write(data)

    writer = threading.Thread(target=write)
    writer.start()
    app = BrowseApp([str(pipe)])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        writer.join(timeout=5)
        assert [row[0] for row in listed(app)] == ["bluff-1"]
        await pilot.press("enter")  # the game is read again, from the copy
        assert isinstance(app.screen, HandsScreen) and len(app.screen.game.hands) == 2


SCREENS: dict[str, tuple[str, ...]] = {
    "games": (),
    "hands": ("enter",),
    "replay": ("enter", "enter", "right", "right", "right", "right", "right", "v"),
    "find": ("f",),
    "diagnostics": ("D",),
    "help": ("question_mark",),
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", [*SCREENS, "players"])
def test_snapshot(logs: str, snap_compare: Any, screen: str, size: tuple[int, int]) -> None:
    async def reach(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, BrowseApp)
        await wait_loaded(app, pilot)
        if screen == "players":
            await pilot.press("p")
            await wait_statistics(app, pilot)
            await wait_players_drawn(app, pilot)
        else:
            await pilot.press(*SCREENS[screen])
        if screen == "replay":
            await wait_as_of(app, pilot)
        if screen == "find":
            await wait_found(app, pilot)
            # the focused player field's cursor, drawn steady: a blink would make it flaky
            app.screen.query_one("#find-player", Input).cursor_blink = False
        await pilot.pause()

    assert snap_compare(BrowseApp([logs]), terminal_size=size, run_before=reach)


def test_cli_browses_the_bundled_samples_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[list[str]] = []

    def run(app: BrowseApp) -> None:
        """Not run: the index the command started before the app is stopped."""
        opened.append(app.sources)
        assert app.indexer is not None
        app.indexer[0].stop()

    monkeypatch.setattr(BrowseApp, "run", run)
    left: list[int] = []
    monkeypatch.setattr(browse_cli, "leave", left.append)
    result = CliRunner().invoke(main, ["browse"])
    assert result.exit_code == 0, result.output
    assert [Path(p).name for p in opened[0]] == ["sample_logs"] and left == [0]
    result = CliRunner().invoke(main, ["browse", "a.truclog.jsonl", "logs"])
    assert opened[1] == ["a.truclog.jsonl", "logs"]
    result = CliRunner().invoke(main, ["browse", "--bluff-threshold", "2", "logs"])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_cli_refuses_standard_input() -> None:
    result = CliRunner().invoke(main, ["browse", "-"])
    assert result.exit_code == 2
    assert "standard input" in result.output and "Traceback" not in result.output


def checked_games(source: str) -> list[CheckedGame]:
    return [g for g in check_logs([source]) if isinstance(g, CheckedGame)]


def test_score_through_the_game_and_hand_marks(logs: str) -> None:
    cafe = checked_games(logs)[0]
    assert score_series(cafe) == {"Ana": [0, 2, 3, 3], "Marc": [0, 0, 0, 0]}
    assert [hand_marks(hand) for hand in cafe.hands] == ["R", "RF", "DE"]
    assert [summarize_hand(hand).ending for hand in cafe.hands] == ["tricks", "fold", "undecided"]


def test_cards_revealed_later_stay_within_their_deal(logs: str) -> None:
    cafe = checked_games(logs)[0]
    first = hand_frames(cafe, cafe.hands[0])
    assert [str(c) for c in first[0].later["Marc"]] == ["As", "Jd", "Kc"]
    assert first[0].later["Ana"] == []  # her three cards were in the deal line
    assert [str(c) for c in first[-1].later["Marc"]] == []
    redealt = hand_frames(cafe, cafe.hands[2])
    assert redealt[0].later == {"Ana": [], "Marc": []}  # the redeal throws this deal away
    # after the second deal: Marc's 8d is played; his 8s comes after the error, unchecked
    assert [str(c) for c in redealt[2].later["Marc"]] == ["8d"]
    assert [d.code for d in redealt[5].diagnostics] == ["E304"]


@pytest.mark.parametrize("quick_core", [True, False])
def test_an_abandoned_game_reads_abandoned_whichever_validator_checked_it(
    quick_core: bool,
) -> None:
    from truclog.tui.browse.catalog import entry_of
    from truclog.validate import quick
    from truclog.validate.games import check_log

    if quick_core and not quick.AVAILABLE:
        pytest.skip("the quick core is not built")
    path = str(truclog.samples() / "2026-12-14-train-eight-high-abandoned.truclog.jsonl")
    items = quick.check_log(path) if quick_core else check_log(path)
    games = [item for item in items if not isinstance(item, Diagnostic)]
    winners = [entry_of(game, None, path, {}).winner for game in games]
    assert "abandoned" in winners and "—" not in winners


async def test_the_find_screen_takes_a_name_at_once_and_replays_from_the_event(
    logs: str,
) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        await pilot.press("f")
        await pilot.pause()
        await pilot.press(*"marc", "enter")  # typed straight away: no click, no Tab
        screen = app.screen
        assert isinstance(screen, FindHandsScreen)
        await wait_found(app, pilot)
        assert "any hand · marc" in text_of(screen.query_one("#find-heading", Static))
        screen.query_one("#find-event", Select).value = "fold to a raise"
        found = await wait_found(app, pilot)
        assert [(r[0], r[1]) for r in rows_of(found)] == [("cafe-1", "2")]
        found.focus()
        await pilot.press("enter")
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        frame = replay.frames[replay.position]
        assert str(frame.step.action) == "Marc folds"  # the event found, not the deal


@pytest.mark.parametrize("size", [(80, 24), (100, 44)])
async def test_the_players_screen_shows_many_players_and_a_legend_when_it_has_room(
    size: tuple[int, int],
) -> None:
    app = BrowseApp([str(truclog.samples())])
    async with app.run_test(size=size) as pilot:
        await wait_loaded(app, pilot)
        await pilot.press("p")
        table = await wait_statistics(app, pilot)
        assert table.row_count == 19
        shown = table.size.height - 1  # its header line
        legend = app.screen.query_one("#players-legend", Static)
        if size == (80, 24):
            assert shown >= 8  # not 4 of 19
            assert not legend.display  # the charts of games give their room to the table
        else:
            assert shown >= 12
            assert legend.display
            text = text_of(legend)
            assert text.startswith("points:") and "Ana" in text and "Jo" in text
