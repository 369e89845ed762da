"""``truclog browse`` driven through Textual's pilot: what each screen shows, and moving around.

The logs are written here by hand from rules.md (classic: 7 8 A K Q J T 9;
sackson: A K Q J T 9 8 7), so every expectation comes from the rules, not
from the code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

import truclog
from truclog.cli import main
from truclog.tui.browse import BrowseApp
from truclog.tui.browse.index import (
    default_sources,
    hand_frames,
    hand_marks,
    score_series,
    summarize_hand,
)
from truclog.tui.browse.screens import (
    DiagnosticsScreen,
    GamesScreen,
    HandsScreen,
    PlayerHandsScreen,
    PlayersScreen,
    ReplayScreen,
)
from truclog.tui.widgets import TableView
from truclog.validate import CheckedGame, check_logs

SIZE = (120, 36)

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


def text_of(widget: Static) -> str:
    """What a static widget shows, as plain text."""
    console = Console(width=200, record=True, color_system=None)
    console.print(widget.content)
    return console.export_text()


def rows_of(table: DataTable[Any]) -> list[list[str]]:
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


async def wait_loaded(app: BrowseApp, pilot: Pilot[None]) -> None:
    for _ in range(500):
        if app.loaded:
            break
        await pilot.pause(0.02)
    await pilot.pause()
    assert app.loaded


def table_text(app: BrowseApp) -> str:
    return text_of(app.screen.query_one(TableView))


def title_text(app: BrowseApp) -> str:
    return text_of(app.screen.query_one("#replay-title", Static))


async def open_replay(app: BrowseApp, pilot: Pilot[None], game_row: int = 0) -> ReplayScreen:
    await wait_loaded(app, pilot)
    games = app.screen.query_one("#games-table", DataTable)
    games.move_cursor(row=game_row)
    await pilot.press("enter")
    await pilot.press("enter")
    assert isinstance(app.screen, ReplayScreen)
    return app.screen


async def test_games_screen_lists_every_game(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        assert isinstance(app.screen, GamesScreen)
        rows = rows_of(app.screen.query_one("#games-table", DataTable))
        by_players = {row[1]: row for row in rows}
        assert set(by_players) == {"Ana v Marc", "Zoé v Lu", "Ana+Lu v Marc+Zoé"}
        ana = by_players["Ana v Marc"]
        assert ana[0] == "2026-11-29" and ana[2] == "classic"
        assert ana[3] == "3–0"  # hand 3 broke off at an illegal play
        assert ana[5] == "3" and int(ana[6]) >= 1
        assert by_players["Zoé v Lu"][2:6] == ["sackson", "1–0", "—", "1"]
        assert by_players["Ana+Lu v Marc+Zoé"][3] == "1–0"
        status = str(app.screen.query_one("#games-status").render())
        assert "3 games" in status and "5 hands" in status


async def test_filter_by_player_and_sort(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        table = app.screen.query_one("#games-table", DataTable)
        await pilot.press("slash", *"zo")
        assert [row[1] for row in rows_of(table)] == ["Zoé v Lu", "Ana+Lu v Marc+Zoé"]
        await pilot.press("enter", "escape")
        assert table.row_count == 3
        await pilot.press("s")  # by date
        assert [row[0] for row in rows_of(table)] == ["2026-11-27", "2026-11-28", "2026-11-29"]
        await pilot.press("r")
        assert [row[0] for row in rows_of(table)] == ["2026-11-29", "2026-11-28", "2026-11-27"]
        await pilot.click("#games-table", offset=(60, 0))  # a click on the "hands" header
        await pilot.pause()
        assert [row[5] for row in rows_of(table)] == ["1", "1", "3"]


async def test_hands_screen_shows_how_each_hand_ended(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        await pilot.press("enter")
        assert isinstance(app.screen, HandsScreen)
        rows = rows_of(app.screen.query_one("#hands-table", DataTable))
        assert rows[0][:7] == ["1", "Marc", "2", "Ana", "2", "tricks", "R"]
        assert rows[1][:7] == ["2", "Ana", "1", "Ana", "1", "fold", "RF"]
        assert rows[2][0:2] == ["3", "Marc"]
        assert "D" in rows[2][6] and "E" in rows[2][6]
        assert rows[1][7] == "3–0"
        await pilot.press("escape")
        assert isinstance(app.screen, GamesScreen)


async def test_stepping_through_a_hand(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        replay = await open_replay(app, pilot)
        assert "hand 1" in title_text(app) and "event 1 of 9" in title_text(app)
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
        assert "Ana wins 2 by tricks" in table and "Tricks  1 Ana · 2 Ana" in table
        assert "Score  Ana 2  ·  Marc 0" in table
        await pilot.press("home")
        assert replay.position == 0
        await pilot.press("r")
        assert "event 2 of 9" in title_text(app)
        await pilot.press("r")  # no other raise in hand 1: stays
        assert "event 2 of 9" in title_text(app)
        events = app.screen.query_one("#replay-events", DataTable)
        assert events.cursor_row == 1
        await pilot.click("#replay-events", offset=(8, 5))  # the header, then line 6: Marc's As
        await pilot.pause()
        assert "event 5 of 9" in title_text(app) and "A♠" in table_text(app)


async def test_reveal_toggles_between_onlooker_and_log(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await open_replay(app, pilot)
        onlooker = table_text(app)
        assert "what an onlooker knew" in title_text(app)
        assert "7♥" not in onlooker and onlooker.count("▒▒") == 6
        await pilot.press("v")
        revealed = table_text(app)
        assert "everything the log reveals" in title_text(app)
        # Ana's cards from the deal line; Marc's from his later plays and his show
        for card in ("7♥", "Q ", "9♠", "A♠", "J♦", "K♣"):
            assert card in revealed
        assert "▒▒" not in revealed
        await pilot.press("end", "v")
        after = table_text(app)  # onlooker again, after Marc showed his king
        assert "K♣" in after and "9♠" not in after


async def test_jumps_between_hands(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await open_replay(app, pilot)
        await pilot.press("n")
        assert "hand 2 (2 of 3)" in title_text(app) and "event 1 of 6" in title_text(app)
        await pilot.press("n", "n")  # there is no hand 4: stays on 3
        assert "hand 3 (3 of 3)" in title_text(app)
        await pilot.press("p")
        assert "hand 2" in title_text(app)
        await pilot.press("r")  # Ana's raise to 3, after the first trick
        assert "Ana raises to 3, Marc to answer" in table_text(app)
        assert "Tricks  1 Ana" in table_text(app)
        await pilot.press("g", "1", "enter")
        assert "hand 1 (1 of 3)" in title_text(app)
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
        assert "Tricks  1 Ana+Lu" in table
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


def test_default_sources_find_the_bundled_samples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    if not (Path(truclog.__file__).resolve().parents[1] / "sample_logs").is_dir():
        pytest.skip("truclog is installed from a wheel: no checkout beside it to bundle samples")
    (found,) = default_sources()
    assert Path(found).name == "sample_logs" and Path(found).is_dir()
    (tmp_path / "sample_logs").mkdir()
    assert default_sources() == [str(tmp_path / "sample_logs")]


async def wait_statistics(app: BrowseApp, pilot: Pilot[None]) -> DataTable[Any]:
    table = app.screen.query_one("#players-table", DataTable)
    for _ in range(1000):
        if table.row_count:
            break
        await pilot.pause(0.02)
    return table


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
        table.move_cursor(row=list(rows).index("Ana"))
        await pilot.press("enter")
        assert isinstance(app.screen, PlayerHandsScreen)
        hands_table = app.screen.query_one(DataTable)
        for _ in range(500):
            if hands_table.row_count == 4:
                break
            await pilot.pause(0.02)
        hand_rows = rows_of(hands_table)
        assert [(r[0], r[2]) for r in hand_rows] == [
            ("cafe-1", "1"),
            ("cafe-1", "2"),
            ("cafe-1", "3"),
            ("club-4", "1"),
        ]
        app.screen.query_one(DataTable).move_cursor(row=3)
        await pilot.press("enter")
        assert isinstance(app.screen, ReplayScreen)
        assert "club-4 · hand 1" in title_text(app)


def snapshot_app(logs: str) -> BrowseApp:
    return BrowseApp([logs])


def test_snapshot_games(logs: str, snap_compare: Any) -> None:
    async def loaded(pilot: Pilot[None]) -> None:
        await wait_loaded(pilot.app, pilot)  # type: ignore[arg-type]

    assert snap_compare(snapshot_app(logs), terminal_size=SIZE, run_before=loaded)


def test_snapshot_hands(logs: str, snap_compare: Any) -> None:
    async def hands(pilot: Pilot[None]) -> None:
        await wait_loaded(pilot.app, pilot)  # type: ignore[arg-type]
        await pilot.press("enter")

    assert snap_compare(snapshot_app(logs), terminal_size=SIZE, run_before=hands)


def test_snapshot_replay(logs: str, snap_compare: Any) -> None:
    async def replay(pilot: Pilot[None]) -> None:
        await wait_loaded(pilot.app, pilot)  # type: ignore[arg-type]
        await pilot.press("enter", "enter", "right", "right", "right", "right", "v")

    assert snap_compare(snapshot_app(logs), terminal_size=SIZE, run_before=replay)


def test_snapshot_players(logs: str, snap_compare: Any) -> None:
    async def players(pilot: Pilot[None]) -> None:
        await wait_loaded(pilot.app, pilot)  # type: ignore[arg-type]
        await pilot.press("p")
        await wait_statistics(pilot.app, pilot)  # type: ignore[arg-type]
        await pilot.pause()

    assert snap_compare(snapshot_app(logs), terminal_size=SIZE, run_before=players)


def test_cli_browses_the_bundled_samples_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[list[str]] = []
    monkeypatch.setattr(BrowseApp, "run", lambda self: opened.append(self.sources))
    result = CliRunner().invoke(main, ["browse"])
    assert result.exit_code == 0, result.output
    assert [Path(p).name for p in opened[0]] == ["sample_logs"]
    result = CliRunner().invoke(main, ["browse", "a.truclog.jsonl", "logs"])
    assert opened[1] == ["a.truclog.jsonl", "logs"]


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
