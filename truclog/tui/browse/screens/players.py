"""Players: the statistics table, rates with their intervals, points game after game.

Statistics are counted once, in the background (with a progress bar), and kept
by the app; any number of the table opens the hands behind it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import DataTable, Footer, Header, ProgressBar, Static
from textual_plotext import PlotextPlot

from truclog.tui.browse.messages import StatsCounted, StatsReady
from truclog.tui.browse.screens.base import BrowseScreen, line_chart, row_table
from truclog.tui.browse.standings import points_by_game, rate_cell, rate_chart

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
BEHIND: dict[str, str | None] = {
    "raises": "raise",
    "raises_known": "raise",
    "raises_faced": "fold to a raise",
    "folds_to_raise": "fold to a raise",
    "fold_rate": "fold to a raise",
    "bluffs": "bluff",
    "bluff_rate": "bluff",
}
"""The event of the hands behind a column (``None``: every hand the player sat in)."""
CHART_PLAYERS = 8


def player_row(row: dict[str, Any]) -> tuple[str | Text, ...]:
    cells: list[str | Text] = []
    for _, key in COLUMNS:
        if key.endswith("_rate"):
            cells.append(Text(rate_cell(row, key)))
        elif key == "player":
            cells.append(Text(str(row[key]), style="bold"))
        else:
            cells.append(Text(str(row[key]), justify="right"))
    return tuple(cells)


class PlayersScreen(BrowseScreen):
    """Every player's statistics; enter on a number lists the hands behind it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "hands", "Hands behind", id="players.hands"),
        Binding("escape", "app.pop_screen", "Back", id="players.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, Any]] = []

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="players-bar"):
            yield Static("counting statistics…", id="players-heading")
            yield ProgressBar(id="players-progress", show_eta=False)
        table = row_table("players-table", COLUMNS)
        table.cursor_type = "cell"
        yield table
        with Horizontal(id="players-charts"):
            yield Static(id="players-folds")
            yield Static(id="players-bluffs")
        yield PlotextPlot(id="players-points")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "players"
        self.table.focus()
        ready = self.browse.stats
        if ready is not None:
            self.on_stats_ready(ready)
        else:
            self.browse.count_statistics(self)

    @property
    def table(self) -> DataTable[Any]:
        return self.query_one("#players-table", DataTable)

    def on_stats_counted(self, message: StatsCounted) -> None:
        bar = self.query_one("#players-progress", ProgressBar)
        bar.update(total=max(message.total, 1), progress=min(message.hands, message.total))
        self.query_one("#players-heading", Static).update(
            Text(f"counting statistics: {message.hands} of {message.total} hands…")
        )

    def on_stats_ready(self, message: StatsReady) -> None:
        self.rows = message.rows
        self.query_one("#players-progress", ProgressBar).update(total=1, progress=1)
        table = self.table
        table.clear()
        table.add_rows(player_row(row) for row in message.rows)
        heading = Text(f"{len(message.rows)} players over {message.games} games", style="bold")
        heading.append(" · validated hands only, each game once", style="dim")
        self.query_one("#players-heading", Static).update(heading)
        self.query_one("#players-folds", Static).update(
            rate_chart(message.rows, "fold_rate", "folds_to_raise", "raises_faced")
        )
        self.query_one("#players-bluffs", Static).update(
            rate_chart(message.rows, "bluff_rate", "bluffs", "raises_known")
        )
        names = [r["player"] for r in sorted(message.rows, key=lambda r: -r["hands_played"])]
        points = points_by_game(self.browse.catalog.entries, names[:CHART_PLAYERS])
        plot = self.query_one("#players-points", PlotextPlot)
        line_chart(plot, points, "points at the end of each game, added up", "games played")
        plot.refresh()

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        self.action_hands()

    def action_hands(self) -> None:
        """The hands behind the number under the cursor (a player's hands for a name)."""
        row, column = self.table.cursor_coordinate
        if 0 <= row < len(self.rows):
            key = COLUMNS[column][1]
            self.browse.find_hands(str(self.rows[row]["player"]), BEHIND.get(key))
