"""Rule 5 on every possible run of trick results, and four-card tricks."""

from itertools import product

import pytest

from truclog.engine.cards import Card
from truclog.engine.rules import get_rules
from truclog.engine.trick import TrickResult, decide, trick_winner

UNDECIDED = "undecided"
ALL_TIED = "all tied"


def rule_5(results: list[TrickResult]) -> object:
    """Rule 5 of docs/rules.md, clause by clause: the winning team, or why none."""
    for team in (0, 1):
        if results.count(team) >= 2:
            return team
    first = results[0]
    if first is not None and len(results) >= 2 and results[1] is None:
        return first
    if len(results) == 3 and first is not None and results[1] == 1 - first and results[2] is None:
        return first
    if first is None:
        later = [r for r in results[1:] if r is not None]
        if later:
            return later[0]
        if len(results) == 3:
            return ALL_TIED
    return UNDECIDED


def runs() -> list[list[TrickResult]]:
    """Every run of 1 to 3 trick results that play can reach (it stops once decided)."""
    found = []
    for length in (1, 2, 3):
        for run in product([0, 1, None], repeat=length):
            if all(rule_5(list(run[:n])) == UNDECIDED for n in range(1, length)):
                found.append(list(run))
    return found


@pytest.mark.parametrize("results", runs(), ids=str)
def test_decide_follows_rule_5(results: list[TrickResult]) -> None:
    expected = rule_5(results)
    decided, team = decide(results)
    if expected == UNDECIDED:
        assert not decided
    elif expected == ALL_TIED:
        assert (decided, team) == (True, None)
    else:
        assert (decided, team) == (True, expected)


def test_three_tricks_always_decide() -> None:
    for results in runs():
        if len(results) == 3:
            assert decide(results)[0]


STRENGTH = get_rules("classic").strength


@pytest.mark.parametrize(
    ("cards", "result", "leads"),
    [
        ("9 T Q K", 1, 3),
        ("7 A 8 K", 0, 0),
        ("Q 7 J 7", 1, 1),
        ("K A 9 A", 1, 1),
        ("K Q K J", 0, 0),
        ("K K Q J", None, 0),
        ("Q J A A", None, 0),
        ("T 9 9 T", None, 0),
    ],
)
def test_four_card_tricks(cards: str, result: TrickResult, leads: int) -> None:
    trick = [(seat, Card(rank)) for seat, rank in enumerate(cards.split())]
    assert trick_winner(trick, STRENGTH) == (result, leads)


def test_a_four_card_trick_led_from_another_seat() -> None:
    # seats 2, 3, 0, 1 in that order: partners 3 and 1 share the top rank
    trick = [(2, Card("Q")), (3, Card("7")), (0, Card("K")), (1, Card("7"))]
    assert trick_winner(trick, STRENGTH) == (1, 3)
    tied = [(2, Card("7")), (3, Card("Q")), (0, Card("K")), (1, Card("7"))]
    assert trick_winner(tied, STRENGTH) == (None, 2)
