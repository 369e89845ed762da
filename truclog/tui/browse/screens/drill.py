"""Drills: a player's costly decisions retried from their seat.

Each position is the table just before the decision, shown as the player saw it (their
own cards: :meth:`~truclog.engine.state.State.view`); the choices are the engine's
legal actions for them (:meth:`~truclog.engine.state.State.legal_actions`). The
engine plays the one picked and the review judges it as it judges every decision of
the log (:func:`truclog.replay.review_decision`).
The session's score comes at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from truclog.engine.actions import Accept, Action, Fold, Play
from truclog.engine.cards import format_card
from truclog.engine.state import State
from truclog.replay import Game, Hand, review_decision, verdict
from truclog.solver.answer import known_hand
from truclog.solver.grade import Grade
from truclog.tui.browse.judged import grade_mark
from truclog.tui.browse.mistakes import Mistake
from truclog.tui.browse.screens.base import BrowseScreen
from truclog.tui.widgets import TableView
from truclog.tui.widgets.footer import KeysFooter


@dataclass(frozen=True, slots=True)
class DrillPosition:
    """A decision to retry: the state before it, and the ranks each player was dealt
    as the end of the hand knows them."""

    mistake: Mistake
    state: State
    dealt: dict[str, str | None]

    @classmethod
    def of(cls, mistake: Mistake, hand: Hand, position: int) -> DrillPosition:
        """The position just before ``mistake``, at step ``position`` (0-based) of ``hand``,
        with every player's cards as the log knows them in the end."""
        state = hand.start.copy()
        for i, (_, after) in enumerate(hand.replay()):
            if i == position - 1:
                state = after.copy()
                break
        final = hand.final
        return cls(mistake, state, {p: known_hand(final, p) for p in final.players})

    def choices(self) -> list[tuple[str, Action]]:
        """The player's legal decisions, one a label: each card held, accept, fold."""
        player = self.mistake.player
        found: dict[str, Action] = {}
        for action in self.state.legal_actions():
            if isinstance(action, Play | Accept | Fold) and action.player == player:
                label = (
                    f"play {format_card(action.card)}"
                    if isinstance(action, Play)
                    else "accept"
                    if isinstance(action, Accept)
                    else "fold"
                )
                found.setdefault(label, action)
        return list(found.items())

    def judge(self, action: Action) -> Tried:
        """``action`` played by the engine from this position, and judged as the review
        of the log judges it."""
        after = self.state.copy()
        after.push(action)
        judged = None
        if isinstance(action, Play | Accept | Fold):
            judged = review_decision(self.state, action, self.dealt)
        _, _, lost, best, grade = verdict(judged[2] if judged is not None else None)
        return Tried(after, lost, best, grade)


@dataclass(frozen=True, slots=True)
class Tried:
    """A decision retried: the table after it, its points lost, what was best, its grade
    (``None`` when the hands are not known well enough to judge it)."""

    after: State
    lost: int | None
    best: tuple[str, ...] | None
    grade: Grade | None


class DrillScreen(BrowseScreen):
    """Retry decisions one after another from the player's seat, then the session's score."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next", "Next", id="drill.next"),
        Binding("escape", "app.pop_screen", "Back", id="drill.back"),
    ]

    def __init__(self, mistakes: Sequence[Mistake]) -> None:
        super().__init__()
        self.mistakes = list(mistakes)
        self.at = 0
        self.position: DrillPosition | None = None
        self.choices: list[tuple[str, Action]] = []
        self.answered = False
        self.tries: list[Tried] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="drill-heading")
        yield TableView(id="drill-table")
        yield OptionList(id="drill-choices")
        yield Static(id="drill-verdict")
        yield KeysFooter()

    def on_mount(self) -> None:
        """Sets up the first mistake whose game can be read again."""
        self.sub_title = "drill"
        self.load()

    def load(self) -> None:
        """Set up the decision at ``at``, skipping those whose game cannot be read again."""
        while self.at < len(self.mistakes):
            mistake = self.mistakes[self.at]
            found = self.hand_of(mistake)
            if found is not None:
                self.show(DrillPosition.of(mistake, *found))
                return
            self.at += 1
        self.finish()

    def hand_of(self, mistake: Mistake) -> tuple[Hand, int] | None:
        """The hand ``mistake`` was made in, read again from its log, and the decision's step
        in it; ``None`` when it cannot be."""
        catalog = self.browse.catalog
        entry = catalog.entry_at(mistake.path, mistake.line)
        game = catalog.open(entry) if entry is not None else None
        where = mistake.locate(game) if game is not None else None
        if game is None or where is None:
            return None
        hand, position = where
        return Game(game).hands[hand], position

    def show(self, position: DrillPosition) -> None:
        """Sets ``position`` as the next question: the table from the player's seat and the legal
        choices to pick from."""
        self.position, self.answered = position, False
        mistake = position.mistake
        self.query_one("#drill-heading", Static).update(
            Text.assemble(
                (f"Drill {self.at + 1}/{len(self.mistakes)}", "bold"),
                f" · {mistake.game} · hand {mistake.number} · ",
                (f"{mistake.player}'s seat: what would you play?", "italic cyan"),
            )
        )
        self.query_one(TableView).show(position.state, False, None, mistake.player)
        self.choices = position.choices()
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options(Option(label) for label, _ in self.choices)
        options.highlighted = 0 if self.choices else None
        options.focus()
        self.query_one("#drill-verdict", Static).update("")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Judges the choice picked, once: shows the table after it and the verdict, and keeps it
        for the summary."""
        if self.position is None or self.answered:
            return
        label, action = self.choices[event.option_index]
        judged = self.position.judge(action)
        self.answered = True
        self.query_one(TableView).show(judged.after, False, None, self.position.mistake.player)
        if judged.grade is not None:
            self.tries.append(judged)
        self.query_one("#drill-verdict", Static).update(self.verdict(label, judged))

    def verdict(self, label: str, judged: Tried) -> Text:
        """What the drill says of the choice ``label``: its grade, points lost and the best choices,
        beside what was done in the log."""
        mistake = self.mistakes[self.at]
        text = Text(f"you chose {label}: ", style="bold")
        if judged.grade is None:
            text.append("not judged (the hands are not known well enough)", style="dim")
        else:
            text.append_text(grade_mark(judged.grade))
            if judged.lost:
                text.append(f" · lost {judged.lost}")
            text.append(f" · best {' '.join(judged.best or ())}")
        text.append(f"\nin the log: {mistake.kind}, lost {mistake.lost}", style="dim")
        text.append("  ·  n: next", style="dim")
        return text

    def action_next(self) -> None:
        if self.at < len(self.mistakes):
            self.at += 1
            self.load()

    def finish(self) -> None:
        """The session's score: how many decisions were best, how many points lost."""
        self.position, self.choices = None, []
        options = self.query_one(OptionList)
        options.clear_options()
        options.display = False
        self.query_one(TableView).update("")
        best = sum(t.lost == 0 for t in self.tries)
        lost = sum(t.lost or 0 for t in self.tries)
        score = Text(f"Session over: {best}/{len(self.tries)} best", style="bold")
        score.append(f" · {_points(lost)} lost (the log's: ")
        score.append(f"{sum(m.lost for m in self.mistakes[: self.at])})")
        self.query_one("#drill-heading", Static).update(score)
        self.query_one("#drill-verdict", Static).update(Text("escape: back", style="dim"))


def _points(points: int) -> str:
    """``1 point``, ``3 points``."""
    return f"{points} point{'s' * (points != 1)}"
