"""Checked games to read, replay and study: the public face of the validator.

:func:`read_games` reads logs lazily, one game in memory at a time, each
checked by the validator; a :class:`Game` has its hands, a :class:`Hand`
replays through the engine step by step, as ``chess.pgn`` games replay their
main line.

>>> game = next(read_games("sample_logs/2026-11-29-cafe-du-port-classic.truclog.jsonl"))
>>> game.id, game.players, len(game.hands), game.score, game.winner, game.complete
('cafe-du-port-2026-11-29-1', ('Ana', 'Marc'), 15, {'Ana': 11, 'Marc': 12}, 'Marc', True)
>>> hand = game.hands[0]
>>> hand.number, hand.dealer, hand.winner, hand.points, hand.ending
(1, 'Marc', 'Marc', 2, 'tricks')
>>> for step, state in hand.replay():
...     print(step.line, step.action, "| value", state.value, "| tricks", state.results)
2 Marc deals (Ana: 7h Qs 9s; Marc: ?? ?? ??) | value 1 | tricks []
3 Ana raises to 2 | value 1 | tricks []
4 Marc accepts | value 2 | tricks []
5 Ana plays 7h | value 2 | tricks []
6 Marc plays 8d | value 2 | tricks [0]
7 Ana plays Qs | value 2 | tricks [0]
8 Marc plays Ac | value 2 | tricks [0, 1]
9 Marc plays Jd | value 2 | tricks [0, 1]
10 Ana plays 9s | value 2 | tricks [0, 1, 1]
11 None | value 2 | tricks [0, 1, 1]

A step is the validator's :class:`~truclog.validate.Step`: its ``line``, its
``action`` (``None`` for a ``result`` or ``game_end`` line), its ``error`` and
whether the engine ``applied`` it. The state is the engine's
:class:`~truclog.engine.State` after the step: one object, changed by each next
step, so ``state.copy()`` keeps a moment.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING

from truclog.diagnostic import Diagnostic
from truclog.engine.actions import Accept, Action, Deal, Fold, Play
from truclog.engine.rules import Rules
from truclog.engine.state import Outcome, State
from truclog.errors import IllegalActionError
from truclog.validate.checker import CheckedGame, CheckedHand, Step
from truclog.validate.games import check_logs
from truclog.validate.tally import GameTally

if TYPE_CHECKING:  # the format's models (pydantic) are imported when a line needs them
    from truclog.format.events import GameEvent
    from truclog.record.annotations import Annotation, Notes
    from truclog.solver.answer import AnswerReview  # the solver: when a first hand is reviewed
    from truclog.solver.grade import Grade
    from truclog.solver.play import PlayReview

Paths = str | Path | Iterable[str | Path]
"""One path or several: files, folders (every log under them), ``.gz`` files or ``-``."""


class Hand:
    """One hand of a checked game: its lines as steps, and how it ended; the notes and
    marks on its steps (:attr:`annotations`), from its lines and its log's notes file."""

    __slots__ = ("checked", "game_id", "noted")

    def __init__(
        self,
        checked: CheckedHand,
        game_id: str = "",
        noted: dict[int, Annotation] | None = None,
    ) -> None:
        self.checked = checked
        self.game_id = game_id
        self.noted = noted or {}
        """The annotations of the log's notes file on this hand, by step number."""

    @property
    def number(self) -> int:
        """The hand's number in its game."""
        return self.checked.number

    @property
    def steps(self) -> list[Step]:
        """The hand's lines, from its deal to the line before the next deal."""
        return self.checked.steps

    @property
    def start(self) -> State:
        """The engine state before the hand's first line (do not change it: copy it)."""
        return self.checked.start

    @property
    def ok(self) -> bool:
        """No error and every line checked: only such hands count in statistics."""
        return self.checked.ok

    @property
    def errors(self) -> int:
        """How many errors the validator found in the hand's lines."""
        return self.checked.errors

    @property
    def actions(self) -> list[Action]:
        """The actions the engine applied, in order."""
        return [step.action for step in self.checked.steps if step.applied]  # type: ignore[misc]

    @property
    def dealer(self) -> str:
        """Who dealt the hand (the last deal, after a granted redeal)."""
        deals = [a for a in self.actions if isinstance(a, Deal)]
        return deals[-1].dealer if deals else self.checked.start.dealer_name

    @property
    def outcome(self) -> Outcome | None:
        """How the hand ended, ``None`` while undecided."""
        outcome = self.checked.outcome
        return outcome if outcome is not None and outcome.hand == self.number else None

    @property
    def winner(self) -> str | None:
        """The team (player) that took the hand; ``None`` when drawn or undecided."""
        outcome = self.outcome
        return None if outcome is None else outcome.winner

    @property
    def points(self) -> int:
        """The points the hand's winner scored (0 for a drawn or unfinished hand)."""
        outcome = self.outcome
        return 0 if outcome is None else outcome.points

    @property
    def ending(self) -> str:
        """``tricks``, ``fold``, ``draw``, or ``unfinished`` for a hand not decided."""
        outcome = self.outcome
        return "unfinished" if outcome is None else outcome.ending

    @property
    def score(self) -> dict[str, int]:
        """Each side's score after the hand (before it, while undecided)."""
        outcome = self.outcome
        return dict(outcome.score) if outcome is not None else self.checked.start.score

    def replay(self) -> Iterator[tuple[Step, State]]:
        """Each step of the hand with the engine state after it (one state, changed in place).

        The replay starts from the state the validator started the hand from; a
        step the validator did not apply (an error, or a line it skipped) leaves
        the state as it was.
        """
        state = self.checked.start.copy()
        for step in self.checked.steps:
            action = step.action
            if action is not None and step.error is None and step.checked:  # step.applied
                _push(state, action)
            yield step, state

    def review(self) -> Iterator[Judgement]:
        """The hand's decisions judged (:class:`Judgement`): each card played, and each
        accept or fold answering a raise, with the step and the state after it (as
        :meth:`replay` gives them: one state, changed in place). Only a hand the
        validator passed (:attr:`ok`) is reviewed; in a four-player game every
        decision comes, not judged.

        >>> game = next(read_games("sample_logs/2026-11-29-cafe-du-port-classic.truclog.jsonl"))
        >>> for d in game.hands[0].review():
        ...     print(d.step.line, d.player, d.kind, d.right, d.lost, d.best, d.grade)
        4 Marc accept True 0 ('accept',) best
        5 Ana play True 0 ('7', 'Q', '9') best
        6 Marc play True 0 ('8', 'A', 'J') best
        7 Ana play True 0 ('Q', '9') best
        8 Marc play True 0 ('A',) best
        9 Marc play True 0 ('J',) best
        10 Ana play True 0 ('9',) best
        """
        from truclog.solver.answer import known_hand

        if not self.ok:
            return
        final = self.final
        two = len(final.players) == 2
        dealt = {p: known_hand(final, p) for p in final.players} if two else {}
        state = self.checked.start.copy()
        for step in self.checked.steps:
            action = step.action
            if action is None or step.error is not None or not step.checked:
                continue
            judged = review_decision(state, action, dealt) if isinstance(action, _DECIDED) else None
            _push(state, action)
            if judged is not None:
                yield Judgement.of(step, state, *judged)

    @property
    def final(self) -> State:
        """The engine state after the hand's last line (a new replay each time)."""
        last = deque(self.replay(), maxlen=1)
        return last[0][1] if last else self.checked.start.copy()

    @property
    def annotations(self) -> list[Annotation]:
        """The notes and marks on the hand's steps, by step (``step`` 1 is the first
        line of :attr:`steps`): those written in its lines (``source`` ``"log"``) first,
        then those of the log's notes file (``"notes"``)."""
        from truclog.record.annotations import LOG, of_log

        found = [*of_log(self.game_id, self.number, self.checked.steps).values()]
        found += self.noted.values()
        return sorted(found, key=lambda a: (a.step, a.source != LOG))

    def annotations_at(self, step: int) -> list[Annotation]:
        """The annotations of one step (1 for the hand's first line)."""
        return [a for a in self.annotations if a.step == step]

    @property
    def marks(self) -> tuple[str, ...]:
        """Every mark on the hand's steps, each once, in the order of the steps."""
        return tuple(dict.fromkeys(m for a in self.annotations for m in a.marks))

    @property
    def notes(self) -> list[str]:
        """Every note on the hand's steps, in the order of the steps."""
        return [a.note for a in self.annotations if a.note]

    def __repr__(self) -> str:
        return f"<Hand {self.number} dealt by {self.dealer}: {self.ending}>"


_DECIDED = (Play, Accept, Fold)
_Judged = tuple[str, str, "PlayReview | AnswerReview | None"]
"""Who decided, the decision's kind, and its review."""


def review_decision(
    state: State, action: Play | Accept | Fold, dealt: Mapping[str, str | None]
) -> _Judged | None:
    """The review of ``action`` from ``state``, the position before it, with each
    player's ranks of the deal as the end of the hand knows them (``dealt``, empty in
    a four-player game); ``None`` for a fold without a raise to answer."""
    from truclog.solver.answer import review_answer
    from truclog.solver.play import review_play

    player, pending = action.player, state.pending
    if isinstance(action, Play):
        if not dealt:
            return player, "play", None
        other = dealt[state.players[1 - state.seat[player]]]
        return player, "play", review_play(state, action, dealt[player], other)
    if pending is None:
        return None
    kind = "accept" if isinstance(action, Accept) else "fold"
    if not dealt:
        return player, kind, None
    raiser = dealt[state.players[pending.raiser]]
    return player, kind, review_answer(state, action, dealt[player], raiser)


def _push(state: State, action: Action) -> None:
    try:  # noqa: SIM105 (a suppress() per step costs as much as the push)
        state.push(action)
    except IllegalActionError:  # from a state the validator rebuilt after an error
        pass


@dataclass(frozen=True, slots=True)
class Judgement:
    """A decision of a hand, judged: a card played (``kind`` ``play``), or an answer to a
    raise (``accept`` or ``fold``), with its :class:`Step` and the state after it.

    ``sound`` (best on what the player could know), ``right`` (best with every card
    face up), ``lost`` (points lost, double-dummy; for an answer, its points given),
    ``best`` (the ranks, or the answers, that lose nothing) and ``grade`` are
    ``None`` when they cannot be judged (a hand not known well enough, a four-player
    game); ``review`` holds the details (each rank's worths and odds, an answer's
    stakes), ``None`` in a four-player game."""

    step: Step
    state: State
    player: str
    kind: str
    sound: bool | None
    right: bool | None
    lost: int | None
    best: tuple[str, ...] | None
    grade: Grade | None
    review: PlayReview | AnswerReview | None

    @classmethod
    def of(
        cls,
        step: Step,
        state: State,
        player: str,
        kind: str,
        review: PlayReview | AnswerReview | None,
    ) -> Judgement:
        """The judgement of one decision: the step, the state before it, who decided, what kind of decision and its review."""
        return cls(step, state, player, kind, *verdict(review), review)


def verdict(
    review: PlayReview | AnswerReview | None,
) -> tuple[bool | None, bool | None, int | None, tuple[str, ...] | None, Grade | None]:
    """A decision's ``sound``, ``right``, ``lost``, ``best`` and ``grade`` (see
    :class:`Judgement`) from its review; all ``None`` when it cannot be judged."""
    from truclog.solver.answer import AnswerReview
    from truclog.solver.play import PlayReview

    if isinstance(review, PlayReview):
        return review.sound, review.right, review.lost, review.best, review.grade
    if isinstance(review, AnswerReview) and review.odds is not None:
        return review.sound, review.right, review.points_given, review.best, review.grade
    return None, None, None, None, None


class Game:
    """A game read from a log and checked: its header, hands, diagnostics and final state."""

    __slots__ = ("checked", "hands")

    def __init__(self, checked: CheckedGame, notes: Notes | None = None) -> None:
        """``notes``: the notes file of the game's log, whose annotations of this game
        go to its hands."""
        self.checked = checked
        noted: dict[int, dict[int, Annotation]] = {}
        for (hand, step), annotation in (notes.of_game(checked.id) if notes else {}).items():
            noted.setdefault(hand, {})[step] = annotation
        self.hands = [Hand(h, checked.id, noted.get(h.number)) for h in checked.hands]

    @property
    def id(self) -> str:
        """The game's ``id``, or ``path:line`` when its line has none."""
        return self.checked.id

    @property
    def header(self) -> GameEvent:
        """The ``game`` line as written."""
        header: GameEvent = self.checked.header
        return header

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names in seating order."""
        return self.checked.players

    @property
    def teams(self) -> tuple[str, str]:
        """The two sides: team names, or the two players' names."""
        return self.checked.teams

    @property
    def rules(self) -> Rules:
        """The rules the game was played under."""
        return self.checked.rules

    @property
    def path(self) -> str:
        """The log the game was read from."""
        return self.checked.path

    @property
    def line(self) -> int:
        """The line of the ``game`` line in its file."""
        return self.checked.line

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """What the validator found wrong (errors) or worth a word (warnings)."""
        return self.checked.diagnostics

    @property
    def fingerprint(self) -> str:
        """The same for two logs of the same play (notes, times and extensions aside)."""
        return self.checked.fingerprint

    @property
    def duplicate_of(self) -> tuple[str, int] | None:
        """Where the same game was read first in this run, for a copy."""
        return self.checked.duplicate_of

    @property
    def date(self) -> date | None:
        """The game's ``date``, else the day of its first timestamped line."""
        return game_day(self.checked)

    @property
    def score(self) -> dict[str, int]:
        """The score at the game's last line, as the engine counts it."""
        return self.checked.score

    @property
    def winner(self) -> str | None:
        """The side that reached the target, ``None`` for a game not over."""
        return self.checked.winner

    @property
    def complete(self) -> bool:
        """Whether a side reached the target."""
        return self.checked.complete

    @property
    def final(self) -> State:
        """The engine state at the game's last line."""
        return self.checked.final

    @property
    def annotations(self) -> list[Annotation]:
        """The notes and marks of every hand (see :attr:`Hand.annotations`)."""
        return [a for hand in self.hands for a in hand.annotations]

    def replay(self) -> Iterator[tuple[Step, State]]:
        """Every step of every hand with the engine state after it (see :meth:`Hand.replay`);
        each hand starts from the state the validator started it from."""
        for hand in self.hands:
            yield from hand.replay()

    def review(self) -> Iterator[Judgement]:
        """The judged decisions of every hand (see :meth:`Hand.review`), in log order."""
        for hand in self.hands:
            yield from hand.review()

    def __repr__(self) -> str:
        return f"<Game {self.id} {' v '.join(self.teams)}: {len(self.hands)} hands>"


def _day(text: str | None) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        return None


def game_day(game: CheckedGame) -> date | None:
    """The game's date, or the day of its first timestamped line."""
    day = _day(game.header.date) or _day(game.header.t)
    if day is not None:
        return day
    for hand in game.hands:
        for step in hand.steps:
            if step.t:
                return _day(step.t)
    return None


def tally_day(game: GameTally) -> date | None:
    """The date of a game the quick core cleared, as :func:`game_day` finds it (the
    day of its first timestamped line comes with its facts)."""
    header, facts = game.header, game.facts
    day = None if header is None else _day(header.date) or _day(header.t)
    if day is not None or facts is None:
        return day
    return _day(facts.first_day)


def log_paths(paths: Paths) -> list[str]:
    """``paths`` as a list of path names (one name alone is a list of one)."""
    if isinstance(paths, str | Path):
        return [str(paths)]
    return [str(p) for p in paths]


def read_games(
    paths: Paths,
    *,
    rules: str | Rules | Iterable[str] | None = None,
    outside: list[Diagnostic] | None = None,
) -> Iterator[Game]:
    """The checked games of some logs, one at a time, in reading order.

    ``paths`` are files, folders (every ``*.jsonl`` and ``*.jsonl.gz`` under
    them), ``.gz`` files or ``-`` (standard input). ``rules`` keeps only games
    under a preset (a name, several names, or a :class:`~truclog.engine.rules.Rules`
    the game's rules must equal). A game read twice (same play) comes again with
    ``duplicate_of`` set and a warning. Problems with lines outside any game are
    appended to ``outside`` when given, and so are those of a notes file. A missing
    or unreadable path raises :class:`~truclog.errors.TruclogError`.

    The annotations of a log's notes file (``LOG.notes.jsonl``, see
    :mod:`truclog.record.annotations`) are merged into its games' hands, beside the notes
    and marks of the log's own lines (:attr:`Hand.annotations`).

    >>> [(g.id, g.winner) for g in read_games("sample_logs", rules="sackson")]
    [('sackson-rubber-2026-12-06-g1', 'Jo'), ('sackson-rubber-2026-12-06-g2', 'Jo'), ('veillee-four-2026-12-27', 'Nord-Sud')]
    """
    keeps = _rules_filter(rules)
    notes: Notes | None = None
    for item in check_logs(log_paths(paths)):
        if isinstance(item, Diagnostic):
            if outside is not None:
                outside.append(item)
        elif keeps(item.rules):
            if notes is None or notes.log != item.path:
                notes = _notes(item.path, outside)
            yield Game(item, notes)


def _notes(log: str, outside: list[Diagnostic] | None) -> Notes:
    """The notes file of a log (empty without one); its problems go to ``outside``."""
    from truclog.record.annotations import Notes, has_notes, read_notes

    if not has_notes(log):
        return Notes(log)
    found = read_notes(log)
    if outside is not None:
        outside.extend(found.problems)
    return found


def games_of(source: Paths | Iterable[Game | CheckedGame]) -> Iterator[Game]:
    """Games from paths (read with :func:`read_games`) or given already, each play once:
    a copy of a game seen before (same fingerprint) is left out."""
    if isinstance(source, str | Path):
        source = [source]
    items = iter(source)
    first = next(items, None)
    if first is None:
        return
    rest = chain([first], items)
    if isinstance(first, str | Path):
        games: Iterable[Game | CheckedGame] = read_games(rest)  # type: ignore[arg-type]
    else:
        games = rest  # type: ignore[assignment]
    seen: set[str] = set()
    for game in games:
        if isinstance(game, CheckedGame):
            game = Game(game)
        if game.fingerprint not in seen:
            seen.add(game.fingerprint)
            yield game


def _rules_filter(rules: str | Rules | Iterable[str] | None) -> Callable[[Rules], bool]:
    if rules is None:
        return lambda game_rules: True
    if isinstance(rules, Rules):
        return lambda game_rules: game_rules == rules
    names = frozenset([rules] if isinstance(rules, str) else rules)
    return lambda game_rules: game_rules.name in names


__all__ = [
    "Game",
    "Hand",
    "Judgement",
    "Paths",
    "game_day",
    "games_of",
    "log_paths",
    "read_games",
    "review_decision",
    "verdict",
]
