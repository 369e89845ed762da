"""Players: the statistics table, rates with their intervals, points through the log."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import DataTable, Footer, Header, Static
from textual_plotext import PlotextPlot

from truclog.tui.browse.index import summarize_hand
from truclog.tui.browse.screens.base import BrowseScreen, line_chart, row_table
from truclog.tui.browse.screens.games import game_date
from truclog.tui.browse.screens.hands import COLUMNS as HAND_COLUMNS
from truclog.tui.browse.screens.hands import hand_row
from truclog.tui.browse.standings import (
    player_statistics,
    points_over_time,
    rate_cell,
    rate_chart,
)
from truclog.validate import CheckedGame

COLUMNS = (
    ("player", "player"),
    ("games", "games"),
    ("hands", "hands_played"),
    ("won", "hands_won"),
    ("points", "points_won"),
    ("raises", "raises"),
    ("faced", "raises_faced"),
    ("folds", "folds_to_raise"),
    ("fold rate", "fold_rate"),
    ("known", "raises_known"),
    ("bluffs", "bluffs"),
    ("bluff rate", "bluff_rate"),
)
CHART_PLAYERS = 8
BATCH_ROWS = 500


def player_row(row: dict[str, Any]) -> tuple[str | Text, ...]:
    cells: list[str | Text] = []
    for _, key in COLUMNS:
        if key.endswith("_rate"):
            cells.append(rate_cell(row, key))
        elif key == "player":
            cells.append(Text(str(row[key]), style="bold"))
        else:
            cells.append(Text(str(row[key]), justify="right"))
    return tuple(cells)


class PlayersScreen(BrowseScreen):
    """Every player's statistics over the games loaded; pick one to see their hands."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "hands", "Their hands", id="players.hands"),
        Binding("u", "update", "Update", id="players.update"),
        Binding("escape", "app.pop_screen", "Back", id="players.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, Any]] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("computing statistics…", id="players-heading")
        yield row_table("players-table", COLUMNS)
        with Horizontal(id="players-charts"):
            yield Static(id="players-folds")
            yield Static(id="players-bluffs")
        yield PlotextPlot(id="players-points")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "players"
        self.query_one("#players-table", DataTable).focus()
        self.action_update()

    def action_update(self) -> None:
        games = list(self.browse.index.games)
        self.query_one("#players-heading", Static).update(
            f"computing statistics of {len(games)} games…"
        )
        self.compute(games, self.browse.loaded)

    @work(thread=True, exclusive=True, group="players", exit_on_error=False)
    def compute(self, games: list[CheckedGame], complete: bool) -> None:
        def tick(done: int) -> None:
            self.browse.wait_for_quiet()
            self.app.call_from_thread(self.counting, done, len(games))

        rows = player_statistics(games, tick)
        names = [r["player"] for r in sorted(rows, key=lambda r: -r["hands_played"])]
        points = points_over_time(games, names[:CHART_PLAYERS])
        self.app.call_from_thread(self.show, rows, points, len(games), complete)

    def counting(self, done: int, total: int) -> None:
        self.query_one("#players-heading", Static).update(
            f"computing statistics: {done} of {total} games counted…"
        )

    def show(
        self, rows: list[dict[str, Any]], points: dict[str, list[int]], games: int, complete: bool
    ) -> None:
        self.rows = rows
        table = self.query_one("#players-table", DataTable)
        table.clear()
        for row in rows:
            table.add_row(*player_row(row), key=str(row["player"]))
        heading = Text(f"{len(rows)} players over {games} games", style="bold")
        heading.append(" · validated hands only, each game once", style="dim")
        if not complete:
            heading.append(" · the logs are still loading: u updates", style="yellow")
        self.query_one("#players-heading", Static).update(heading)
        self.query_one("#players-folds", Static).update(
            rate_chart(rows, "fold_rate", "folds_to_raise", "raises_faced")
        )
        self.query_one("#players-bluffs", Static).update(
            rate_chart(rows, "bluff_rate", "bluffs", "raises_known")
        )
        self.draw_points(points)

    def draw_points(self, points: dict[str, list[int]]) -> None:
        plot = self.query_one("#players-points", PlotextPlot)
        line_chart(plot, points, "points won, hand after hand", "hands played")
        plot.refresh()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_hands()

    def action_hands(self) -> None:
        row = self.query_one("#players-table", DataTable).cursor_row
        if 0 <= row < len(self.rows):
            self.app.push_screen(PlayerHandsScreen(str(self.rows[row]["player"])))


class PlayerHandsScreen(BrowseScreen):
    """Every hand a player sat in, filled in as they are summed up; enter replays one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "replay", "Replay", id="player_hands.replay"),
        Binding("escape", "app.pop_screen", "Back", id="player_hands.back"),
    ]

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = player
        self.hands: list[tuple[CheckedGame, int]] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(Text(f"hands of {self.player}", style="bold"), id="player-hands-heading")
        yield row_table("player-hands-table", ("game", "date", *HAND_COLUMNS))
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"hands of {self.player}"
        self.query_one(DataTable).focus()
        self.collect([g for g in self.browse.index.games if self.player in g.players])

    @work(thread=True, exclusive=True, group="player_hands", exit_on_error=False)
    def collect(self, games: list[CheckedGame]) -> None:
        batch: list[tuple[CheckedGame, int, tuple[str | Text, ...]]] = []
        for game in games:
            for i, hand in enumerate(game.hands):
                row = (game.id, game_date(game), *hand_row(game, summarize_hand(hand)))
                batch.append((game, i, row))
            if len(batch) >= BATCH_ROWS:
                self.browse.wait_for_quiet()
                self.app.call_from_thread(self.add_rows, batch)
                batch = []
        self.app.call_from_thread(self.add_rows, batch)

    def add_rows(self, batch: list[tuple[CheckedGame, int, tuple[str | Text, ...]]]) -> None:
        table = self.query_one(DataTable)
        for game, hand, row in batch:
            self.hands.append((game, hand))
            table.add_row(*row)
        heading = Text(f"hands of {self.player}", style="bold")
        heading.append(f" · {len(self.hands)} hands", style="dim")
        self.query_one("#player-hands-heading", Static).update(heading)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_replay()

    def action_replay(self) -> None:
        row = self.query_one(DataTable).cursor_row
        if 0 <= row < len(self.hands):
            game, hand = self.hands[row]
            self.browse.open_hand(game, hand)
