"""A player's costliest answers: the accepts and folds that gave the most points away.

The points an answer gave away are the ``points_given`` column of the statistics'
``actions`` table (:mod:`truclog.solver.answer`): how much more the other answer was
worth in hindsight, both hands face up. :class:`Costliest` reads the tables batch
by batch and keeps, per player, the :data:`KEPT` costliest answers only (and counts
the others), so its memory does not grow with the logs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # polars is imported when answers are read, not when the browser starts
    import polars as pl

KEPT = 100
"""Answers kept per player; the others are only counted."""

GAMES = ("fingerprint", "path", "line", "game", "order")
"""Where each game of a batch is: its log, its ``game`` line, its id, and its place in
the reading order."""


@dataclass(frozen=True, slots=True)
class CostlyAnswer:
    """An answer that gave points away, and where to find it: answer ``nth`` (0-based,
    among the answers to a raise) of hand ``hand`` of the game at ``line`` of ``path``."""

    player: str
    path: str
    line: int
    game: str
    hand: int
    nth: int
    kind: str
    to: int
    points_given: int
    sound: bool
    right: bool
    accept_worth: float
    fold_worth: float


@dataclass(frozen=True, slots=True)
class GivenAway:
    """A player's answers that gave points away: how many and how many points, and the
    costliest of them, most points first (then in reading order)."""

    answers: int
    points: int
    costliest: list[CostlyAnswer]

    def as_dict(self) -> dict[str, Any]:
        """Its fields as plain data, to send from the counting process (:meth:`of` reads it
        back)."""
        return {
            "answers": self.answers,
            "points": self.points,
            "costliest": [asdict(a) for a in self.costliest],
        }

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> GivenAway:
        """The answers given away that :meth:`as_dict` wrote."""
        answers = [CostlyAnswer(**a) for a in data["costliest"]]
        return cls(data["answers"], data["points"], answers)


_ORDER = ["points_given", "order", "hand", "nth"]
_NAMES = {"type": "kind", "pending": "to", "answer_worth_accept": "accept_worth"}


class Costliest:
    """Each player's costliest answers, kept from batches of the ``actions`` table.

    >>> import polars as pl
    >>> actions = pl.DataFrame({"fingerprint": ["f", "f", "f"], "hand": [1, 1, 2],
    ...     "type": ["accept", "fold", "fold"], "player": ["Ana", "Ana", "Ana"],
    ...     "pending": [2, 3, 2], "points_given": [0, 3, 1], "sound": [True, False, False],
    ...     "right": [True, False, False], "answer_worth_accept": [0.5, 1.8, 0.2],
    ...     "answer_worth_fold": [-1.0, -1.0, -1.0]})
    >>> kept = Costliest(); kept.add(actions, [("f", "a.jsonl", 1, "g1", 0)])
    >>> ana = kept.given()["Ana"]
    >>> ana.answers, ana.points, [(a.hand, a.nth, a.points_given) for a in ana.costliest]
    (2, 4, [(1, 1, 3), (2, 0, 1)])
    """

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self.counts: dict[str, tuple[int, int]] = {}
        self.answers: pl.DataFrame | None = None

    def add(self, actions: pl.DataFrame, games: list[tuple[str, str, int, str, int]]) -> None:
        """Read a batch of ``actions`` rows (the statistics' narrow ones do), whose games
        are in ``games`` (:data:`GAMES`)."""
        import polars as pl

        answers = (
            actions.filter(
                pl.col("type").is_in(("accept", "fold")) & pl.col("pending").is_not_null()
            )
            .with_columns(nth=pl.int_range(pl.len()).over("fingerprint", "hand"))
            .filter(pl.col("points_given") > 0)
        )
        if answers.is_empty():
            return
        for player, count, points in (
            answers.group_by("player").agg(pl.len(), pl.col("points_given").sum()).iter_rows()
        ):
            before = self.counts.get(player, (0, 0))
            self.counts[player] = (before[0] + count, before[1] + points)
        types = (pl.Utf8, pl.Utf8, pl.Int64, pl.Utf8, pl.Int64)
        where = pl.DataFrame(games, schema=dict(zip(GAMES, types, strict=True)), orient="row")
        found = answers.join(where, on="fingerprint").select(
            "player", "path", "line", "game", "hand", "nth", "type", "pending", "points_given",
            "sound", "right", "answer_worth_accept", "answer_worth_fold", "order",
        )  # fmt: skip
        both = found if self.answers is None else pl.concat([self.answers, found])
        self.answers = (
            both.sort(_ORDER, descending=[True, False, False, False])
            .group_by("player", maintain_order=True)
            .head(self.kept)
        )

    def given(self) -> dict[str, GivenAway]:
        """Per player, the answers that gave points away."""
        kept: dict[str, list[CostlyAnswer]] = {player: [] for player in self.counts}
        if self.answers is not None:
            rows = self.answers.sort(_ORDER, descending=[True, False, False, False])
            for row in rows.drop("order").rename(_NAMES).iter_rows(named=True):
                row["fold_worth"] = row.pop("answer_worth_fold")
                kept[row["player"]].append(CostlyAnswer(**row))
        return {p: GivenAway(*self.counts[p], kept[p]) for p in sorted(kept)}
