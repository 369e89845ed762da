"""The browser's study tools through Textual's pilot: the statistics as of the hand beside
the replay, a player's leaks, the rates by month on the players screen, the score plot;
and their snapshots at 80x24 and 160x50.

The logs are those of ``test_browse`` (written there by hand from the rules), and
a second file whose games come after them.
"""

from __future__ import annotations

import signal
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from test_browse import (
    BLUFF,
    CAFE,
    CLUB,
    text_of,
    wait_as_of,
    wait_loaded,
    wait_statistics,
    write_log,
)
from test_browse_mistakes import spy_children
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import DataTable, Input
from textual_plotext import PlotextPlot

from truclog.stats.asof import read_as_of
from truclog.tui.browse import BrowseApp
from truclog.tui.browse.asof import AsOfPanel, count_in_child
from truclog.tui.browse.screens import LeaksScreen, PlayersScreen, ReplayScreen
from truclog.tui.browse.screens.base import CHART_POINTS, line_chart
from truclog.tui.widgets.rows import RowList

SIZE = (120, 36)
SIZES = [(80, 24), (160, 50)]


@pytest.fixture
def logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """``a-cafe`` (cafe-1, then cafe-2), ``b-bluff`` (bluff-1), ``c-club``: in this order."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "logs"
    folder.mkdir()
    write_log(folder / "a-cafe.truclog.jsonl", CAFE)
    write_log(folder / "b-bluff.truclog.jsonl", BLUFF)
    write_log(folder / "c-club.truclog.jsonl", CLUB)
    return "logs"


async def as_of_text(app: BrowseApp, pilot: Pilot[None]) -> str:
    """The as-of panel's text, once counted."""
    await wait_as_of(app, pilot)
    return text_of(app.screen.query_one(AsOfPanel))


async def replay(app: BrowseApp, pilot: Pilot[None], game: int, hand: int) -> ReplayScreen:
    """Replay hand ``hand`` (0-based) of the ``game``-th game of the list."""
    await wait_loaded(app, pilot)
    app.screen.query_one(RowList).go(game)
    await pilot.press("enter", "enter")
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    if hand:
        screen.jump_to_hand(hand)
        await pilot.pause()
    return screen


def counts(panel: str, player: str) -> list[str]:
    """A player's line of the panel: ``[fold, fold n, bluff, bluff n]``."""
    line = next(row for row in panel.splitlines() if row.split()[:1] == [player])
    return line.split()[1:]


async def test_the_panel_never_counts_this_hand_or_a_later_one(logs: str) -> None:
    """bluff-1 (second file): in hand 1 Ana raises with three sevens (no bluff), Marc
    accepts; in hand 2 Marc bluffs with three nines and Ana folds. cafe-1 (first file)
    comes before: there Marc accepted one raise and folded to another, and Ana raised
    twice with hands known to the log (7h Q 9s: a bluff; 8c Kd Th)."""
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        screen = await replay(app, pilot, 2, 0)  # the list: cafe-1, cafe-2, bluff-1, club-4
        assert "bluff-1 · hand 1" in text_of(screen.query_one("#replay-title"))
        panel = await as_of_text(app, pilot)
        assert "as of hand 1" in panel
        # before bluff-1's hand 1: only cafe-1 (cafe-2 is Zoé and Lu's)
        assert counts(panel, "Marc") == ["50%", "1/2", "—", "0/0"]
        assert counts(panel, "Ana") == ["—", "0/0", "50%", "1/2"]
        screen.jump_to_hand(1)  # hand 2: hand 1 counts now, hand 2 (Ana's fold) not yet
        await pilot.pause()
        panel = text_of(screen.query_one(AsOfPanel))
        assert counts(panel, "Marc") == ["33%", "1/3", "—", "0/0"]
        assert counts(panel, "Ana") == ["—", "0/0", "33%", "1/3"]
        await pilot.press("right", "right")  # stepping within the hand changes nothing
        assert text_of(screen.query_one(AsOfPanel)) == panel
        await pilot.press("i")
        assert not screen.query_one(AsOfPanel).display


async def test_the_first_hand_of_the_first_file_sees_nothing(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await replay(app, pilot, 0, 0)
        panel = await as_of_text(app, pilot)
        assert counts(panel, "Ana") == ["—", "0/0", "—", "0/0"]
        assert counts(panel, "Marc") == ["—", "0/0", "—", "0/0"]


def as_of_children(started: list[subprocess.Popen[bytes]]) -> list[subprocess.Popen[bytes]]:
    return [c for c in started if isinstance(c.args, list) and "truclog.tui.browse.asof" in c.args]


async def test_the_counts_come_from_a_process_of_their_own(
    logs: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counted in the browser's process, the counts held its screens back while they ran:
    they come from a child process, the same as counted here, its file gone after."""
    started = spy_children(monkeypatch)
    temporary = tmp_path / "temporary"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await replay(app, pilot, 2, 1)
        await as_of_text(app, pilot)
        await pilot.press("escape", "escape", "enter", "enter")  # another replay: counted once
        assert isinstance(app.screen, ReplayScreen)
        counted = app.as_of.as_of
        assert counted is not None
    children = as_of_children(started)
    assert len(children) == 1 and children[0].returncode is not None  # none left behind
    assert list(temporary.iterdir()) == []
    files = sorted(str(p) for p in Path(logs).iterdir())
    here = read_as_of(files)
    assert here is not None and counted.hands == here.hands > 0
    for path in files:
        for line in (1, 20, 40):
            for hand in (1, 2, 3):
                for player in ("Ana", "Marc", "Zoé", "Lu"):
                    mine = counted.before(player, path, line, hand)
                    assert mine == here.before(player, path, line, hand)


def test_the_counting_process_is_killed_when_told_to_stop(
    logs: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = spy_children(monkeypatch)
    files = sorted(str(p) for p in Path(logs).iterdir())
    assert count_in_child(files, 0.5, lambda hands: None, lambda: True) is None
    (child,) = as_of_children(started)
    assert child.returncode == -signal.SIGKILL


def test_a_failed_count_is_an_error_to_show(logs: str) -> None:
    with pytest.raises(RuntimeError) as failed:
        count_in_child([logs], 2.0, lambda hands: None, lambda: False)  # no such threshold
    assert str(failed.value) and "Traceback" not in str(failed.value)


async def test_leaks_from_the_players_screen_and_the_palette(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        await pilot.press("p")
        table = await wait_statistics(app, pilot)
        players = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        table.move_cursor(row=players.index("Marc"), column=0)
        await pilot.press("l")
        screen = app.screen
        assert isinstance(screen, LeaksScreen) and screen.player == "Marc"
        leaks = await wait_leaks(app, pilot)
        situations = [str(leaks.get_row_at(i)[0]) for i in range(leaks.row_count)]
        # Marc answered a raise to 2 level (cafe-1, 0-0: accepted; bluff-1, 0-0: accepted),
        # and a raise to 3 behind (cafe-1, 0-2: folded)
        assert "answer a raise to 2, level" in situations
        assert "answer a raise to 3, behind" in situations
        at = situations.index("answer a raise to 3, behind")
        assert str(leaks.get_row_at(at)[1]) == "100% (1/1)"
        leaks.move_cursor(row=at)
        await pilot.pause()
        chart = text_of(screen.query_one("#leaks-chart"))
        assert "answer a raise to 3, behind: how often fold" in chart
        assert "winners  ····" in chart  # nobody has 20 hands: no winning player
        await pilot.press("minus", "minus", "minus", "minus", "minus")  # 20 -> 1 hand
        assert screen.min_hands == 1
        await pilot.press("escape", "escape")
        # from the palette, anywhere: asks for the player
        app.action_leaks()
        await pilot.pause()
        field = app.screen.query_one(Input)
        field.value = "ana"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LeaksScreen) and app.screen.player == "Ana"


async def wait_leaks(app: BrowseApp, pilot: Pilot[None]) -> DataTable[Any]:
    for _ in range(500):
        if app.leak_counts is not None:
            break
        await pilot.pause(0.02)
    await pilot.pause()
    assert app.leak_counts is not None
    return app.screen.query_one("#leaks-table", DataTable)


async def test_rates_by_month_follow_the_cursor(logs: str) -> None:
    app = BrowseApp([logs])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        await pilot.press("p")
        table = await wait_statistics(app, pilot)
        screen = app.screen
        assert isinstance(screen, PlayersScreen)
        for _ in range(500):
            if screen.hindsight is not None:
                break
            await pilot.pause(0.02)
        await pilot.pause()
        players = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        table.move_cursor(row=players.index("Marc"), column=0)
        await pilot.pause()
        months = screen.hindsight.months if screen.hindsight else []
        marc = {r["month"]: r for r in months if r["player"] == "Marc"}
        # cafe-1 and bluff-1 are in November 2026: 3 raises faced (1 folded), 1 bluff of 1
        assert marc["2026-11"]["raises_faced"] == 3 and marc["2026-11"]["folds_to_raise"] == 1
        assert marc["2026-11"]["bluffs"] == 1 and marc["2026-11"]["raises_known"] == 1
        plot = screen.query_one("#players-months", PlotextPlot)
        drawn = Text.from_ansi(plot.plt.build()).plain
        assert "Marc: fold and bluff rates by month, %" in drawn
        assert "fold rate (n 3)" in drawn and "bluff rate (n 1)" in drawn
        assert "2026-11" in drawn and "95% interval" in drawn


def test_the_score_chart_ticks_are_whole_hands(logs: str) -> None:
    from truclog.stats.charts import nice_ticks

    assert nice_ticks(0, 3, 11, whole=True) == [0, 1, 2, 3]


async def settled(table: DataTable[Any], pilot: Pilot[None]) -> None:
    """Wait until the table's size holds still: its columns are sized after its rows
    come, later on a loaded machine."""
    last = None
    for _ in range(50):
        await pilot.pause(0.1)
        size = (
            table.virtual_size,
            tuple(c.get_render_width(table) for c in table.columns.values()),
        )
        if size == last:
            return
        last = size


SCREENS: dict[str, tuple[str, ...]] = {
    "replay": ("enter", "enter", "n"),
    "hands": ("enter",),
    "players": ("p",),
    "leaks": ("p",),
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", list(SCREENS))
def test_snapshot(logs: str, snap_compare: Any, screen: str, size: tuple[int, int]) -> None:
    async def reach(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, BrowseApp)
        await wait_loaded(app, pilot)
        await pilot.press(*SCREENS[screen])
        if screen == "replay":
            await wait_as_of(app, pilot)
        if screen == "hands":
            for _ in range(500):
                if app.screen.query("#hands-chart"):
                    break
                await pilot.pause(0.02)
            await pilot.pause(0.3)  # the chart is mounted after the hands are drawn
        if screen in ("players", "leaks"):
            await wait_statistics(app, pilot)
            players = app.screen
            assert isinstance(players, PlayersScreen)
            for _ in range(500):
                if players.hindsight is not None:
                    break
                await pilot.pause(0.02)
            await settled(players.table, pilot)
            await pilot.pause(0.3)  # the month chart is drawn after the table settles
        if screen == "leaks":
            players.table.move_cursor(row=2, column=0)  # Marc
            await pilot.press("l")
            await settled(await wait_leaks(app, pilot), pilot)
        await pilot.pause()

    assert snap_compare(BrowseApp([logs]), terminal_size=size, run_before=reach)


async def test_a_long_line_is_drawn_from_some_of_its_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """200,000 games' points took plotext seconds to draw, more than a chart shows: a
    line draws at most about CHART_POINTS of them, the first and the last always."""

    class Chart(App[None]):
        def compose(self) -> ComposeResult:
            yield PlotextPlot()

    app = Chart()
    async with app.run_test(size=(80, 24)) as pilot:
        plot = app.query_one(PlotextPlot)
        drawn: list[tuple[list[int], list[int]]] = []
        plotted = plot.plt.plot
        monkeypatch.setattr(
            plot.plt, "plot", lambda x, y, **kw: drawn.append((x, y)) or plotted(x, y, **kw)
        )
        games = 20_000
        line_chart(plot, {"Ana": [2 * g for g in range(games)], "Marc": [1, 2]}, "", "", True)
        plot.refresh()
        await pilot.pause()
        (xs, ys), (short, _) = drawn
        assert len(xs) <= CHART_POINTS + 1 and xs[0] == 0 and xs[-1] == games - 1
        assert ys == [2 * x for x in xs] and xs == sorted(set(xs))
        assert short == [0, 1]
