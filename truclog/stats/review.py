"""The review of every decision of some logs: each card played and each answer to a raise,
judged (:meth:`truclog.replay.Hand.review`), file by file, with bounded memory.

A run reads files one by one (on ``jobs`` processes, or on a Dask cluster), reviews
the hands the validator passed, each game once (a copy of a game read before is left
out, as statistics leave it out), and gives per file: the decisions kept (by the
filters of :class:`DecisionFilter`), the counts per player and kind, and the costliest
decisions (the most points lost) with the position in words. ``docs/review.md``
defines the judgements and the grades.
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import polars as pl

from truclog.engine.actions import Accept, Play
from truclog.engine.cards import Card
from truclog.format.reader import log_files
from truclog.replay import Game, Judgement, Paths, log_paths
from truclog.solver.answer import AnswerReview
from truclog.solver.grade import Grade
from truclog.solver.play import PlayReview
from truclog.stats.run import Progress, file_size, kept_games, shared, workers
from truclog.stats.tables import GameFilter, Tally
from truclog.terminal import unicode
from truclog.validate.checker import CheckedGame

KINDS = ("play", "accept", "fold")
"""The kinds of decisions judged, in the order reports list them."""

DECISIONS: dict[str, Any] = {
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
"""One row per decision: where it is written, who made it, and its judgements."""

OUTPUT = ("path", "line", "game", "hand", "player", "kind", "sound", "right", "lost", "best")
"""The fields of a decision in ``truclog review --format json``."""

TALLIES = ("decisions", "judged", "right", "known", "sound", "points_lost", *Grade)
"""What a player's decisions of one kind count: all of them, those judged in hindsight
(``right`` known) and right, those judged on the player's view (``sound`` known) and
sound, the points lost, and how many got each grade."""

Row = tuple[Any, ...]
"""A decision as a row of :data:`DECISIONS`."""


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


def decision_row(path: str, game: str, hand: int, decision: Judgement) -> Row:
    """A decision as a row of :data:`DECISIONS`."""
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
    path: str,
    keep: GameFilter,
    chosen: DecisionFilter,
    rows: bool = True,
    top: int = 10,
    progress: Progress | None = None,
    seen: set[int] | None = None,
    sink: Callable[[Row], None] | None = None,
) -> FileReview:
    """The review of one file, each play once (copies inside the file, and games whose
    key is in ``seen``, which grows, are left out): its decisions as rows when ``rows``
    (given to ``sink`` as they come when given, so that memory does not grow with the
    file), its counts, its ``top`` costliest decisions. ``progress`` hears of the bytes
    read and of the hands reviewed."""
    tally = Tally(files=1)
    done = FileReview(path, tally=tally)
    emit = sink or done.rows.append
    seen = set() if seen is None else seen
    costliest: list[tuple[int, int, Costly]] = []  # a heap of the top ones
    order = 0
    for checked in kept_games(path, keep, tally, seen, done.keys, progress):
        assert isinstance(checked, CheckedGame)  # no facts asked: every game replays
        if not chosen.keeps_game(checked.id):
            tally.filtered_out += 1
            continue
        tally.games += 1
        game = Game(checked)
        for hand in game.hands:
            if not hand.ok:
                tally.hands_left_out += 1
                continue
            tally.hands += 1
            for decision in hand.review():
                if not chosen.keeps_player(decision.player):
                    continue
                _tally(done.counts, decision)
                row = decision_row(path, game.id, hand.number, decision)
                if rows and chosen.lists(decision.lost):
                    emit(row)
                lost, order = decision.lost, order + 1
                if top and lost and chosen.lists(lost):
                    costly = Costly(lost, row, position_words(decision))
                    entry = (lost, -order, costly)
                    if len(costliest) < top:
                        heapq.heappush(costliest, entry)
                    elif entry[:2] > costliest[0][:2]:
                        heapq.heapreplace(costliest, entry)
            if progress is not None:
                progress(0, 1)
    done.costliest = [entry[2] for entry in sorted(costliest, key=lambda e: e[:2], reverse=True)]
    return done


def _tally(counts: dict[tuple[str, str], list[int]], decision: Judgement) -> None:
    tallied = counts.setdefault((decision.player, decision.kind), [0] * len(TALLIES))
    tallied[0] += 1
    if decision.right is not None:
        tallied[1] += 1
        tallied[2] += decision.right
        tallied[5] += decision.lost or 0
    if decision.sound is not None:
        tallied[3] += 1
        tallied[4] += decision.sound
    if decision.grade is not None:
        tallied[6 + list(Grade).index(decision.grade)] += 1


def position_words(decision: Judgement) -> str:
    """The position a decision was made in and what it did, in words.

    >>> from truclog.replay import read_games
    >>> game = next(read_games("sample_logs/2026-11-29-cafe-du-port-classic.truclog.jsonl"))
    >>> print(position_words(next(game.hands[0].review())))
    Marc accepts Ana's raise to 2 (1 conceded by a fold)
    """
    action, review = decision.step.action, decision.review
    if isinstance(review, PlayReview) and isinstance(action, Play):
        return _play_words(decision.player, action.card, review, decision.state.rules.order)
    if isinstance(review, AnswerReview):
        stakes = review.stakes
        verb = "accepts" if isinstance(action, Accept) else "folds to"
        raiser = _other(decision)
        return f"{decision.player} {verb} {raiser}'s raise to {stakes.to} ({stakes.conceded} conceded by a fold)"
    return f"{decision.player} {decision.kind}s"


def _other(decision: Judgement) -> str:
    players = decision.state.players
    return players[1 - players.index(decision.player)] if len(players) == 2 else "the other side"


def _play_words(player: str, card: Card, review: PlayReview, order: str) -> str:
    seen = review.seen
    trick = len(seen.results) + 1
    place = f"follows {seen.table}" if seen.table is not None else "leads"
    held = _rest(review.hand, seen.played, order)
    words = f"trick {trick}: {player} {place} with {card.rank}"
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
    sink: Callable[[Row], None] | None = None,
) -> Iterator[FileReview]:
    """Each file's review, in file order, each game once (the first time it is read);
    on ``jobs`` processes, or on a cluster (``each_file``, see
    :mod:`truclog.stats.distributed`). Read here, a file's rows go to ``sink`` as they
    come when it is given; from elsewhere they come in its review."""
    keep, chosen = keep or GameFilter(), chosen or DecisionFilter()
    paths = log_files(sources)
    seen: set[int] = set()
    parallel = each_file is not None or (jobs > 1 and len(paths) > 1 and "-" not in paths)
    one = partial(review_file, keep=keep, chosen=chosen, rows=rows, top=top)
    if each_file is not None:
        results: Iterator[FileReview] = each_file(paths, keep, chosen)
    elif parallel:
        results = _in_processes(paths, one, jobs)
    else:
        results = (one(path, progress=progress, seen=seen, sink=sink) for path in paths)
    for result in results:
        if parallel and not seen.isdisjoint(result.keys):
            # a copy of a game of an earlier file: review this file again without them
            result = one(result.path, seen=seen)
        elif parallel:
            seen.update(result.keys)
        if progress is not None and parallel:
            progress(file_size(result.path), result.tally.hands)
        yield result


def _in_processes(
    paths: list[str], one: Callable[[str], FileReview], jobs: int
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
    """The judged decisions of some logs as a DataFrame (:data:`DECISIONS`), in log order,
    each game once; ``players`` and ``games`` (ids) keep only theirs.

    >>> decisions = review("sample_logs/2026-11-29-cafe-du-port-classic.truclog.jsonl")
    >>> decisions.filter(kind="play").group_by("player").agg(pl.col("lost").sum()).sort("player").rows()
    [('Ana', 2), ('Marc', 0)]
    """
    chosen = DecisionFilter(tuple(players), tuple(games))
    frames = [
        pl.DataFrame(done.rows, schema=DECISIONS, orient="row")
        for done in review_files(log_paths(paths), chosen=chosen, top=0)
        if done.rows
    ]
    return pl.concat(frames) if frames else pl.DataFrame(schema=DECISIONS)


__all__ = [
    "DECISIONS",
    "KINDS",
    "OUTPUT",
    "TALLIES",
    "DecisionFilter",
    "FileReview",
    "add_counts",
    "decision_row",
    "player_summary",
    "position_words",
    "review",
    "review_file",
    "review_files",
]
