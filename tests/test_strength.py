"""Raise strength (docs/stats.md): hand-computed values and a brute force over suits."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from truclog.engine.actions import Deal, Play, Raise
from truclog.engine.cards import Card, parse_card
from truclog.engine.rules import get_rules
from truclog.engine.state import State
from truclog.solver.strength import deal_strength, raise_strength, strength_of

CLASSIC = get_rules("classic")
GAMERULES = get_rules("gamerules")


def cards(text: str) -> list[Card]:
    return [parse_card(c) for c in text.split()]


# --- hand-computed values --------------------------------------------------


def test_three_sevens_cannot_lose_in_classic() -> None:
    assert strength_of(CLASSIC, "777") == 1.0


def test_three_nines_cannot_win_in_classic() -> None:
    # one nine is left: the opponent can tie one trick at most and wins the others
    assert strength_of(CLASSIC, "999") == 0.0


def test_three_sevens_still_win_when_the_order_changes() -> None:
    # in sackson 7 is the lowest rank: 7 7 7 cannot win a trick
    assert strength_of(get_rules("sackson"), "777") == 0.0


def test_following_an_ace_with_a_seven_and_two_nines() -> None:
    # Win trick 1 with the 7, then the raiser only wins if the opponent holds a 9
    # (a tie after a won first trick is the raiser's): 1 - C(26,2)/C(28,2) = 53/378.
    value = strength_of(CLASSIC, "799", opponent_played="A", table="A")
    assert value == pytest.approx(53 / 378)


def test_leading_trick_two_with_ace_and_king_after_losing_the_first() -> None:
    # Marc holds A K Q, Ana led a 7 and Marc follows with Q (the trick is lost
    # whatever he plays). He must win both later tricks outright: Ana's two
    # cards both below the ace and one below the king: (C(18,2) - C(3,2)) / C(28,2).
    assert strength_of(CLASSIC, "AKQ", opponent_played="7", table="7") == pytest.approx(150 / 378)


def test_a_certain_draw_counts_one_half() -> None:
    # two tied tricks, the raiser's last ace against the ace on the table
    assert strength_of(GAMERULES, "KQA", "A", "KQA", "TT", table="A") == 0.5


def test_all_tied_non_dealer_is_a_win_or_a_loss() -> None:
    assert strength_of(CLASSIC, "KQA", "A", "KQA", "TT", "A", dealer=False) == 1.0
    assert strength_of(CLASSIC, "KQA", "A", "KQA", "TT", "A", dealer=True) == 0.0


def test_won_first_trick_and_a_higher_card_left() -> None:
    # raiser won trick 1 and leads with a 7 and a 9: the 7 cannot be beaten
    # (the last 7 can only tie it, and a tie after a won first trick wins).
    assert strength_of(CLASSIC, "779", "79", "A", "W") == 1.0


def test_impossible_positions_are_refused() -> None:
    with pytest.raises(ValueError):
        strength_of(CLASSIC, "77", "77")
    with pytest.raises(ValueError):
        strength_of(CLASSIC, "777", "7", "7777")
    with pytest.raises(ValueError):
        strength_of(CLASSIC, "777", "77", "A", table="K")


# --- from an engine state --------------------------------------------------


def hand(dealt: str, dealer: str = "Marc", rules: str = "classic") -> State:
    s = State.new(["Ana", "Marc"], dealer=dealer, rules=rules)
    s.push(Deal.of(dealer, {"Ana": cards(dealt)}))
    return s


def test_state_with_the_raisers_cards_dealt_face_up() -> None:
    s = hand("7h 7s 7d")
    assert raise_strength(s, "Ana") == 1.0


def test_state_with_unseen_raiser_cards_is_unknown() -> None:
    s = hand("7h 7s 7d")
    s.push(Play("Ana", parse_card("7h")))
    assert raise_strength(s, "Marc") is None
    assert raise_strength(s, "Marc", hand="QKA") == pytest.approx(150 / 378)


def test_state_after_tricks_matches_the_rank_helper() -> None:
    s = hand("9h 7s Ad")
    for player, card in [("Ana", "Ad"), ("Marc", "K"), ("Ana", "9h"), ("Marc", "J")]:
        s.push(Play(player, parse_card(card)))
    # trick 1 won, trick 2 lost; Marc led trick 3 with... nobody yet: Marc leads
    assert s.to_act == "Marc"
    assert raise_strength(s, "Ana") is None  # not Ana's turn
    s.push(Play("Marc", parse_card("8")))
    assert raise_strength(s, "Ana") == strength_of(CLASSIC, "97A", "7", "KJ8", "WL", "8")
    assert raise_strength(s, "Ana") == 1.0  # the 7 beats the 8


def test_four_players_are_not_scored() -> None:
    s = State.new(["A", "B", "C", "D"], dealer="D", rules="classic")
    s.push(Deal.of("D", {"A": cards("7h 7s 7d")}))
    assert raise_strength(s, "A") is None


def test_a_pending_raise_or_a_decided_hand_is_not_scored() -> None:
    s = hand("7h 7s 7d")
    s.push(Raise("Ana", to=2))
    assert raise_strength(s, "Ana") is None
    assert raise_strength(s, "Marc") is None


# --- brute force over suits ------------------------------------------------


def hand_decided(results: list[int | None]) -> tuple[bool, int | None]:
    """Rule 5 of rules.md, written out again: (decided, winner or None)."""
    won = [r for r in results if r is not None]
    for side in (0, 1):
        if won.count(side) >= 2:
            return True, side
    if not results:
        return False, None
    if results[0] is None:
        if won:
            return True, won[0]
        return len(results) == 3, None
    if len(results) >= 2 and results[1] is None:
        return True, results[0]
    if len(results) == 3:
        return True, results[0]
    return False, None


def brute_play(
    mine: list[str],
    theirs: list[str],
    results: list[int | None],
    leader: int,
    table: str | None,
    tied: Fraction,
    order: str,
) -> Fraction:
    decided, side = hand_decided(results)
    if decided:
        return tied if side is None else Fraction(1 if side == 0 else 0)
    mover = leader if table is None else 1 - leader
    hand_ = mine if mover == 0 else theirs
    outcomes = []
    for i, card in enumerate(hand_):
        rest = hand_[:i] + hand_[i + 1 :]
        a, b = (rest, theirs) if mover == 0 else (mine, rest)
        if table is None:
            outcomes.append(brute_play(a, b, results, leader, card, tied, order))
            continue
        hi_table, hi_card = -order.index(table), -order.index(card)
        if hi_table == hi_card:
            nxt, res = leader, None
        else:
            nxt = leader if hi_table > hi_card else mover
            res = nxt
        outcomes.append(brute_play(a, b, [*results, res], nxt, None, tied, order))
    return max(outcomes) if mover == 0 else min(outcomes)


def brute_strength(
    rules_name: str,
    mine: str,
    held: str,
    played: str,
    results: str,
    table: str | None,
    dealer: bool,
    opponent_leads: bool = False,
) -> Fraction:
    rules = get_rules(rules_name)
    deck = [r + s for r in rules.order for s in "cdhs"]
    remove = list(mine) + list(played)
    for rank in remove:
        deck.remove(next(c for c in deck if c[0] == rank))
    k = 3 - len(played)
    tied = Fraction(1, 2) if rules.all_tied == "draw" else Fraction(0 if dealer else 1)
    res = [{"W": 0, "L": 1, "T": None}[r] for r in results]
    leader = 0 if table is None and not opponent_leads else 1
    total = Fraction(0)
    hands = list(combinations(deck, k))
    assert len(hands) == comb(len(deck), k)
    for theirs in hands:
        total += brute_play(
            list(held), [c[0] for c in theirs], res, leader, table, tied, rules.order
        )
    return total / len(hands)


def random_position(rng: random.Random, rules_name: str) -> tuple:
    """A reachable position at the raiser's turn, by random legal play."""
    order = get_rules(rules_name).order
    deck = [r for r in order for _ in range(4)]
    rng.shuffle(deck)
    mine, theirs = deck[:3], deck[3:6]
    held, their_held = list(mine), list(theirs)
    played, results = "", ""
    leader = rng.choice([0, 1])
    dealer = leader == 1  # the non-dealer leads the first trick
    for _ in range(rng.randint(0, 2)):
        a = held.pop(rng.randrange(len(held)))
        b = their_held.pop(rng.randrange(len(their_held)))
        played += b
        ia, ib = order.index(a), order.index(b)
        r = "T" if ia == ib else ("W" if ia < ib else "L")
        results += r
        if hand_decided([{"W": 0, "L": 1, "T": None}[x] for x in results])[0]:
            return random_position(rng, rules_name)
        if r != "T":
            leader = 0 if r == "W" else 1
    table = None
    if leader == 1:
        table = their_held.pop(rng.randrange(len(their_held)))
        played += table
    return "".join(mine), "".join(held), played, results, table, dealer


@pytest.mark.parametrize("rules_name", ["classic", "gamerules", "francais"])
def test_brute_force_over_suits_agrees(rules_name: str) -> None:
    rng = random.Random(rules_name)
    checked = 0
    while checked < 12:
        mine, held, played, results, table, dealer = random_position(rng, rules_name)
        if len(played) < 1:  # keep the brute force small: mid-hand positions
            continue
        expected = brute_strength(rules_name, mine, held, played, results, table, dealer)
        got = strength_of(get_rules(rules_name), mine, held, played, results, table, dealer)
        assert got == pytest.approx(float(expected), abs=1e-12), (mine, held, played, results)
        checked += 1


def test_brute_force_on_a_first_trick_lead() -> None:
    expected = brute_strength("gamerules", "AKJ", "AKJ", "", "", None, False)
    assert strength_of(GAMERULES, "AKJ") == pytest.approx(float(expected), abs=1e-12)


def test_deal_strength_of_the_dealer_by_brute_force() -> None:
    # the dealer follows: the opponent picks the first card knowing both hands
    expected = brute_strength("francais", "AK9", "AK9", "", "", None, True, opponent_leads=True)
    assert deal_strength(get_rules("francais"), "AK9", dealer=True) == pytest.approx(
        float(expected), abs=1e-12
    )


def test_deal_strength_of_the_non_dealer_is_the_strength_of_a_first_lead() -> None:
    assert deal_strength(CLASSIC, "AKQ", dealer=False) == strength_of(CLASSIC, "AKQ")
    # as dealer, three tied tricks go to the other player: 7 7 7 still cannot lose
    assert deal_strength(CLASSIC, "777", dealer=True) == 1.0
    assert deal_strength(CLASSIC, "999", dealer=True) == 0.0
