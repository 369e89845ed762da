"""The review of every decision of some logs: each card played and each answer to a raise,
judged, file by file, with bounded memory.

A run reads files one by one (on ``jobs`` processes, or on a Dask cluster), reviews
the hands the validator passed, each game once (a copy of a game read before is left
out, as statistics leave it out), and gives per file: the decisions kept (by the
filters of :class:`DecisionFilter`), the counts per player and kind, and the costliest
decisions (the most points lost) with the position in words. A game the quick core
clears is reviewed from the judgements it gives with its facts (in C); every other
game is replayed and judged by :meth:`truclog.replay.Hand.review`, the reference.
``docs/review.md`` defines the judgements and the grades.
"""

from __future__ import annotations

import heapq
import os
import tempfile
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache, partial
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import orjson

from truclog.build import QUICK_CORE
from truclog.engine.actions import Accept, Play
from truclog.engine.state import points_won
from truclog.errors import TruclogError, reason
from truclog.format import parts
from truclog.format.parts import Source, name_of
from truclog.format.reader import log_files
from truclog.replay import Game, Judgement, Paths, log_paths
from truclog.solver.answer import AnswerReview
from truclog.solver.grade import Grade, grade_of, grade_place
from truclog.solver.play import PlayReview, Worth, play_positions
from truclog.stats.kept import GameFilter, Tally
from truclog.stats.run import Progress, file_size, kept_games, shared, workers
from truclog.terminal import unicode
from truclog.validate import quick
from truclog.validate.facts import FACT_ACTIONS, REVIEW, GameFacts
from truclog.validate.tally import GameTally

if TYPE_CHECKING:
    import polars as pl

KINDS = ("play", "accept", "fold")
"""The kinds of decisions judged, in the order reports list them."""


def decisions_schema() -> dict[str, Any]:
    """The columns of :func:`review`'s frame, one row per decision: where it is written,
    who made it, and its judgements (polars is imported only for the frame: ``truclog
    review`` writes its report and lines without it)."""
    import polars as pl

    return {
        "path": pl.Utf8,
        "line": pl.Int64,
        "game": pl.Utf8,
        "hand": pl.Int64,
        "player": pl.Utf8,
        "kind": pl.Utf8,
        "sound": pl.Boolean,
        "right": pl.Boolean,
        "lost": pl.Int64,
        "best": pl.List(pl.Utf8),
        "grade": pl.Utf8,
    }


OUTPUT = ("path", "line", "game", "hand", "player", "kind", "sound", "right", "lost", "best")
"""The fields of a decision in ``truclog review --format json``."""

TALLIES = ("decisions", "judged", "right", "known", "sound", "points_lost", *Grade)
"""What a player's decisions of one kind count: all of them, those judged in hindsight
(``right`` known) and right, those judged on the player's view (``sound`` known) and
sound, the points lost, and how many got each grade."""

Row = tuple[Any, ...]
"""A decision as a row of :func:`decisions_schema`."""


@dataclass(frozen=True, slots=True)
class DecisionFilter:
    """Which decisions a run keeps: by player, by game id, and from how many points lost
    (``None``: every decision, judged or not). The counts follow the players and games
    chosen; ``min_lost`` chooses only the decisions listed."""

    players: tuple[str, ...] = ()
    games: tuple[str, ...] = ()
    min_lost: float | None = None

    def keeps_game(self, game: str) -> bool:
        """Whether decisions of game ``game`` are kept."""
        return not self.games or game in self.games

    def keeps_player(self, player: str) -> bool:
        """Whether decisions of ``player`` are kept."""
        return not self.players or player in self.players

    def lists(self, lost: int | None) -> bool:
        """Whether a decision that lost ``lost`` points goes in the list."""
        return self.min_lost is None or (lost is not None and lost >= self.min_lost)


@dataclass(frozen=True, slots=True)
class Costly:
    """A decision that lost points, for the report's costliest list."""

    lost: int
    row: Row
    words: str


@dataclass(slots=True)
class FileReview:
    """What one file gave: its decisions kept (when asked), its counts per player and
    kind, its costliest decisions, the keys of the games it read and its tally."""

    path: str
    rows: list[Row] = field(default_factory=list)
    counts: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    costliest: list[Costly] = field(default_factory=list)
    keys: array[int] = field(default_factory=lambda: array("Q"))
    tally: Tally = field(default_factory=Tally)
    spooled: str | None = None
    """The file its decisions were written to instead of ``rows``, as
    :func:`decision_lines` writes them (in a run on processes that spools them)."""
    source: Source | None = None
    """What was reviewed, when a part of the file ``path`` (see
    :mod:`truclog.format.parts`)."""


def decision_lines(rows: list[Row]) -> bytes:
    """Decisions as ``truclog review --format json`` writes them: an object of the
    :data:`OUTPUT` fields a line, the lines joined by a comma and an indent."""
    return b",\n  ".join([orjson.dumps(dict(zip(OUTPUT, row, strict=False))) for row in rows])


class _Spool:
    """Writes a file's decisions, as :func:`decision_lines` writes them, to a new file of
    ``folder``."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        try:
            handle, self.path = tempfile.mkstemp(suffix=".json", dir=folder)
        except OSError as exc:
            raise self._failed(exc) from None
        self.out = os.fdopen(handle, "wb")
        self.first = True

    def __call__(self, lines: bytes) -> None:
        try:
            self.out.write((b"" if self.first else b",\n  ") + lines)
        except OSError as exc:
            raise self._failed(exc) from None
        self.first = False

    def _failed(self, exc: OSError) -> TruclogError:
        return TruclogError(f"cannot write the decisions to {self.folder}: {reason(exc)}")


@contextmanager
def _spool_folder(spooling: bool) -> Iterator[str | None]:
    """A new temporary folder for the files of :class:`_Spool` (removed at the end with
    what is left in it), when ``spooling``."""
    if not spooling:
        yield None
        return
    try:
        folder = tempfile.TemporaryDirectory(prefix="truclog-review-")
    except OSError as exc:
        where = tempfile.gettempdir()
        raise TruclogError(f"cannot make a temporary folder in {where}: {reason(exc)}") from None
    with folder as name:
        yield name


def decision_row(path: str, game: str, hand: int, decision: Judgement) -> Row:
    """A decision as a row of :func:`decisions_schema`."""
    grade = None if decision.grade is None else str(decision.grade)
    best = None if decision.best is None else list(decision.best)
    return (
        unicode(path),
        decision.step.line,
        game,
        hand,
        decision.player,
        decision.kind,
        decision.sound,
        decision.right,
        decision.lost,
        best,
        grade,
    )


def review_file(
    path: Source,
    keep: GameFilter,
    chosen: DecisionFilter,
    rows: bool = True,
    top: int = 10,
    progress: Progress | None = None,
    seen: set[int] | None = None,
    sink: Sink | None = None,
    spool: str | None = None,
    lines: LineSink | None = None,
) -> FileReview:
    """The review of one file (or a part of one), each play once (copies inside the file, and games whose
    key is in ``seen``, which grows, are left out): its decisions when ``rows`` (as rows,
    given to ``sink`` game by game as they come when given; or as the lines of
    :func:`decision_lines`, given to ``lines`` or written to a file of the folder
    ``spool``: either way memory does not grow with the file), its counts, its ``top``
    costliest decisions. ``progress`` hears of the bytes read and of the hands
    reviewed.

    A game the quick core clears is reviewed from the facts it gives of each decision
    (judged in C, counted and written by ``truclog.validate._quick.decisions`` without
    a row of each; ``tests/test_review.py`` holds them to the Python reviewer): only
    the costliest decisions are made rows and put in words, from their game's facts.
    Every other game is replayed and judged by :meth:`truclog.replay.Hand.review`."""
    spooled = _Spool(spool) if spool is not None and rows else None
    try:
        done = _reviewed(path, keep, chosen, rows, top, progress, seen, sink, spooled or lines)
    finally:
        if spooled is not None:
            spooled.out.close()
    if spooled is not None:
        done.spooled = spooled.path
    return done


def _reviewed(
    source: Source,
    keep: GameFilter,
    chosen: DecisionFilter,
    rows: bool,
    top: int,
    progress: Progress | None,
    seen: set[int] | None,
    sink: Sink | None,
    lines: LineSink | None,
) -> FileReview:
    path = name_of(source)
    tally = Tally(files=int(parts.starts_log(source)))  # a file counts once, whatever its parts
    done = FileReview(path, tally=tally, source=None if source == path else source)
    written = lines if rows else None
    emit = (sink or done.rows.extend) if rows and written is None else None
    kept = _Kept(chosen, top, emit, written)
    seen = set() if seen is None else seen
    named = unicode(path)
    head = b'{"path":' + orjson.dumps(named) + b',"line":'  # each line of the file begins so
    # rows of C values, unless each decision is made a row (then the lists are read)
    asked = quick.REVIEW_FACTS if emit is not None else quick.REVIEW_ROWS_FACTS
    games = kept_games(source, keep, tally, seen, done.keys, progress, facts=asked)
    for game in games:
        if not chosen.keeps_game(game.id):
            tally.filtered_out += 1
            continue
        tally.games += 1
        if isinstance(game, GameTally):
            assert game.facts is not None  # asked for
            tally.hands += game.facts.hand_count
            _review_facts(named, head, game, game.facts, kept)
            if progress is not None:
                progress(0, game.facts.hand_count)
        else:
            _review_replay(path, Game(game), kept, tally, progress)
    done.counts = kept.counts()
    done.costliest = kept.costliest()
    return done


Sink = Callable[[list[Row]], None]
"""Takes the decisions listed, a game's (or a hand's) at a time."""

LineSink = Callable[[bytes], None]
"""Takes the decisions listed as :func:`decision_lines` writes them, a game's (or a
hand's) at a time."""

Words = Callable[[int], str]
"""The position of a batch's decision (by its place in the batch) in words: put only
when it makes the costliest list."""

_COUNTED = itemgetter(4, 5, 6, 7, 8, 10)
"""What the counts of a decision depend on: player, kind, sound, right, lost, grade."""


class _Kept:
    """What a file's review keeps of its decisions, given in batches (a game's, or a
    hand's): how many of each kind of judgement, the decisions listed (as rows to
    ``emit``, or as JSON to ``lines``), and a heap of the ``top`` costliest."""

    __slots__ = ("chosen", "emit", "heap", "judged", "lines", "order", "players", "top")

    def __init__(
        self, chosen: DecisionFilter, top: int, emit: Sink | None, lines: LineSink | None = None
    ) -> None:
        self.chosen, self.top, self.emit, self.lines = chosen, top, emit, lines
        self.heap: list[tuple[int, int, Row, Words, int]] = []
        self.judged: Counter[tuple[Any, ...]] = Counter()
        self.order = 0
        self.players: dict[str, tuple[bytes, array[int]] | None] = {}
        """Of each player met in a game the quick core cleared: ``None`` when not chosen,
        else what ``truclog.validate._quick.decisions`` writes before a decision's kind
        (see :func:`decision_lines`) and counts their decisions into (see :data:`TALLIES`,
        a kind of :data:`KINDS` after the other)."""

    def add(self, rows: list[Row], words: Words) -> None:
        """Count the decisions ``rows`` (of players chosen, in log order), list those
        chosen, and keep the costliest (``words`` puts them in words)."""
        self.judged.update(map(_COUNTED, rows))
        chosen, order = self.chosen, self.order
        self.order += len(rows)
        listed = rows if chosen.min_lost is None else [r for r in rows if chosen.lists(r[8])]
        if self.emit is not None and listed:
            self.emit(listed)
        if self.lines is not None and listed:
            self.lines(decision_lines(listed))
        if not self.top:
            return
        for at in [at for at, row in enumerate(rows) if row[8]]:
            row = rows[at]
            if chosen.lists(row[8]):
                self.offer(row[8], order + at, row, words, at)

    def offer(self, lost: int, order: int, row: Row, words: Words, at: int) -> None:
        """Keep a decision (the ``order``-th, from 0, of the file's counted) that lost
        ``lost`` points if it is among the costliest so far."""
        heap = self.heap
        entry = (lost, -(order + 1), row, words, at)
        if len(heap) < self.top:
            heapq.heappush(heap, entry)
        elif entry[:2] > heap[0][:2]:
            heapq.heapreplace(heap, entry)

    def floor(self) -> int:
        """A decision listed that lost more points than this may be among the costliest
        (-1: none is kept)."""
        if not self.top:
            return -1
        return self.heap[0][0] if len(self.heap) >= self.top else 0

    def player(self, name: str) -> tuple[bytes, array[int]] | None:
        """What the quick core's review writes and counts of ``name``'s decisions (see
        :attr:`players`), or ``None`` when they are left out."""
        found = self.players.get(name, ())
        if found == ():
            found = None
            if self.chosen.keeps_player(name):
                piece = b',"player":' + orjson.dumps(name) + b',"kind":"'
                found = (piece, array("q", bytes(8 * len(TALLIES) * len(KINDS))))
            self.players[name] = found
        return found  # type: ignore[return-value]

    def counts(self) -> dict[tuple[str, str], list[int]]:
        """The counts of :data:`TALLIES` per player and kind."""
        counts: dict[tuple[str, str], list[int]] = {}
        for (player, kind, sound, right, lost, grade), times in self.judged.items():
            tallied = counts.setdefault((player, kind), [0] * len(TALLIES))
            tallied[0] += times
            if right is not None:
                tallied[1] += times
                tallied[2] += right * times
                tallied[5] += (lost or 0) * times
            if sound is not None:
                tallied[3] += times
                tallied[4] += sound * times
            if grade is not None:
                tallied[_GRADES[grade]] += times
        size = len(TALLIES)
        for player, kept in self.players.items():
            for k, kind in enumerate(KINDS):
                values = kept[1][k * size : (k + 1) * size] if kept is not None else None
                if values is not None and values[0]:
                    tallied = counts.setdefault((player, kind), [0] * size)
                    for i, value in enumerate(values):
                        tallied[i] += value
        return counts

    def costliest(self) -> list[Costly]:
        """The costliest decisions, most points lost first (in log order when alike)."""
        ranked = sorted(self.heap, key=lambda e: e[:2], reverse=True)
        return [Costly(lost, row, words(at)) for lost, _, row, words, at in ranked]


def _review_replay(
    path: str, game: Game, kept: _Kept, tally: Tally, progress: Progress | None
) -> None:
    """Review a game replayed by the engine, hand by hand (those the validator passed)."""
    for hand in game.hands:
        if not hand.ok:
            tally.hands_left_out += 1
            continue
        tally.hands += 1
        decisions = [d for d in hand.review() if kept.chosen.keeps_player(d.player)]
        rows = [decision_row(path, game.id, hand.number, d) for d in decisions]
        kept.add(rows, partial(_words_of, decisions))
        if progress is not None:
            progress(0, 1)


def _words_of(decisions: list[Judgement], at: int) -> str:
    return position_words(decisions[at])


_AT = {name: at for at, name in enumerate((*FACT_ACTIONS, *REVIEW))}
_HAND, _SEAT, _TYPE, _PENDING, _SOUND, _RIGHT, _GIVEN, _LOST = (
    _AT[name]
    for name in ("row", "seat", "type", "pending", "sound", "right", "points_given", "lost")
)
_LINE, _BEST, _STAKE = (_AT[name] for name in REVIEW)


def _review_facts(path: str, head: bytes, game: GameTally, facts: GameFacts, kept: _Kept) -> None:
    """Review a game the quick core cleared, from its facts: each card played and each
    answer to a pending raise, with the judgements the core gave it (a four-player
    game's not judged), counted and written (when its lines are asked for) by the
    core's ``decisions`` (``head``: what each line of the file begins with); made rows
    when rows are asked for, and when among the costliest."""
    assert QUICK_CORE is not None  # it gave the facts
    seats = [kept.player(player) for player in game.players]
    pieces = tuple(None if seat is None else seat[0] for seat in seats)
    tallies = tuple(None if seat is None else seat[1] for seat in seats)
    named = b',"game":' + orjson.dumps(game.id) + b',"hand":'
    rows = facts.rows  # a Facts when asked for REVIEW_ROWS_FACTS
    lines, counted, costly = QUICK_CORE.decisions(
        facts.actions if rows is None else rows,
        facts.hands[0] if rows is None else None,
        pieces,
        tallies,
        head,
        named,
        kept.lines is not None,
        kept.floor(),
        kept.chosen.min_lost,
        grade_place,
    )
    if lines is not None and kept.lines is not None:
        kept.lines(lines)
    if kept.emit is not None:
        listed = [_fact_row(path, game, facts, at) for at in _decisions_of(game, facts, kept)]
        if listed:
            kept.emit(listed)
    order = kept.order
    kept.order += counted
    if costly:
        if rows is not None:  # the few games with decisions among the costliest, as lists
            hands, actions = QUICK_CORE.review_lists(rows)
            facts = facts._replace(hands=hands, actions=actions, rows=None)
        words = partial(_fact_words, game, facts)
        for at, place in costly:
            row = _fact_row(path, game, facts, at)
            kept.offer(row[8], order + place, row, words, at)


def _decisions_of(game: GameTally, facts: GameFacts, kept: _Kept) -> list[int]:
    """Where in a game's facts its decisions listed are (cards played and answers to a
    pending raise, of players chosen)."""
    actions, players, chosen = facts.actions, game.players, kept.chosen
    keeps = chosen.keeps_player
    found = []
    columns = zip(
        actions[_TYPE],
        actions[_PENDING],
        actions[_SEAT],
        actions[_LOST],
        actions[_GIVEN],
        strict=True,
    )
    for at, (kind, pending, seat, lost, given) in enumerate(columns):
        if kind != "play":
            if pending is None:  # a raise, a redeal, a fold with no raise to answer
                continue
            lost = given
        if keeps(players[seat]) and chosen.lists(lost):
            found.append(at)
    return found


def _fact_row(path: str, game: GameTally, facts: GameFacts, at: int) -> Row:
    """The row of the decision in the row ``at`` of a game's facts."""
    actions = facts.actions
    kind = actions[_TYPE][at]
    lost = actions[_LOST if kind == "play" else _GIVEN][at]
    graded = None if lost is None else _grade(lost, actions[_STAKE][at])
    return (
        path,
        actions[_LINE][at],
        game.id,
        facts.hands[0][actions[_HAND][at]],
        game.players[actions[_SEAT][at]],
        kind,
        actions[_SOUND][at],
        actions[_RIGHT][at],
        lost,
        actions[_BEST][at],
        graded,
    )


@lru_cache(maxsize=1 << 12)
def _grade(lost: int, stake: int) -> str:
    return str(grade_of(lost, stake))


def _fact_words(game: GameTally, facts: GameFacts, at: int) -> str:
    """:func:`position_words` of the decision in the row ``at`` of a game's facts."""
    actions, rules = facts.actions, facts.rules
    hand, seat = actions[_HAND][at], actions[_SEAT][at]
    player, other = game.players[seat], game.players[1 - seat]
    fact = [column[hand] for column in facts.hands]
    scores, cards = fact[2:4], fact[10:12]
    rows = [r for r in range(at + 1) if actions[_HAND][r] == hand]
    if actions[_TYPE][at] != "play":
        raised = next(r for r in reversed(rows) if actions[_TYPE][r] == "raise")
        to = points_won(
            rules, scores[1 - seat], actions[_AT["to"]][raised], actions[_AT["reste"]][raised]
        )
        conceded = -int(actions[_AT["answer_worth_fold"]][at])
        return _answer_words(player, actions[_TYPE][at] == "accept", other, to, conceded)
    plays = [
        (
            r,
            actions[_SEAT][r],
            actions[_AT["card"]][r],
            actions[_AT["value_before"]][r],
            actions[_AT["reste"]][r],
        )
        for r in rows
        if actions[_TYPE][r] == "play"
    ]
    *_, (_, _, rank, value, reste, seen) = play_positions(rules, fact[1], plays)
    worth = Worth(
        points_won(rules, scores[seat], value, reste),
        points_won(rules, scores[1 - seat], value, reste),
    )
    review = PlayReview(rank, worth, seen, cards[seat], cards[1 - seat])
    return _play_words(player, rank, review, rules.order)


_GRADES = {str(grade): 6 + at for at, grade in enumerate(Grade)}


def position_words(decision: Judgement) -> str:
    """The position a decision was made in and what it did, in words.

    >>> from truclog.replay import read_games
    >>> game = next(read_games("sample_logs/2026-11-29-cafe-du-port-classic.truclog.jsonl"))
    >>> print(position_words(next(game.hands[0].review())))
    Marc accepts Ana's raise to 2 (1 conceded by a fold)
    """
    action, review = decision.step.action, decision.review
    if isinstance(review, PlayReview) and isinstance(action, Play):
        return _play_words(decision.player, action.card.rank, review, decision.state.rules.order)
    if isinstance(review, AnswerReview):
        stakes = review.stakes
        accepted = isinstance(action, Accept)
        return _answer_words(
            decision.player, accepted, _other(decision), stakes.to, stakes.conceded
        )
    return f"{decision.player} {decision.kind}s"


def _answer_words(player: str, accepted: bool, raiser: str, to: int, conceded: int) -> str:
    verb = "accepts" if accepted else "folds to"
    return f"{player} {verb} {raiser}'s raise to {to} ({conceded} conceded by a fold)"


def _other(decision: Judgement) -> str:
    players = decision.state.players
    return players[1 - players.index(decision.player)] if len(players) == 2 else "the other side"


def _play_words(player: str, rank: str, review: PlayReview, order: str) -> str:
    seen = review.seen
    trick = len(seen.results) + 1
    place = f"follows {seen.table}" if seen.table is not None else "leads"
    held = _rest(review.hand, seen.played, order)
    words = f"trick {trick}: {player} {place} with {rank}"
    if held:
        words += f", holding {' '.join(held)}"
    other = _rest(review.other_hand, seen.other_played, order)
    if other is not None:
        words += f" against {' '.join(other) or 'nothing'}"
    if seen.results:
        words += f", tricks so far {seen.results} (W won, L lost, T tied)"
    worth = review.worth
    return words + f"; the hand is worth +{worth.gain} / -{worth.loss}"


def _rest(hand: str | None, played: str, order: str) -> list[str] | None:
    """The ranks of ``hand`` not ``played``, high to low."""
    if hand is None:
        return None
    left = list(hand)
    for rank in played:
        if rank in left:
            left.remove(rank)
    return sorted(left, key=order.index)


FileReviewer = Callable[[list[str], GameFilter, DecisionFilter], Iterator[FileReview]]
"""Reviews each of some files (as :func:`review_file` does), given back in their order."""


def review_files(
    sources: Sequence[str],
    keep: GameFilter | None = None,
    chosen: DecisionFilter | None = None,
    rows: bool = True,
    top: int = 10,
    jobs: int = 1,
    progress: Progress | None = None,
    each_file: FileReviewer | None = None,
    sink: Sink | None = None,
    spool: bool = False,
    lines: LineSink | None = None,
) -> Iterator[FileReview]:
    """Each file's review, in file order, each game once (the first time it is read);
    on ``jobs`` processes (a large file in parts, each part's review given in its
    turn, see :mod:`truclog.format.parts`), or on a cluster (``each_file``, see
    :mod:`truclog.stats.distributed`). Read here, a file's rows go to ``sink`` as they
    come when it is given, or as the lines of :func:`decision_lines` to ``lines``; from
    elsewhere they come in its review, or with ``spool`` (on processes) in the file
    :attr:`FileReview.spooled`, which is removed when the next file's review is asked
    for: memory does not grow with the files."""
    keep, chosen = keep or GameFilter(), chosen or DecisionFilter()
    paths = log_files(sources)
    seen: set[int] = set()
    units = parts.for_jobs(paths, jobs if each_file is None else 1)
    parallel = each_file is not None or (jobs > 1 and len(units) > 1 and "-" not in paths)
    spooling = spool and rows and parallel and each_file is None
    with _spool_folder(spooling) as folder:
        one = partial(review_file, keep=keep, chosen=chosen, rows=rows, top=top, spool=folder)
        if each_file is not None:
            results: Iterator[FileReview] = each_file(paths, keep, chosen)
        elif parallel:
            results = _in_processes(units, one, jobs)
        else:
            results = (
                one(path, progress=progress, seen=seen, sink=sink, lines=lines) for path in units
            )
        for result in results:
            if parallel and not seen.isdisjoint(result.keys):
                # a copy of a game of an earlier file: review this file again without them
                _unspool(result)
                result = one(result.source or result.path, seen=seen)
            elif parallel:
                seen.update(result.keys)
            if progress is not None and parallel:
                progress(file_size(result.source or result.path), result.tally.hands)
            yield result
            _unspool(result)


def _unspool(result: FileReview) -> None:
    if result.spooled is not None:
        os.remove(result.spooled)
        result.spooled = None


def _in_processes(
    paths: list[Source], one: Callable[[Source], FileReview], jobs: int
) -> Iterator[FileReview]:
    with workers(jobs) as pool:
        yield from shared(paths, one, pool, jobs - 1)


def player_summary(counts: dict[tuple[str, str], list[int]]) -> list[dict[str, Any]]:
    """Per player (by name), the counts of :data:`TALLIES` of every decision and of each
    kind, with ``accuracy`` (right over judged) and ``sound_rate`` (sound over known).

    >>> summary = player_summary({("Ana", "play"): [3, 2, 1, 2, 2, 2, 1, 0, 1, 0]})
    >>> summary[0]["player"], summary[0]["judged"], summary[0]["accuracy"], summary[0]["kinds"]["play"]["blunder"]
    ('Ana', 2, 0.5, 0)
    """
    players = sorted({player for player, _ in counts})
    summary = []
    for player in players:
        kinds = {kind: counts.get((player, kind), [0] * len(TALLIES)) for kind in KINDS}
        total = [sum(values) for values in zip(*kinds.values(), strict=True)]
        summary.append(
            {
                "player": player,
                **_counted(total),
                "kinds": {k: _counted(v) for k, v in kinds.items()},
            }
        )
    return summary


def _counted(values: list[int]) -> dict[str, Any]:
    counted: dict[str, Any] = {
        str(name): value for name, value in zip(TALLIES, values, strict=True)
    }
    judged, known = counted["judged"], counted["known"]
    counted["accuracy"] = counted["right"] / judged if judged else None
    counted["sound_rate"] = counted["sound"] / known if known else None
    return counted


def add_counts(
    total: dict[tuple[str, str], list[int]], more: dict[tuple[str, str], list[int]]
) -> None:
    """Add ``more`` counts into ``total``."""
    for key, values in more.items():
        into = total.setdefault(key, [0] * len(TALLIES))
        for i, value in enumerate(values):
            into[i] += value


def review(paths: Paths, *, players: Iterable[str] = (), games: Iterable[str] = ()) -> pl.DataFrame:
    """The judged decisions of some logs as a DataFrame (:func:`decisions_schema`), in log
    order, each game once; ``players`` and ``games`` (ids) keep only theirs.

    >>> import polars as pl
    >>> decisions = review("sample_logs/2026-11-29-cafe-du-port-classic.truclog.jsonl")
    >>> decisions.filter(kind="play").group_by("player").agg(pl.col("lost").sum()).sort("player").rows()
    [('Ana', 2), ('Marc', 0)]
    """
    import polars as pl

    chosen = DecisionFilter(tuple(players), tuple(games))
    schema = decisions_schema()
    frames = [
        pl.DataFrame(done.rows, schema=schema, orient="row")
        for done in review_files(log_paths(paths), chosen=chosen, top=0)
        if done.rows
    ]
    return pl.concat(frames) if frames else pl.DataFrame(schema=schema)


__all__ = [
    "KINDS",
    "OUTPUT",
    "TALLIES",
    "DecisionFilter",
    "FileReview",
    "add_counts",
    "decision_lines",
    "decision_row",
    "decisions_schema",
    "player_summary",
    "position_words",
    "review",
    "review_file",
    "review_files",
]
