"""The games screen: every game of the logs, listed as the index worker finds them."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Header, Input, Label, ProgressBar

from truclog.tui.browse.catalog import SORT_KEYS, GameEntry, points_text
from truclog.tui.browse.messages import GamesRead, GamesReviewed, MistakesFound, ReviewStopped
from truclog.tui.browse.screens.base import BrowseScreen
from truclog.tui.widgets.footer import KeysFooter
from truclog.tui.widgets.rows import Column, RowList

COLUMNS = (
    Column("id", "id"),
    Column("file", "file"),
    Column("time", "time", 16),
    Column("players", "players", share=2),
    Column("score", "score", 7, right=True),
    Column("winner", "winner", 9),
    Column("hands", "hands", 7, right=True),
    Column("diag", "diagnostics", 4, right=True),
    Column("lost", "lost", 4, right=True),
)
SORTS = tuple(key for key in SORT_KEYS if key != "search")
DEBOUNCE = 0.15
"""Seconds the filter waits after a key before it applies."""
RESORT_EVERY = 1.0
"""While games keep coming, a sorted list takes them in order at most this often."""
PRELOAD_AFTER = 0.5
"""Seconds after the first games came before the app imports what other screens need."""


def score_text(score: Mapping[str, int], teams: Iterable[str]) -> str:
    """The points of each side, in the order of ``teams``.

    >>> score_text({"Marc": 12}, ["Ana", "Marc"])
    '0–12'
    """
    return points_text(score.get(team, 0) for team in teams)


def entry_cells(entry: GameEntry) -> tuple[str | Text, ...]:
    """The cells of a game's row (every one plain text: names are never markup)."""
    style = "bold red" if entry.errors else ("yellow" if entry.diagnostics else "dim")
    return (
        Text(entry.id),
        Text(entry.path, style="dim"),
        Text(entry.when),
        Text(entry.sides),
        Text(entry.score_text),
        Text(entry.winner),
        Text(str(entry.hands)),
        Text(str(entry.diagnostics), style=style),
        Text("·" if entry.lost is None else str(entry.lost), style="dim" if not entry.lost else ""),
    )


class GamesScreen(BrowseScreen):
    """Every game in the logs; pick one to see its hands."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open_game", "Hands", id="games.open"),
        Binding("slash", "filter", "Filter", id="games.filter"),
        Binding("s", "sort", "Sort", id="games.sort"),
        Binding("r", "reverse", "Reverse", id="games.reverse"),
        Binding("f", "find", "Find hands", id="games.find"),
        Binding("d", "game_diagnostics", "Diagnostics", id="games.diagnostics"),
        Binding("D", "all_diagnostics", "All diagnostics", id="games.all_diagnostics"),
        Binding("p", "app.players", "Players", id="games.players"),
        Binding("l", "only_lost", "Only lost", id="games.only_lost"),
        Binding("m", "app.mistakes", "Mistakes", id="games.mistakes"),
        Binding("escape", "clear_filter", "Clear filter", show=False, id="games.clear"),
    ]

    # the list redraws what a filter or an order changes: the screen itself draws nothing
    filter_text: reactive[str] = reactive("", init=False, repaint=False)
    sort_column: reactive[str | None] = reactive(None, init=False, repaint=False)
    sort_reverse: reactive[bool] = reactive(False, init=False, repaint=False)
    only_lost: reactive[bool] = reactive(False, init=False, repaint=False)

    def __init__(self) -> None:
        super().__init__()
        self.shown: Sequence[int] = range(0)
        self.listed = 0
        """How many entries of the catalog the list has taken in."""
        self.status = ""
        self.debounce: Timer | None = None
        self.sorted_at = 0.0
        self.fraction: float | None = 0.0
        self.done = False
        self.preload: Timer | None = None
        self.reviewing = ""
        """How far the review of the logs is, for the status line."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="games-bar"):
            yield Input(placeholder="filter: id or player…", id="games-filter")
            yield ProgressBar(id="games-progress", show_eta=False)
            yield Label("reading…", id="games-status")
        yield RowList(COLUMNS, empty="reading the logs…", id="games-list")
        yield KeysFooter()

    def on_mount(self) -> None:
        """Shows the games read so far and how far the reading has got."""
        self.sub_title = "games"
        self.rows.focus()
        self.refilter()
        self.show_progress()

    @property
    def rows(self) -> RowList:
        """The list of games."""
        return self.query_one("#games-list", RowList)

    @property
    def entries(self) -> list[GameEntry]:
        """Every game listed, in reading order (the rows shown are positions in it)."""
        return self.browse.catalog.entries

    # --- games coming in ---------------------------------------------------

    def on_games_read(self, message: GamesRead) -> None:
        """Show the games the index worker put in the catalog."""
        catalog = self.browse.catalog
        catalog.problems.extend(message.problems)
        self.fraction, self.done = message.fraction, message.done
        listed = len(catalog.entries)
        if message.replaced or self.filter_text or self.only_lost or self.sort_column is not None:
            if self.sort_column is None or message.done or self._resort_due():
                self.refilter()
            elif self.listed < listed:
                fresh = catalog.matching(self.filter_text, self.listed, listed, self.only_lost)
                self.shown = [*self.shown, *fresh]
                self.show_rows()
        elif listed and self.shown == range(self.listed):  # the list grows at its end
            self.shown = range(listed)
            self.rows.grow(listed)
        else:
            self.shown = range(listed)
            self.show_rows()
        self.listed = listed
        self.show_progress()
        if listed and self.preload is None:
            self.preload = self.set_timer(PRELOAD_AFTER, self.browse.preload)

    def _resort_due(self) -> bool:
        return time.monotonic() - self.sorted_at >= RESORT_EVERY

    def show_progress(self) -> None:
        """Updates the progress bar and the status line: games and hands read, file problems."""
        bar = self.query_one("#games-progress", ProgressBar)
        fraction = 1.0 if self.done else self.fraction
        bar.update(total=100 if fraction is not None else None, progress=100 * (fraction or 0))
        catalog = self.browse.catalog
        hands = sum(e.hands for e in catalog.entries) if self.done else None
        status = f"{len(catalog.entries)} games"
        status += f", {hands} hands" if hands is not None else " · reading…"
        status += self.reviewing
        problems = len(catalog.problems)
        if problems:
            status += f" · {problems} file problem{'s' * (problems > 1)} (D)"
        label = self.query_one("#games-status", Label)
        if status != self.status:  # a new width only when the text's length changes
            label.update(Text(status), layout=len(status) != len(self.status))
            self.status = status

    # --- filter and sort ---------------------------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        """Filters once typing pauses, not at every key."""
        if self.debounce is not None:
            self.debounce.stop()
        value = event.value
        self.debounce = self.set_timer(DEBOUNCE, lambda: setattr(self, "filter_text", value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Filters now and goes back to the list."""
        if self.debounce is not None:
            self.debounce.stop()
        self.filter_text = event.value
        self.rows.focus()

    def watch_filter_text(self) -> None:
        """Shows the games matching the new filter."""
        self.refilter()

    def watch_sort_column(self) -> None:
        """Shows the games sorted by the new column."""
        self.refilter()

    def watch_sort_reverse(self) -> None:
        """Shows the games in the new order."""
        self.refilter()

    def watch_only_lost(self) -> None:
        """Refilters when the list is narrowed to the games that lost points, or widened again."""
        self.refilter()

    # --- points lost ---------------------------------------------------------

    def action_only_lost(self) -> None:
        """Only the games whose decisions lost points, or every game again (the logs are
        reviewed first, once)."""
        self.only_lost = not self.only_lost
        if self.only_lost:
            self.need_review()

    def need_review(self) -> None:
        """Have the logs reviewed for the points lost, unless they are."""
        if self.browse.reviewed is None:
            self.browse.review_decisions()
            self.notify("reviewing every decision for the points lost…", timeout=3)

    def on_games_reviewed(self, message: GamesReviewed) -> None:
        """Shows in the status line how much of the logs the review has read (not once it
        is stopped)."""
        if self.browse.review_stopped():
            return
        share = message.done / message.total if message.total else 0.0
        self.reviewing = f" · reviewing {min(share, 1.0):.0%}"
        self.show_progress()

    def on_review_stopped(self, message: ReviewStopped) -> None:
        """Says in the status line that the review stopped, and why; a list of the games that
        lost points lists every game again (without the review, none is known to)."""
        self.reviewing = f" · {message.why}"
        self.show_progress()
        self.only_lost = False

    def on_mistakes_found(self, message: MistakesFound) -> None:
        """The points lost are in: the list again (its order and filter may use them)."""
        self.reviewing = ""
        self.show_progress()
        if self.only_lost or self.sort_column == "lost":
            self.refilter()
        else:
            self.show_rows()

    def refilter(self) -> None:
        """The list again after a new filter or order, keeping the game under the cursor."""
        current = self.current_index()
        catalog = self.browse.catalog
        self.listed = len(catalog.entries)
        shown = catalog.matching(self.filter_text, 0, self.listed, self.only_lost)
        self.shown = catalog.ordered(shown, self.sort_column, self.sort_reverse)
        self.sorted_at = time.monotonic()
        self.rows.mark_sort(self.sort_column, self.sort_reverse)
        self.show_rows(current)

    def show_rows(self, keep: int | None = None) -> None:
        """Fills the list with the games shown, the cursor kept on its row or moved to the game at
        position ``keep``."""
        rows = self.rows
        cursor = rows.cursor
        if keep is not None:
            cursor = _position(self.shown, keep)
        text = self.filter_text.strip()
        rows.empty = f"no game matches “{text}”" if text else "reading the logs…"
        if self.done and not text:
            rows.empty = "no games in these logs"
        if self.only_lost:
            rows.empty = (
                "no game's decisions lost points" + (f" among “{text}”" if text else "")
                if self.browse.reviewed is not None
                else "reviewing the decisions of every game…"
            )
        entries = self.entries
        rows.show_rows(len(self.shown), lambda i: entry_cells(entries[self.shown[i]]), cursor)

    def current_index(self) -> int | None:
        """The position in :attr:`entries` of the game under the cursor, if any."""
        row = self.rows.cursor
        return self.shown[row] if 0 <= row < len(self.shown) else None

    def current_entry(self) -> GameEntry | None:
        """The game under the cursor, if any."""
        index = self.current_index()
        return None if index is None else self.entries[index]

    def on_row_list_header_clicked(self, event: RowList.HeaderClicked) -> None:
        """A click on a column's header sorts by it (again: the other way)."""
        self.sort_by(event.key)

    def on_row_list_chosen(self, event: RowList.Chosen) -> None:
        """Enter or a click on a game opens its hands."""
        self.action_open_game()

    def sort_by(self, column: str) -> None:
        """Sort by a column; sorting by it again reverses the order (the points lost:
        most first, once the logs are reviewed)."""
        if column == "lost":
            self.need_review()
            if self.sort_column != column:
                with self.prevent():
                    self.set_reactive(GamesScreen.sort_reverse, True)
                self.sort_column = column
                return
        if self.sort_column == column:
            self.sort_reverse = not self.sort_reverse
            return
        with self.prevent():
            self.set_reactive(GamesScreen.sort_reverse, False)
        self.sort_column = column

    def action_sort(self) -> None:
        """Sort by the next column, so ``s`` walks through them."""
        if self.sort_column is None:
            self.sort_by(SORTS[0])
        else:
            self.sort_by(SORTS[(SORTS.index(self.sort_column) + 1) % len(SORTS)])

    def action_reverse(self) -> None:
        self.sort_reverse = not self.sort_reverse

    def action_filter(self) -> None:
        self.query_one("#games-filter", Input).focus()

    def action_clear_filter(self) -> None:
        self.query_one("#games-filter", Input).value = ""
        self.filter_text = ""
        self.rows.focus()

    # --- going further -------------------------------------------------------

    def action_open_game(self) -> None:
        entry = self.current_entry()
        if entry is not None:
            self.browse.open_game(entry)

    def action_find(self) -> None:
        self.browse.find_hands()

    def action_game_diagnostics(self) -> None:
        entry = self.current_entry()
        if entry is not None:
            self.browse.show_game_diagnostics(entry)

    def action_all_diagnostics(self) -> None:
        self.browse.show_diagnostics(None)


def _position(shown: Sequence[int], index: int) -> int:
    """Where entry ``index`` is in ``shown`` (0 when it is not there)."""
    if isinstance(shown, range):
        return index if index in shown else 0
    try:
        return list(shown).index(index) if not isinstance(shown, list) else shown.index(index)
    except ValueError:
        return 0
