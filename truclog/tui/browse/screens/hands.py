"""The hands of one game, with the score through the game."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Header, Static
from textual_plotext import PlotextPlot

from truclog.replay import Game
from truclog.terminal import printable
from truclog.tui.browse.catalog import GameEntry, sides_text, winner_label
from truclog.tui.browse.index import HandSummary, score_series, summarize_hand
from truclog.tui.browse.judged import decisions, lost_by
from truclog.tui.browse.messages import GameGrew
from truclog.tui.browse.plots import score_chart
from truclog.tui.browse.screens.base import BrowseScreen
from truclog.tui.browse.screens.games import score_text
from truclog.tui.widgets.footer import KeysFooter
from truclog.tui.widgets.rows import Column, RowList
from truclog.validate.checker import CheckedGame

COLUMNS = (
    Column("hand", "hand", 5, right=True),
    Column("dealer", "dealer"),
    Column("value", "value", 5, right=True),
    Column("winner", "winner"),
    Column("points", "points", 6, right=True),
    Column("ending", "ending", 10),
    Column("marks", "marks", 5),
    Column("score", "score", 9),
)
LOST = Column("lost", "lost", 5, right=True)
"""The points a hand's decisions lost, both hands face up (the hands list only)."""
MARKS_HELP = "marks: R raise · F fold · ! reste · D redeal · E error · lost: points lost"


def game_players(game: CheckedGame) -> str:
    """The players of ``game`` as the heading names them, by side."""
    return sides_text(game.teams, game.players)


def game_heading(game: CheckedGame) -> Text:
    """Who played, under which rules, where the game is in the logs, and how it ended."""
    text = Text(f"{game.id}", style="bold")
    text.append(f"   {game_players(game)} · {game.rules.describe()}")
    score = score_text(game.score, game.teams)
    text.append(f" · {score} · winner {winner_label(game)}", style="bold")
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
    """A hand's row: number, dealer, value, winner, points, how it ended, marks (red with an error)
    and the score after it."""
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
        Binding("s", "sort_lost", "Sort by lost", id="hands.sort_lost"),
        Binding("l", "only_lost", "Only lost", id="hands.only_lost"),
        Binding("escape", "app.pop_screen", "Back", id="hands.back"),
    ]

    def __init__(self, game: CheckedGame, entry: GameEntry | None = None) -> None:
        super().__init__()
        self.game = game
        self.entry = entry
        self.order: list[int] = []
        """The hands shown (0-based in the game), in the order shown."""
        self.by_lost = False
        self.lost: list[int] | None = None
        """The points lost by each hand's decisions (reviewed when first shown)."""
        self.only_lost = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="hands-heading")
        yield RowList((*COLUMNS, LOST), empty="no hands yet", id="hands-table")
        yield Static(MARKS_HELP, id="hands-marks")
        yield KeysFooter()

    def on_mount(self) -> None:
        """Lists the hands, then draws the score chart once the screen is laid out."""
        self.sub_title = printable(f"hands of {self.game.id}")
        self.rows.focus()
        self.fill()
        self.call_after_refresh(self.mount_chart)

    def mount_chart(self) -> None:
        """The score chart, once the hands are drawn: a chart costs as much to set up as
        the rest of the screen, and the hands are what is looked at first."""
        self.mount(PlotextPlot(id="hands-chart"), after="#hands-marks")
        self.draw_chart()

    def fill(self) -> None:
        """Show the game's heading, a row per hand and the score chart."""
        self.query_one("#hands-heading", Static).update(game_heading(self.game))
        game = self.game
        if self.lost is None:
            self.lost = [lost_by(decisions(hand).values()) for hand in Game(game).hands]
        lost = self.lost
        order = [i for i in range(len(lost)) if lost[i] or not self.only_lost]
        if self.by_lost:
            order.sort(key=lambda i: -lost[i])
        self.order = order
        rows = [
            (*hand_row(game, summarize_hand(game.hands[i])), Text(str(lost[i]), justify="right"))
            for i in order
        ]
        self.rows.show_rows(len(rows), rows.__getitem__, min(self.rows.cursor, len(rows)))
        self.rows.mark_sort("lost" if self.by_lost else None, True)
        self.draw_chart()

    def action_sort_lost(self) -> None:
        """Most points lost first, or back to the order of the game."""
        self.by_lost = not self.by_lost
        self.fill()

    def action_only_lost(self) -> None:
        """Only the hands whose decisions lost points, or every hand again."""
        self.only_lost = not self.only_lost
        self.fill()

    @property
    def rows(self) -> RowList:
        """The list of hands."""
        return self.query_one("#hands-table", RowList)

    def on_game_grew(self, message: GameGrew) -> None:
        """The game's log grew: its hands again, with the new ones."""
        self.game, self.entry, self.lost = message.game, message.entry, None
        self.fill()

    def draw_chart(self) -> None:
        """Draws the score after each hand against the target, once the chart is mounted."""
        charts = self.query("#hands-chart").results(PlotextPlot)
        plot = next(charts, None)
        if plot is None:  # not mounted yet: it is drawn when it is
            return
        score_chart(plot, score_series(self.game), self.game.rules.target)

    def on_row_list_chosen(self, event: RowList.Chosen) -> None:
        """Enter or a click on a hand replays it."""
        self.action_replay()

    def action_replay(self) -> None:
        row = self.rows.cursor
        if 0 <= row < len(self.order):
            self.browse.open_hand(self.game, self.order[row], entry=self.entry)

    def action_diagnostics(self) -> None:
        self.browse.show_diagnostics(self.game)

    def select_hand(self, position: int) -> None:
        """Puts the cursor on the hand at ``position`` in the game, wherever the sort put it."""
        if position in self.order:
            self.rows.go(self.order.index(position))
