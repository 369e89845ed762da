"""Replay logs through the engine and report every illegal move and scoring error.

A :class:`GameChecker` replays one game line by line, as
:func:`~truclog.validate.games.check_log` gives it each game of a file, and makes its
:class:`CheckedGame` (its hands, steps and diagnostics). One mistake does not hide
the rest: after an error the validator skips to the next ``deal`` (or ``game``), takes
the score from the last claimed ``result`` if there is one, and goes on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeGuard, cast

from truclog.codes import Check, Code
from truclog.diagnostic import (
    ERROR,
    KEPT_PER_GAME,
    Diagnostic,
    Lines,
    score_words,
    unfinished,
)
from truclog.engine.actions import Action, Deal, Raise
from truclog.engine.records import Reduced, rebuilt
from truclog.engine.rules import Rules
from truclog.engine.state import Outcome, Phase, State
from truclog.engine.trail import Trail
from truclog.errors import IllegalActionError
from truclog.format.copies import compared, fingerprinter
from truclog.format.reader import LogLine
from truclog.terminal import unicode

if TYPE_CHECKING:
    from truclog.format.events import Event, GameEndEvent, GameEvent, ResultEvent

_PLAIN = frozenset({"play", "raise", "accept", "fold", "redeal", "show"})
"""Lines that are plain engine actions within a hand."""

_GAME_CLAIMS = frozenset(
    {Check.END_WINNER, Check.END_SCORE, Check.END_ABANDONED, Check.END_NOT_OVER}
)
"""Wrong claims about the whole game (``game_end``): no hand is to blame for them."""


@dataclass(slots=True)
class Step:
    """One line of a hand as the validator saw it: its action, its error, whether it was checked."""

    source: LogLine
    action: Action | None
    error: Diagnostic | None = None
    checked: bool = True

    @property
    def line(self) -> int:
        """The line number of the step in its log."""
        return self.source.line

    @property
    def event(self) -> Event:
        """The step's line as a truclog/1 event."""
        event = self.source.event
        assert event is not None
        return event

    @property
    def t(self) -> str | None:
        """When the line says it happened (its ``t``), if it says."""
        return self.source.t

    @property
    def applied(self) -> bool:
        """Whether the engine applied this step's action: an action, checked, without error."""
        return self.action is not None and self.error is None and self.checked

    def __reduce__(self) -> Reduced:
        return rebuilt(self)


@dataclass(slots=True)
class CheckedHand:
    """One hand as the validator replayed it: its number, the state at its start,
    its steps and how it ended."""

    number: int
    start: State
    steps: list[Step] = field(default_factory=list)
    outcome: Outcome | None = None
    errors: int = 0

    @property
    def ok(self) -> bool:
        """No error and every line checked: only such hands go into statistics."""
        return self.errors == 0 and all(step.checked for step in self.steps)

    def __reduce__(self) -> Reduced:
        return rebuilt(self)


@dataclass(slots=True)
class CheckedGame:
    """One game as the validator checked it: where it is, its header, its hands,
    what was found, and its final state."""

    path: str
    line: int
    header: Any
    """The :class:`~truclog.format.events.GameEvent` of its game line (typed ``Any``: compiled,
    a dataclass looks up the class of each field when its module starts, and the models
    are imported only when a line needs them)."""
    id: str
    rules: Rules
    players: tuple[str, ...]
    teams: tuple[str, str]
    final: State
    hands: Sequence[CheckedHand] = field(default_factory=list)
    """Its hands in order: a list, or for a game longer than the checker holds, its
    hands checked again from the log as they are read (see
    :class:`~truclog.validate.games.HandsOnFile`)."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    fingerprint: str = ""
    duplicate_of: tuple[str, int] | None = None
    ended: bool = False
    left_out: dict[str, int] = field(default_factory=dict)
    """Diagnostics past :data:`KEPT_PER_GAME`, counted by severity and not kept."""
    hands_let_go: int = 0
    """Finished hands not kept (past what the checker holds): counted in
    :attr:`hand_count` alone."""
    last_line: int = 0
    """The number of the game's last line in its log."""

    @property
    def score(self) -> dict[str, int]:
        """The score at the end of the lines checked, team (player) -> points."""
        return self.final.score

    @property
    def winner(self) -> str | None:
        """The side that reached the target, if one did."""
        return self.final.winner

    @property
    def complete(self) -> bool:
        """Whether the game was played to its end (a side reached the target)."""
        return self.final.phase is Phase.GAME_OVER

    @property
    def errors(self) -> int:
        """How many errors were found in the game, those left out of the list included."""
        return sum(d.severity == ERROR for d in self.diagnostics) + self.left_out.get(ERROR, 0)

    def note(self, diagnostic: Diagnostic) -> None:
        """Keep ``diagnostic``, or count it once the game keeps :data:`KEPT_PER_GAME`."""
        if len(self.diagnostics) < KEPT_PER_GAME:
            self.diagnostics.append(diagnostic)
        else:
            severity = diagnostic.severity
            self.left_out[severity] = self.left_out.get(severity, 0) + 1

    @property
    def hand_count(self) -> int:
        """How many hands the game has."""
        return self.hands_let_go + len(self.hands)

    def __reduce__(self) -> Reduced:
        return rebuilt(self)


def describe_legal(state: State) -> tuple[str, ...]:
    """What was legal, in words, with runs of raises folded into one entry.

    >>> s = State.new(["Ana", "Marc"], dealer="Marc")
    >>> describe_legal(s)
    ('Marc deals hand 1',)
    """
    words: list[str] = []
    for action in state.legal_actions():
        if isinstance(action, Raise) and action.to is not None:
            continue  # the range of plain raises, below
        if isinstance(action, Deal):
            words.append(f"{action.dealer} deals hand {action.hand}")
        else:
            words.append(str(action))
    span = state.raise_range()
    if span is not None:
        words.insert(0, str(span))
    return tuple(words)


class GameChecker:
    """Checks one game, line by line. It holds the game's hands up to ``hold`` of them
    (``None``: all); past it (at once for a ``hold`` of 1: a report needs only the
    diagnostics and the count), it lets each hand go once the next one is dealt, so
    that a game of any length is checked in the memory of a hand. The hands let go
    are added to ``gone`` when given."""

    def __init__(
        self,
        path: str,
        line: LogLine,
        header: GameEvent,
        hold: int | None = None,
        gone: list[CheckedHand] | None = None,
    ) -> None:
        self.path = path
        self.hold = hold
        self.gone = gone
        self.kept: list[CheckedHand] = []
        self.recovering_from: Diagnostic | None = None
        self.skipped = Lines()
        self.claimed_score: dict[str, int] | None = None
        self.result_given = True
        self.compared = fingerprinter()  # the lines as duplicates compare them
        self.fingerprinted = False
        self._fingerprint(line)
        self.last_line = line.line
        rules = header.rules_obj
        state = State(header.players, header.dealer, rules, header.score, header.teams)
        self.game = CheckedGame(
            path=path,
            line=line.line,
            header=header,
            id=header.id or unicode(f"{path}:{line.line}"),
            rules=rules,
            players=state.players,
            teams=state.teams,
            final=state,
            hands=self.kept,
        )

    @property
    def state(self) -> State:
        """The engine state after the lines checked so far."""
        return self.game.final

    @property
    def plain(self) -> bool:
        """Whether the next action line is simply pushed: a hand is on, nothing to recover from."""
        return self.recovering_from is None and not self.game.ended and bool(self.kept)

    @property
    def hand(self) -> CheckedHand | None:
        """The hand in progress, if any."""
        return self.kept[-1] if self.kept else None

    def diagnose(
        self,
        line: int,
        code: str,
        message: str,
        severity: str = ERROR,
        legal: tuple[str, ...] = (),
        hand: int | None = None,
    ) -> Diagnostic:
        """Note a problem found at ``line`` in the game (and in its hand, if an error); return it."""
        number = (self.state.hand_no or None) if hand is None else hand
        diag = Diagnostic(self.path, line, code, severity, message, self.game.id, number, legal)
        self.game.note(diag)
        if severity == ERROR and code not in _GAME_CLAIMS:
            target = next((h for h in reversed(self.kept) if h.number == number), self.hand)
            if target is not None:
                target.errors += 1
        return diag

    # --- lines ---------------------------------------------------------------

    def _fingerprint(self, line: LogLine) -> None:
        for part in compared(line):
            if self.fingerprinted:
                self.compared.update(b"\n")
            self.compared.update(part)
            self.fingerprinted = True

    def feed(self, line: LogLine) -> None:
        """Check one more line of the game."""
        self.last_line = line.line
        self._fingerprint(line)
        # of the line's type and shape: its own time and cards may differ (and a game
        # line starts a game: it is never fed, so never a PlainHeader)
        event = cast("Event | None", line.parsed)
        if event is not None and event.type in _PLAIN and self.plain:
            step = Step(line, line.action)
            self.kept[-1].steps.append(step)
            self._act(step)
            return
        if event is None:
            assert line.problem is not None
            if self.recovering_from is not None:
                self.skipped.add(line.line)
            diag = self.diagnose(line.line, line.problem.code, line.problem.message)
            self._recover(diag)
            return
        step = Step(line, line.action)
        kind = event.type
        if kind == "deal" and not self.game.ended:
            if self.state.phase is Phase.GAME_OVER:
                self._after_game_over(step)
            else:
                self._deal(step)
            return
        self._keep(step)
        if self.game.ended and not (kind == "show" and self.recovering_from is None):
            self._after_end(step)
        elif kind == "game_end":
            if self.recovering_from is not None and _fits(self.claimed_score, self.state.teams):
                self.state.adopt_score(self.claimed_score)
            self._end_recovery()
            self._game_end(step, cast("GameEndEvent", event))
        elif self.recovering_from is not None:
            self._skip(step, event)
        elif kind == "result":
            self._result(step, cast("ResultEvent", event))
        else:
            self._act(step)

    def _keep(self, step: Step) -> None:
        """Add a line to the hand; past :data:`KEPT_PER_GAME` lines of a hand, lines
        that are not checked are only counted (in the error's note)."""
        hand = self.hand
        if hand is not None and (self.recovering_from is None or len(hand.steps) < KEPT_PER_GAME):
            hand.steps.append(step)

    def _skip(self, step: Step, event: Event) -> None:
        step.checked = False
        self.skipped.add(step.line)
        if event.type == "result":
            self.claimed_score = dict(event.score)

    def _act(self, step: Step) -> None:
        action = step.action
        assert action is not None
        state = self.game.final
        try:
            state.push(action)
        except IllegalActionError as exc:
            step.error = self.diagnose(
                step.line, exc.code, exc.message, legal=describe_legal(state)
            )
            self._recover(step.error)
            return
        if state.phase is Phase.PLAY:
            return
        outcome = state.outcome
        if self.hand is not None and outcome is not None and outcome.hand == self.hand.number:
            self.hand.outcome = outcome

    def _recover(self, diag: Diagnostic) -> None:
        if self.recovering_from is None:
            self.recovering_from = diag
            self.skipped = Lines()

    def _end_recovery(self) -> None:
        """Note on the error that started recovery which lines went unchecked."""
        first = self.recovering_from
        self.recovering_from = None
        skipped = self.skipped
        diags = self.game.diagnostics
        if first is None or not skipped.count or first not in diags:
            return
        span = f"line {skipped.first}" if skipped.count == 1 else f"lines {skipped.span}"
        note = f"{first.message} ({skipped.count} following {span.split()[0]} not checked: {span})"
        diags[diags.index(first)] = first._replace(message=note)

    # --- deals -----------------------------------------------------------------

    def _deal(self, step: Step) -> None:
        action = step.action
        assert isinstance(action, Deal)
        if self.recovering_from is not None:
            self._end_recovery()
            self._resync(action)
        hand = self._hand_for(step, action)
        first = _attempt(self.state, action)
        if first is None:
            return
        number = self.state.hand_no if first.code == Code.DEAL_IN_PROGRESS else hand.number
        legal = describe_legal(self.state)
        step.error = self.diagnose(step.line, first.code, first.message, legal=legal, hand=number)
        self._resync(action)
        if hand.steps[0] is step:
            hand.start, hand.number = self.state.copy(), self.state.next_number(action)
            hand.errors = max(hand.errors, 1)  # a hand dealt by a line in error stays out
        again = _attempt(self.state, action)
        if again is not None:
            if again.code != first.code:
                step.error = self.diagnose(step.line, again.code, again.message)
            self._recover(step.error)

    def _hand_for(self, step: Step, deal: Deal) -> CheckedHand:
        """The hand a deal line belongs to: the current one after a granted redeal, else a new one."""
        if self.state.phase is Phase.REDEAL and self.hand is not None:
            self.hand.steps.append(step)
            return self.hand
        hand = CheckedHand(self.state.next_number(deal), self.state.copy(), [step])
        hands = self.kept
        if self.hold is not None and len(hands) >= self.hold:
            self.hold = 1  # and from now on, each hand once the next is dealt
            self._let_go(hands)
        hands.append(hand)
        self.result_given = False
        return hand

    def _let_go(self, hands: list[CheckedHand]) -> None:
        """Keep the hand before the new one alone (its result line may still come), and
        of the engine's history and outcomes only what the checks ask: this hand's
        actions and the last outcome."""
        if len(hands) > 1:
            self.game.hands_let_go += len(hands) - 1
            if self.gone is not None:
                self.gone.extend(hands[:-1])
            del hands[:-1]
        state = self.state
        state.history = Trail()
        state.outcomes = Trail(state.outcomes[-1:])

    def _resync(self, deal: Deal) -> None:
        """A state at which ``deal`` may start a hand: its dealer, number and the claimed score."""
        old = self.state
        score = self.claimed_score if _fits(self.claimed_score, old.teams) else old.score
        dealer = deal.dealer if deal.dealer in old.seat else old.next_deal.dealer
        fresh = State(old.players, dealer, old.rules, score, old.teams_mapping)
        number = deal.hand if deal.hand is not None else old.hand_no + 1
        fresh.hand_no = max(number - 1, 0)
        if fresh.phase is Phase.GAME_OVER:
            fresh.phase = Phase.DEAL
        fresh.outcomes = old.outcomes.copy()
        self.game.final = fresh
        self.claimed_score = None

    # --- claims ----------------------------------------------------------------

    def _result(self, step: Step, event: ResultEvent) -> None:
        state = self.state
        if state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER) or not state.outcomes:
            self.claimed_score = dict(event.score)
            step.error = self.diagnose(
                step.line,
                Check.RESULT_EARLY,
                f"result before hand {state.hand_no} is decided: the engine says "
                + _phase_words(state),
                legal=describe_legal(state),
            )
            self._recover(step.error)
            return
        if self.result_given:
            step.error = self.diagnose(
                step.line, Check.RESULT_TWICE, f"hand {state.hand_no} already has a result line"
            )
            return
        self.result_given = True
        outcome = state.outcomes[-1]
        want = "a draw (nobody scores)" if outcome.winner is None else outcome.winner
        got = "a draw" if event.winner is None else event.winner
        before = len(self.game.diagnostics)
        if event.winner != outcome.winner:
            self.diagnose(
                step.line,
                Check.RESULT_WINNER,
                f"result says hand {outcome.hand} went to {got}, but it is {want} "
                f"({_ending_words(outcome)})",
            )
        if event.points != outcome.points:
            self.diagnose(
                step.line,
                Check.RESULT_POINTS,
                f"result says {event.points} point(s) scored in hand {outcome.hand}, "
                f"but it is {outcome.points} ({_ending_words(outcome)})",
            )
        if dict(event.score) != state.score:
            self.diagnose(
                step.line,
                Check.RESULT_SCORE,
                f"result says the score is {score_words(event.score)}, "
                f"but it is {score_words(state.score)}",
            )
            if _fits(event.score, state.teams):
                state.adopt_score(event.score)
        if len(self.game.diagnostics) > before:
            step.error = self.game.diagnostics[before]

    def _game_end(self, step: Step, event: GameEndEvent) -> None:
        self.game.ended = True
        state, given = self.state, event.model_fields_set
        over = state.phase is Phase.GAME_OVER
        if event.abandoned and over:
            self.diagnose(
                step.line,
                Check.END_ABANDONED,
                f"game_end says the game was abandoned, but {state.winner} reached "
                f"{state.rules.target}",
            )
        elif not event.abandoned and not over:
            self.diagnose(
                step.line,
                Check.END_NOT_OVER,
                f"game_end, but nobody reached {state.rules.target} "
                f"(score {score_words(state.score)}); mark a game stopped early with "
                '"abandoned": true',
            )
        if "winner" in given and event.winner != state.winner:
            self.diagnose(
                step.line,
                Check.END_WINNER,
                f"game_end names {event.winner or 'no winner'} as the winner, but it is "
                f"{state.winner or 'nobody'} (score {score_words(state.score)})",
            )
        if event.score is not None and dict(event.score) != state.score:
            self.diagnose(
                step.line,
                Check.END_SCORE,
                f"game_end says the score is {score_words(event.score)}, "
                f"but it is {score_words(state.score)}",
            )

    def _after_game_over(self, step: Step) -> None:
        """A deal after someone reached the target: report it, skip the rest of the game."""
        step.checked = False
        self._keep(step)
        if self.recovering_from is None:
            step.error = self.diagnose(
                step.line,
                Code.GAME_OVER,
                f"the game is over ({self.state.winner} reached {self.state.rules.target}): "
                "no deal may follow",
            )
            self._recover(step.error)
        else:
            self.skipped.add(step.line)

    def _after_end(self, step: Step) -> None:
        step.checked = False
        if self.recovering_from is None:
            step.error = self.diagnose(
                step.line,
                Check.AFTER_END,
                f"{step.source.type} after game_end: only a show or a new game line may follow",
            )
            self._recover(step.error)
        else:
            self.skipped.add(step.line)

    def finish(self) -> CheckedGame:
        """The game checked, once its last line has been fed."""
        self._end_recovery()
        game = self.game
        game.fingerprint = self.compared.hexdigest()
        game.last_line = self.last_line
        state = game.final
        if state.phase is not Phase.GAME_OVER and not game.ended:
            at, target, hand = self.last_line, state.rules.target, state.hand_no
            mid_hand = state.phase is Phase.PLAY
            game.note(unfinished(self.path, at, game.id, state.score, target, hand, mid_hand))
        return game


def _attempt(state: State, action: Action) -> IllegalActionError | None:
    try:
        state.push(action)
    except IllegalActionError as exc:
        return exc
    return None


def _fits(score: Mapping[str, int] | None, teams: tuple[str, str]) -> TypeGuard[Mapping[str, int]]:
    return score is not None and set(score) == set(teams)


def _ending_words(outcome: Outcome) -> str:
    if outcome.ending == "draw":
        return "all three tricks tied"
    if outcome.ending == "fold":
        return "decided by a fold" + (" to a reste" if outcome.reste else "")
    return "decided by the tricks" + (" after an accepted reste" if outcome.reste else "")


def _phase_words(state: State) -> str:
    if state.phase is Phase.PLAY:
        return f"{state.to_act} is still to act"
    if state.phase is Phase.REDEAL:
        return f"{state.dealer_name} must deal again after the granted redeal"
    return "no hand has been dealt"
