"""The hands of one game, with the score through the game."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Footer, Header, Static
from textual_plotext import PlotextPlot

from truclog.tui.browse.catalog import GameEntry
from truclog.tui.browse.index import HandSummary, score_series, summarize_hand
from truclog.tui.browse.messages import GameGrew
from truclog.tui.browse.screens.base import BrowseScreen, line_chart, row_table
from truclog.tui.browse.screens.games import score_text
from truclog.validate import CheckedGame

COLUMNS = ("hand", "dealer", "value", "winner", "points", "ending", "marks", "score")
MARKS_HELP = "marks: R raise · F fold · ! reste · D redeal · E error"


def game_players(game: CheckedGame) -> str:
    return " v ".join(game.teams if len(game.players) == 4 else game.players)


def game_winner(game: CheckedGame) -> str:
    if game.winner:
        return game.winner
    return "abandoned" if game.ended else "—"


def game_heading(game: CheckedGame) -> Text:
    """Who played, under which rules, where the game is in the logs, and how it ended."""
    text = Text(f"{game.id}", style="bold")
    text.append(f"   {game_players(game)} · {game.rules.describe()}")
    score = score_text(game.score, game.teams)
    text.append(f" · {score} · winner {game_winner(game)}", style="bold")
    text.append(f"\n{game.path}:{game.line}", style="dim")
    if not game.complete:
        text.append(" · not finished", style="yellow")
    if game.duplicate_of is not None:
        path, line = game.duplicate_of
        text.append(f" · duplicate of {path}:{line}", style="yellow")
    if game.diagnostics:
        text.append(f" · {len(game.diagnostics)} diagnostics (d)", style="red")
    return text


def hand_row(game: CheckedGame, summary: HandSummary) -> tuple[str | Text, ...]:
    marks = Text(summary.marks or "·", style="bold red" if "E" in summary.marks else "bold")
    return (
        Text(str(summary.number), justify="right"),
        Text(summary.dealer),
        Text(str(summary.value), justify="right"),
        Text(summary.winner or "—"),
        Text(str(summary.points), justify="right"),
        Text(summary.ending),
        marks,
        Text(score_text(summary.score, game.teams)),
    )


class HandsScreen(BrowseScreen):
    """One game's hands; pick one to replay it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "replay", "Replay", id="hands.replay"),
        Binding("g", "app.goto_hand", "Go to hand", id="hands.goto"),
        Binding("d", "diagnostics", "Diagnostics", id="hands.diagnostics"),
        Binding("escape", "app.pop_screen", "Back", id="hands.back"),
    ]

    def __init__(self, game: CheckedGame, entry: GameEntry | None = None) -> None:
        super().__init__()
        self.game = game
        self.entry = entry

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="hands-heading")
        yield row_table("hands-table", COLUMNS)
        yield Static(MARKS_HELP, id="hands-marks")
        yield PlotextPlot(id="hands-chart")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"hands of {self.game.id}"
        self.query_one("#hands-table", DataTable).focus()
        self.fill()

    def fill(self) -> None:
        """Show the game's heading, a row per hand and the score chart."""
        self.query_one("#hands-heading", Static).update(game_heading(self.game))
        table = self.query_one("#hands-table", DataTable)
        row = table.cursor_row
        table.clear()
        rows = [hand_row(self.game, summarize_hand(hand)) for hand in self.game.hands]
        table.add_rows(rows)
        table.move_cursor(row=row)
        self.draw_chart()

    def on_game_grew(self, message: GameGrew) -> None:
        """The game's log grew: its hands again, with the new ones."""
        self.game, self.entry = message.game, message.entry
        self.fill()

    def draw_chart(self) -> None:
        plot = self.query_one("#hands-chart", PlotextPlot)
        series = score_series(self.game)
        plt = line_chart(plot, series, "score after each hand", "hand")
        plt.hline(self.game.rules.target, "gray")
        hands = len(next(iter(series.values()), []))
        plt.xticks(list(range(hands)))
        plot.refresh()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_replay()

    def action_replay(self) -> None:
        row = self.query_one("#hands-table", DataTable).cursor_row
        if 0 <= row < len(self.game.hands):
            self.browse.open_hand(self.game, row, entry=self.entry)

    def action_diagnostics(self) -> None:
        self.browse.show_diagnostics(self.game)

    def select_hand(self, position: int) -> None:
        self.query_one("#hands-table", DataTable).move_cursor(row=position)
