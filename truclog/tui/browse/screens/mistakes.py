"""A player's costliest decisions across the logs: cards played and answers to raises
that lost the most points, double-dummy, most first. Enter replays the hand at that
decision; ``d`` drills them from the player's seat.

The logs are reviewed once, by the app's review worker (in a child process), with its
progress shown (``x`` stops it); the app keeps what it found, so the screen opens at once
afterwards.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Header, ProgressBar, Select, Static

from truclog.tui.browse.judged import grade_mark
from truclog.tui.browse.messages import GamesReviewed, MistakesFound, ReviewStopped
from truclog.tui.browse.mistakes import Mistake, Mistakes
from truclog.tui.browse.screens.base import BrowseScreen
from truclog.tui.widgets.footer import KeysFooter
from truclog.tui.widgets.rows import Column, RowList

COLUMNS = (
    Column("lost", "lost", 4, right=True),
    Column("grade", "grade", 13),
    Column("where", "where", share=2),
    Column("game", "game"),
    Column("hand", "hand", 4, right=True),
    Column("kind", "kind", 6),
    Column("best", "best"),
    Column("sound", "sound", 7),
)


def mistake_row(mistake: Mistake) -> tuple[Text, ...]:
    """Points lost, grade, path:line, game, hand, kind of decision, what was best, sound."""
    sound = {True: ("sound", "green"), False: ("unsound", "red"), None: ("?", "dim")}
    return (
        Text(str(mistake.lost), style="bold", justify="right"),
        grade_mark(mistake.grade),
        Text(f"{mistake.path}:{mistake.step_line}"),
        Text(mistake.game),
        Text(str(mistake.number), justify="right"),
        Text(mistake.kind),
        Text(" ".join(mistake.best)),
        Text(*sound[mistake.sound]),
    )


class MistakesScreen(BrowseScreen):
    """One player's costliest decisions, the player chosen at the top."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "replay", "Replay", id="mistakes.replay"),
        Binding("d", "drill", "Drill", id="mistakes.drill"),
        Binding("x", "stop", "Stop review", id="mistakes.stop"),
        Binding("escape", "app.pop_screen", "Back", id="mistakes.back"),
    ]

    def __init__(self, player: str | None = None) -> None:
        super().__init__()
        self.player = player
        self.shown: list[Mistake] = []
        self.found: Mistakes | None = None
        """What the review found, once the screen shows it."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Select[str]([], prompt="player", id="mistakes-player", allow_blank=True)
        yield Static(id="mistakes-heading")
        yield ProgressBar(id="mistakes-progress", show_eta=False)
        yield RowList(COLUMNS, empty="no decision lost points", id="mistakes-table")
        yield KeysFooter()

    def on_mount(self) -> None:
        """Shows the mistakes, reviewing every game first in a worker unless the app has done it."""
        self.sub_title = "costliest decisions"
        found = self.browse.reviewed
        if found is not None:
            self.show_found(found)
            return
        self.query_one(Static).update(Text("reviewing every decision… (x stops)", style="italic"))
        self.browse.review_decisions()

    def on_games_reviewed(self, message: GamesReviewed) -> None:
        """Shows how many games the review has done (not once it is stopped)."""
        if self.browse.review_stopped():
            return
        self.query_one(ProgressBar).update(total=message.total, progress=message.done)

    def on_mistakes_found(self, message: MistakesFound) -> None:
        """Shows what the review found."""
        self.show_found(message.mistakes)

    def on_review_stopped(self, message: ReviewStopped) -> None:
        """Says that the review stopped, and why, in place of its progress."""
        self.query_one(Static).update(Text(message.why, style="yellow"))
        self.query_one(ProgressBar).display = False

    def action_stop(self) -> None:
        """Stop the review (nothing is kept: the screen opened again starts it over)."""
        self.browse.stop_review()

    def show_found(self, found: Mistakes) -> None:
        """Lists the players reviewed and shows the mistakes of the one chosen, else ``--me``, else
        the first."""
        self.found = found
        self.query_one(ProgressBar).display = False
        players = sorted(found.players)
        select: Select[str] = self.query_one(Select)
        select.set_options((p, p) for p in players)
        me = self.player or self.browse.me
        player = me if me in found.players else players[0] if players else None
        if player is not None:
            select.value = player
        self.show_player(found, player)

    def on_select_changed(self, event: Select.Changed) -> None:
        """Shows the mistakes of the player chosen."""
        found = self.browse.reviewed
        if found is not None and isinstance(event.value, str):
            self.show_player(found, event.value)

    def show_player(self, found: Mistakes, player: str | None) -> None:
        """Lists ``player``'s costliest decisions, with a heading saying how much they lost."""
        self.player = player
        self.shown = found.of(player) if player is not None else []
        table = self.rows
        shown = self.shown
        table.show_rows(len(shown), lambda i: mistake_row(shown[i]))
        self.query_one(Static).update(self.heading(found, player))
        table.focus()

    def heading(self, found: Mistakes, player: str | None) -> Text:
        """How many of ``player``'s decisions lost points and how many points, and how many are
        listed."""
        if player is None:
            return Text(f"{found.games} games reviewed: no decision lost points", style="bold")
        decisions, points = found.counts(player)
        text = Text(f"{player}: {decisions} decisions lost {points} points", style="bold")
        if len(self.shown) < decisions:
            text.append(f" · the {len(self.shown)} costliest", style="yellow")
        text.append(f" · {found.games} games reviewed, both hands face up", style="dim")
        return text

    @property
    def rows(self) -> RowList:
        """The list of mistakes."""
        return self.query_one("#mistakes-table", RowList)

    def on_row_list_chosen(self, event: RowList.Chosen) -> None:
        """Enter or a click on a mistake replays it."""
        self.action_replay()

    def chosen(self) -> Mistake | None:
        """The mistake under the cursor, if any."""
        row = self.rows.cursor
        return self.shown[row] if 0 <= row < len(self.shown) else None

    def action_replay(self) -> None:
        """Replay the hand of the decision under the cursor, at that decision."""
        mistake = self.chosen()
        if mistake is None:
            return
        catalog = self.browse.catalog
        entry = catalog.entry_at(mistake.path, mistake.line)
        game = catalog.open(entry) if entry is not None else None
        where = mistake.locate(game) if game is not None else None
        if game is None or where is None:
            self.notify("this decision's game cannot be read again from its log", severity="error")
            return
        self.browse.open_hand(game, *where, entry)

    def action_drill(self) -> None:
        """Retry these decisions from the player's seat, from the one under the cursor."""
        from truclog.tui.browse.screens.drill import DrillScreen

        row = self.rows.cursor
        if self.shown:
            self.app.push_screen(DrillScreen(self.shown[max(row, 0) :]))
