"""A player's leaks: the situations where their decisions differ most from the winning
players', ranked by the points at stake (as ``truclog leaks`` lists them).

The logs are counted once, in a worker (with progress, and cancelled when the screen
is left), into every player's situations; the app keeps the counts, so another
player's leaks, or another number of hands for the winning players, are ranked at once.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import DataTable, Header, Input, Label, ProgressBar, Static
from textual.worker import get_current_worker

from truclog.stats.leaks import MIN_HANDS, leaks, read_leaks
from truclog.tui.browse.messages import LeaksCounted, SituationsCounted
from truclog.tui.browse.screens.base import BrowseScreen, row_table
from truclog.tui.browse.standings import interval_bar
from truclog.tui.widgets.footer import KeysFooter

COLUMNS = (
    ("situation", "situation"),
    ("player", "player"),
    ("95%", "interval"),
    ("winners", "winners"),
    ("95% ", "winners_interval"),
    ("stake", "stake"),
    ("points", "points"),
)
BAR_WIDTH = 30


def _rate(row: dict[str, Any], prefix: str = "") -> tuple[Text, Text]:
    value = row[f"{prefix}rate"]
    if value is None:
        return Text("—", justify="right"), Text("")
    count, n = row[f"{prefix}count"], row[f"{prefix}opportunities"]
    low, high = row[f"{prefix}low"], row[f"{prefix}high"]
    return (
        Text(f"{100 * value:.0f}% ({count}/{n})", justify="right"),
        Text(f"{100 * low:.0f}–{100 * high:.0f}", justify="right", style="dim"),
    )


def leak_row(row: dict[str, Any]) -> tuple[Text, ...]:
    """The cells of one situation."""
    stake = "—" if row["stake"] is None else f"{row['stake']:.2f}"
    points = "—" if row["points"] is None else f"{row['points']:.1f}"
    return (
        Text(row["situation"]),
        *_rate(row),
        *_rate(row, "winners_"),
        Text(stake, justify="right"),
        Text(points, justify="right", style="bold"),
    )


def comparison(row: dict[str, Any], player: str) -> Group:
    """The player's rate and the winning players', each on a 0–100 % track with its
    interval, for the situation under the cursor."""
    heading = Text(f"{row['situation']}: how often {row['choice']}", style="bold")
    table = Table(box=None, padding=(0, 1))
    table.add_column("", no_wrap=True)
    table.add_column(f"0{' ' * (BAR_WIDTH - 5)}100%", no_wrap=True)
    for who, prefix in ((player, ""), ("winners", "winners_")):
        bar = interval_bar(
            row[f"{prefix}rate"], row[f"{prefix}low"], row[f"{prefix}high"], BAR_WIDTH
        )
        table.add_row(Text(who), bar)
    return Group(heading, table)


class LeaksScreen(BrowseScreen):
    """One player's leaks, most points at stake first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("plus", "more_hands", "Winners: more hands", id="leaks.more"),
        Binding("minus", "fewer_hands", "Fewer hands", id="leaks.fewer"),
        Binding("escape", "app.pop_screen", "Back", id="leaks.back"),
    ]

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = player
        self.min_hands = MIN_HANDS
        self.rows: list[dict[str, Any]] = []

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="leaks-bar"):
            yield Static("counting situations…", id="leaks-heading")
            yield ProgressBar(id="leaks-progress", show_eta=False)
        yield row_table("leaks-table", COLUMNS)
        yield Static(id="leaks-chart")
        yield KeysFooter()

    def on_mount(self) -> None:
        """Shows the leaks, counting the situations first in a worker unless they are counted."""
        self.sub_title = f"leaks of {self.player}"
        self.query_one("#leaks-table", DataTable).focus()
        if self.browse.leak_counts is not None:
            self.show()
            return
        catalog = self.browse.catalog
        total = sum(e.hands for e in catalog.entries if e.duplicate_of is None)
        self.count(list(catalog.reading.values()), total)

    @work(thread=True, exclusive=True, group="leaks", exit_on_error=False)
    def count(self, logs: list[str], total: int) -> None:
        """In a worker: every player's situations in ``logs`` (about ``total`` hands), posting
        progress, then the counts."""
        worker = get_current_worker()

        def counted(hands: int) -> None:
            self.post_message(SituationsCounted(hands, total))

        counts = read_leaks(logs, stop=lambda: worker.is_cancelled, counted=counted)
        if not worker.is_cancelled:
            self.post_message(LeaksCounted(counts))

    def on_situations_counted(self, message: SituationsCounted) -> None:
        """Shows how many hands the count has read."""
        hands, total = message.hands, message.total
        self.query_one("#leaks-progress", ProgressBar).update(
            total=max(total, 1), progress=min(hands, total)
        )
        self.query_one("#leaks-heading", Static).update(
            Text(f"counting situations: {hands} of {total} hands…")
        )

    def on_leaks_counted(self, message: LeaksCounted) -> None:
        """Keeps the counts for the app (they serve every player) and shows them."""
        self.browse.leak_counts = message.counts
        self.show()

    def show(self) -> None:
        """Rank the player's situations against the winning players'."""
        counts = self.browse.leak_counts
        assert counts is not None
        self.rows, winners = leaks(counts, self.player, self.min_hands)
        self.query_one("#leaks-progress", ProgressBar).update(total=1, progress=1)
        heading = Text(f"leaks of {self.player}", style="bold")
        heading.append(f" · {len(self.rows)} situations · {len(winners)} winning players")
        heading.append(
            f" (above the median points won per hand, {self.min_hands}+ hands)", style="dim"
        )
        self.query_one("#leaks-heading", Static).update(heading)
        table = self.query_one("#leaks-table", DataTable)
        table.clear()
        table.add_rows(leak_row(row) for row in self.rows)
        self.chart(table.cursor_row)

    def chart(self, row: int) -> None:
        """Compares the player with the others in the situation of row ``row``."""
        chart = self.query_one("#leaks-chart", Static)
        if 0 <= row < len(self.rows):
            chart.update(comparison(self.rows[row], self.player))
        else:
            chart.update(Text("no decision of this player in the logs", style="dim"))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Charts the situation under the cursor."""
        self.chart(event.cursor_row)

    def action_more_hands(self) -> None:
        self.rank_with(self.min_hands * 2)

    def action_fewer_hands(self) -> None:
        self.rank_with(max(1, self.min_hands // 2))

    def rank_with(self, min_hands: int) -> None:
        """Winning players with at least ``min_hands`` hands, once counted."""
        self.min_hands = min_hands
        if self.browse.leak_counts is not None:
            self.show()


class PlayerPrompt(ModalScreen[str | None]):
    """Ask for a player's name (completed from the players of the logs)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="prompt.cancel")
    ]

    def __init__(self, players: list[str]) -> None:
        super().__init__()
        self.players = players

    def compose(self) -> ComposeResult:
        with Vertical(id="goto-box"):
            yield Label("Leaks of the player:")
            yield Input(suggester=SuggestFromList(self.players, case_sensitive=False))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Closes with the player named, whatever the case; None when no player has that name."""
        name = event.value.strip()
        folded = {p.casefold(): p for p in self.players}
        self.dismiss(folded.get(name.casefold()) if name else None)

    def action_cancel(self) -> None:
        self.dismiss(None)
