"""Tricks and how they decide a hand (rules.md, rules 3 to 5).

Players sit in seats ``0..n-1``; a seat's team is ``seat % 2`` (two players: each
is a team of one; four players: seats 0 and 2 against 1 and 3). A trick result
is the winning team, or ``None`` for a tied ("spoiled") trick.

>>> from truclog.engine.rules import get_rules
>>> from truclog.engine.cards import Card
>>> strength = get_rules("classic").strength
>>> trick_winner([(1, Card("A")), (0, Card("7"))], strength)
(0, 0)
>>> trick_winner([(1, Card("A")), (0, Card("A"))], strength)
(None, 1)
>>> decide([0, None]), decide([None, None]), decide([0, 1, None])
((True, 0), (False, None), (True, 0))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from truclog.engine.cards import Card

TrickResult = int | None


def team_of(seat: int) -> int:
    """The team of a seat: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    return seat % 2


def all_tied_winner(all_tied: str, dealer: int) -> TrickResult:
    """Who takes a hand of three tied tricks (rule 5), with the dealer at seat ``dealer``:
    the side that did not deal under ``all_tied: non_dealer``, nobody (a drawn hand)
    under ``all_tied: draw``.

    >>> all_tied_winner("non_dealer", 0), all_tied_winner("non_dealer", 3), all_tied_winner("draw", 0)
    (1, 0, None)
    """
    return 1 - team_of(dealer) if all_tied == "non_dealer" else None


def trick_winner(
    trick: Sequence[tuple[int, Card]], strength: Mapping[str, int]
) -> tuple[TrickResult, int]:
    """The team that wins a full trick (``None`` if tied) and the seat that leads next.

    Cards are in the order played, from the leader. The highest rank wins; when
    players of both teams share it the trick is tied and its leader leads again;
    otherwise the first player to have played the winning rank leads.
    """
    best, top = -1, []
    for seat, card in trick:
        rank = strength[card.rank]
        if rank > best:
            best, top = rank, [seat]
        elif rank == best:
            top.append(seat)
    if len(top) > 1 and len({team_of(seat) for seat in top}) > 1:
        return None, trick[0][0]
    return team_of(top[0]), top[0]


def decide(results: Sequence[TrickResult]) -> tuple[bool, TrickResult]:
    """Whether the tricks so far decide the hand, and for which team (rule 5).

    ``(True, None)`` means three tied tricks: the preset's ``all_tied`` rule says
    who, if anyone, takes the hand.
    """
    if len(results) < 2:
        return False, None  # one trick never decides
    won = [r for r in results if r is not None]
    for team in set(won):
        if won.count(team) >= 2:
            return True, team
    if results[0] is None:
        return (True, won[0]) if won else (len(results) == 3, None)
    if results[1] is None or len(results) == 3:
        return True, results[0]
    return False, None
