"""How bad a decision was, in words: its points lost against what was at stake.

A decision's grade, like a chess engine's marks, from ``lost`` (the points it gave
away, double-dummy) and ``at_stake`` (what separates the decider's side winning the
hand from losing it at the value it is played for: the points the side would score
by winning plus those the other side would score by winning):

- ``best``: nothing lost;
- ``inaccuracy``: less than a third of the stake lost;
- ``mistake``: from a third up to two thirds;
- ``blunder``: two thirds or more (a won hand thrown away is the whole stake).

>>> grade_of(0, 2), grade_of(1, 4), grade_of(1, 2), grade_of(2, 2), grade_of(None, 2)
(<Grade.BEST: 'best'>, <Grade.INACCURACY: 'inaccuracy'>, <Grade.MISTAKE: 'mistake'>, <Grade.BLUNDER: 'blunder'>, None)
"""

from __future__ import annotations

from enum import StrEnum


class Grade(StrEnum):
    """A decision's grade (see the module's docstring)."""

    BEST = "best"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


MISTAKE_SHARE = 1 / 3
"""The share of the stake lost from which a decision is a mistake."""
BLUNDER_SHARE = 2 / 3
"""The share of the stake lost from which a decision is a blunder."""


def grade_of(lost: float | None, at_stake: int) -> Grade | None:
    """The grade of a decision that lost ``lost`` points of ``at_stake``; ``None``
    when what it lost is not known."""
    if lost is None:
        return None
    if lost <= 0:
        return Grade.BEST
    share = lost / at_stake if at_stake > 0 else 1.0
    if share >= BLUNDER_SHARE:
        return Grade.BLUNDER
    return Grade.MISTAKE if share >= MISTAKE_SHARE else Grade.INACCURACY


_PLACES = {grade: at for at, grade in enumerate(Grade)}


def grade_place(lost: int, at_stake: int) -> int:
    """The place in :class:`Grade` (0 ``best`` to 3 ``blunder``) of :func:`grade_of` of a
    decision that lost ``lost`` points (known) of ``at_stake``: what the quick core asks,
    once per points lost and stake, when it grades decisions itself.

    >>> grade_place(0, 2), grade_place(1, 4), grade_place(2, 2), grade_place(1, 0)
    (0, 1, 3, 3)
    """
    grade = grade_of(lost, at_stake)
    assert grade is not None  # asked with points lost
    return _PLACES[grade]


__all__ = ["BLUNDER_SHARE", "MISTAKE_SHARE", "Grade", "grade_of", "grade_place"]
