"""Players: the statistics table, rates with their intervals, points game after game,
each player's OpenSkill ordinal and its chart, and their costliest answers.

Statistics are counted once, in the background (with a progress bar), and kept
by the app; then the same worker reads the games again for the ratings and the
answers that gave points away. Any number of the table opens the hands behind it;
the points given, the player's costliest answers.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import DataTable, Header, ProgressBar, Static
from textual_plotext import PlotextPlot

from truclog.names import name_key
from truclog.stats.charts import nice_ticks
from truclog.tui.browse.messages import StatsCounted, StatsReady
from truclog.tui.browse.plots import months_chart
from truclog.tui.browse.screens.answers import CostlyAnswersScreen
from truclog.tui.browse.screens.base import (
    BrowseScreen,
    legend,
    line_chart,
    row_table,
)
from truclog.tui.browse.standings import Hindsight, Rated, points_by_game, rate_cell, rate_chart
from truclog.tui.widgets.footer import KeysFooter

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
    ("given", "points_given"),
    ("ordinal", "ordinal"),
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
TALL = 36
"""Lines a screen needs for the charts of games under the table and the rates."""


def player_row(row: dict[str, Any], ordinal: str) -> tuple[str | Text, ...]:
    """A player's row of statistics, ``ordinal`` their rating."""
    cells: list[str | Text] = []
    for _, key in COLUMNS:
        if key == "ordinal":
            cells.append(Text(ordinal, justify="right"))
        elif key.endswith("_rate"):
            cells.append(Text(rate_cell(row, key)))
        elif key == "player":
            cells.append(Text(str(row[key]), style="bold"))
        else:
            cells.append(Text(str(row[key]), justify="right"))
    return tuple(cells)


def ordinal_chart(plot: PlotextPlot, rated: Rated | None, player: str | None) -> None:
    """Draw a player's ordinal from their first game to now (every ``stride``-th game of
    a long history); without a player, say that games are being rated."""
    plt = plot.plt
    plt.clear_data()
    plt.clear_figure()
    if player is None:
        plt.title("ordinal: rating games…")
    elif rated is None:
        plt.title(f"{player}: no finished game, no rating")
    else:
        games, ordinals = zip(*rated.trail, strict=True)
        plt.plot(list(games), list(ordinals), marker="braille")
        plt.xticks(nice_ticks(min(games), max(games), 5, whole=True))
        after = f"{rated.games} game{'s' * (rated.games != 1)}"
        plt.title(f"{player}: ordinal {rated.ordinal:.2f} after {after}")
        every = f" (a point every {rated.stride} games)" if rated.stride > 1 else ""
        plt.xlabel(f"games played{every}")
    plot.refresh()


class PlayersScreen(BrowseScreen):
    """Every player's statistics and rating; enter on a number lists the hands behind it,
    on the points given (or ``a``) the player's costliest answers."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "hands", "Hands behind", id="players.hands"),
        Binding("a", "answers", "Costly answers", id="players.answers"),
        Binding("l", "app.leaks", "Leaks", id="players.leaks"),
        Binding("escape", "app.pop_screen", "Back", id="players.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, Any]] = []
        self.hindsight: Hindsight | None = None
        self.ratings: dict[str, Rated] = {}
        self.charted: str | None = None

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
        yield Static(id="players-legend")
        with Horizontal(id="players-plots"):
            yield PlotextPlot(id="players-points")
            yield PlotextPlot(id="players-ordinal")
            yield PlotextPlot(id="players-months")
        yield KeysFooter()

    def on_resize(self) -> None:
        """The charts of games only when the table still shows a dozen players or more."""
        tall = self.size.height >= TALL
        for part in ("#players-legend", "#players-plots"):
            self.query_one(part).display = tall

    def on_mount(self) -> None:
        """Shows the statistics if counted, and has the app count what is missing."""
        self.sub_title = "players"
        self.table.focus()
        ready = self.browse.stats
        if ready is not None:
            self.on_stats_ready(ready)
        if ready is None or ready.hindsight is None:
            self.browse.count_statistics(self)

    @property
    def table(self) -> DataTable[Any]:
        """The table of players."""
        return self.query_one("#players-table", DataTable)

    def on_stats_counted(self, message: StatsCounted) -> None:
        """Shows how many hands the statistics have counted."""
        bar = self.query_one("#players-progress", ProgressBar)
        bar.update(total=max(message.total, 1), progress=min(message.hands, message.total))
        self.query_one("#players-heading", Static).update(
            Text(f"counting statistics: {message.hands} of {message.total} hands…")
        )

    def on_stats_ready(self, message: StatsReady) -> None:
        """Shows the players' statistics (ratings and costly answers too, once counted), the cursor
        kept where it was."""
        self.rows = message.rows
        self.hindsight = hindsight = message.hindsight
        self.ratings = {r.player: r for r in hindsight.ratings} if hindsight else {}
        bar = self.query_one("#players-progress", ProgressBar)
        bar.update(total=1, progress=1 if hindsight else 0)
        table = self.table
        cursor = table.cursor_coordinate
        table.clear()
        table.add_rows(player_row(row, self.ordinal(str(row["player"]))) for row in self.rows)
        table.move_cursor(row=cursor.row, column=cursor.column)
        heading = Text(f"{len(message.rows)} players, {message.games} games", style="bold")
        heading.append(" · valid hands, each game once", style="dim")
        if hindsight is None:
            heading.append(" · rating games…", style="italic")
        self.query_one("#players-heading", Static).update(heading)
        self.query_one("#players-folds", Static).update(
            rate_chart(message.rows, "fold_rate", "folds_to_raise", "raises_faced")
        )
        self.query_one("#players-bluffs", Static).update(
            rate_chart(message.rows, "bluff_rate", "bluffs", "raises_known")
        )
        rows = sorted(message.rows, key=lambda r: (-r["hands_played"], name_key(r["player"])))
        names = [r["player"] for r in rows]
        points = points_by_game(self.browse.catalog.entries, names[:CHART_PLAYERS])
        plot = self.query_one("#players-points", PlotextPlot)
        line_chart(plot, points, "points, game after game, added up", "games played", True)
        plot.refresh()
        self.query_one("#players-legend", Static).update(legend(points, "points:"))
        self.charted = None
        self.chart_ordinal()

    def ordinal(self, player: str) -> str:
        """The player's ordinal as shown: ``…`` until rated, ``—`` without a finished game."""
        if self.hindsight is None:
            return "…"
        rated = self.ratings.get(player)
        return "—" if rated is None else f"{rated.ordinal:.2f}"

    @property
    def player(self) -> str | None:
        """The player under the cursor."""
        row = self.table.cursor_row
        return str(self.rows[row]["player"]) if 0 <= row < len(self.rows) else None

    def chart_ordinal(self) -> None:
        """Chart the ordinal of the player under the cursor, once rated."""
        player = self.player if self.hindsight is not None else None
        if player == self.charted and player is not None:
            return
        self.charted = player
        ordinal_chart(
            self.query_one("#players-ordinal", PlotextPlot), self.ratings.get(player or ""), player
        )
        self.chart_months()

    def chart_months(self) -> None:
        """Chart the fold and bluff rates by month of the player under the cursor."""
        from truclog.stats.charts import monthly_rates

        player = self.player if self.hindsight is not None else None
        monthly = None
        if self.hindsight is not None and player is not None:
            monthly = monthly_rates(self.hindsight.months, player)
        months_chart(self.query_one("#players-months", PlotextPlot), monthly, player)

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        """Charts the rating of the player under the cursor."""
        self.chart_ordinal()

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        """Enter or a click on a cell opens the hands (or costliest answers) behind it."""
        self.action_hands()

    def action_hands(self) -> None:
        """The hands behind the number under the cursor (a player's hands for a name),
        the costliest answers behind the points given."""
        row, column = self.table.cursor_coordinate
        if 0 <= row < len(self.rows):
            key = COLUMNS[column][1]
            if key == "points_given":
                self.action_answers()
            elif key != "ordinal":
                self.browse.find_hands(str(self.rows[row]["player"]), BEHIND.get(key))

    def action_answers(self) -> None:
        """The costliest answers of the player under the cursor."""
        player = self.player
        if player is None:
            return
        if self.hindsight is None:
            self.notify("the answers are still being reviewed", timeout=3)
            return
        self.app.push_screen(CostlyAnswersScreen(player, self.hindsight.given.get(player)))
