"""Scenario tests for two players: every numbered rule of docs/rules.md, and every
column in which the presets differ, with fixed deals.

Actions are written as short lines: ``"Marc deals Ana=7h,Q,9s Marc=??,??,?? #1"``,
``"Ana raise 2"``, ``"Ana raise reste"``, ``"Marc accept"``, ``"Marc fold"``,
``"Ana redeal yes"``, ``"Ana 7h"`` (a play), ``"Ana show Q 9s"``.
"""

from __future__ import annotations

from functools import partial
from itertools import pairwise
from typing import Any

import pytest
import shorthand
from shorthand import refused, run

from truclog.engine.actions import Accept, Deal, Fold, Play, Raise, Redeal
from truclog.engine.cards import Card, parse_card
from truclog.engine.state import Code, Phase, Rubber, State, apply
from truclog.errors import IllegalActionError

ANA, MARC = "Ana", "Marc"


game = partial(shorthand.game, [ANA, MARC], dealer=MARC)
"""A game of Ana and Marc, Marc dealing first."""


# Ana leads every first hand (Marc deals); her cards, then Marc's.
DEAL = "Marc deals Ana=7h,Qs,9s Marc=As,Jd,8c"


# --- rule 1: the deck ---------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "card"),
    [("classic", "6h"), ("classic", "6"), ("francais", "8h"), ("eight-low", "6s")],
)
def test_a_card_not_in_the_presets_deck_cannot_be_dealt(rules: str, card: str) -> None:
    state = game(rules)
    refused(state, f"Marc deals Ana={card},??,?? Marc=??,??,??", Code.CARD_NOT_IN_DECK)


@pytest.mark.parametrize(("rules", "card"), [("classic", "6h"), ("francais", "8")])
def test_a_card_not_in_the_presets_deck_cannot_be_played(rules: str, card: str) -> None:
    state = game(rules, "Marc deals")
    refused(state, f"Ana {card}", Code.CARD_NOT_IN_DECK)


@pytest.mark.parametrize(
    ("rules", "card"), [("classic-36", "6h"), ("francais", "6"), ("eight-low", "8d")]
)
def test_a_card_of_the_presets_deck_may_be_dealt_and_played(rules: str, card: str) -> None:
    state = game(rules, f"Marc deals Ana={card},??,??", f"Ana {card}")
    assert state.trick == [(0, parse_card(card))]


def test_the_same_card_cannot_be_dealt_twice() -> None:
    state = game()
    refused(state, "Marc deals Ana=7h,Qs,9s Marc=7h,Jd,8c", Code.CARD_TWICE)
    refused(state, "Marc deals Ana=7h,7h,9s", Code.CARD_TWICE)


def test_a_card_dealt_to_one_player_cannot_be_played_by_the_other() -> None:
    state = game("classic", "Marc deals Ana=7h,Qs,9s", "Ana 9s")
    refused(state, "Marc 7h", Code.CARD_TWICE)
    refused(state, "Marc 9s", Code.CARD_TWICE)
    run(state, "Marc 7d")


def test_a_fifth_card_of_a_rank_is_refused() -> None:
    state = game()
    refused(state, "Marc deals Ana=7,7,7 Marc=7,7,9", Code.FIFTH_OF_RANK)
    run(state, "Marc deals Ana=7h,7d,7c Marc=7,??,??")
    run(state, "Ana 7h")
    refused(state, "Marc 7h", Code.CARD_TWICE)
    run(state, "Marc 7")  # the fourth seven: a tied trick
    run(state, "Ana 7d")
    refused(state, "Marc 7s", Code.FIFTH_OF_RANK)
    run(state, "Marc 8")
    assert state.results == [None, 0]


def test_a_fifth_card_of_a_rank_from_unseen_cards_is_refused() -> None:
    state = game(
        "classic", "Marc deals Ana=A,A,A Marc=K,??,??", "Ana play A", "Marc Ad", "Ana play A"
    )
    refused(state, "Marc Ah", Code.FIFTH_OF_RANK)
    refused(state, "Marc play A", Code.FIFTH_OF_RANK)


def test_suits_do_not_matter_equal_ranks_tie() -> None:
    state = game("classic", "Marc deals Ana=7h,Qs,9s", "Ana 7h", "Marc 7d")
    assert state.results == [None]


# --- rule 2: three cards each; the non-dealer leads ---------------------------


@pytest.mark.parametrize("cards", ["7h,Qs", "7h,Qs,9s,8c", ""])
def test_each_player_is_dealt_three_cards(cards: str) -> None:
    state = game()
    deal = Deal.of(MARC, {ANA: [parse_card(c) for c in cards.split(",") if c]})
    with pytest.raises(IllegalActionError) as caught:
        state.push(deal)
    assert caught.value.code == Code.DEAL_WRONG_COUNT


@pytest.mark.parametrize(("dealer", "leader"), [(MARC, ANA), (ANA, MARC)])
def test_the_non_dealer_leads_the_first_trick(dealer: str, leader: str) -> None:
    state = game("classic", f"{dealer} deals", dealer=dealer)
    assert state.to_act == leader
    refused(state, f"{dealer} 7h", Code.OUT_OF_TURN)
    run(state, f"{leader} 7h", f"{dealer} 8h")


def test_nothing_happens_in_a_hand_before_its_deal() -> None:
    state = game()
    refused(state, "Ana 7h", Code.NO_HAND)
    refused(state, "Ana raise 2", Code.NO_HAND)
    refused(state, "Ana redeal yes", Code.NO_HAND)
    refused(state, "Ana show 7h", Code.SHOW_TOO_EARLY)


def test_a_deal_cannot_come_in_the_middle_of_a_hand() -> None:
    state = game("classic", DEAL, "Ana 7h")
    refused(state, "Marc deals", Code.DEAL_IN_PROGRESS)


def test_an_unknown_player_is_refused() -> None:
    state = game("classic", DEAL)
    refused(state, "Zoe 7c", Code.UNKNOWN_PLAYER)
    refused(state, "Zoe raise 2", Code.UNKNOWN_PLAYER)


# --- rules 3 and 4: tricks, and who leads the next ----------------------------


@pytest.mark.parametrize(
    "rules",
    ["classic", "gamerules", "sackson", "francais", "classic-36", "eight-high", "eight-low"],
)
def test_the_higher_rank_of_the_presets_order_wins_the_trick(rules: str) -> None:
    order = State.new([ANA, MARC], MARC, rules).rules.order
    for high, low in pairwise(order):
        state = game(rules, "Marc deals", f"Ana {low}", f"Marc {high}")
        assert state.results == [1], (high, low)
        assert state.to_act == MARC  # the winner leads the next trick
        state = game(rules, "Marc deals", f"Ana {high}", f"Marc {low}")
        assert state.results == [0]
        assert state.to_act == ANA


def test_the_winner_of_a_trick_leads_the_next() -> None:
    state = game("classic", DEAL, "Ana 9s", "Marc 8c")
    assert state.to_act == MARC
    refused(state, "Ana 7h", Code.OUT_OF_TURN)
    run(state, "Marc As", "Ana 7h")
    assert state.results == [1, 0]
    assert state.to_act == ANA


def test_after_a_tied_trick_its_leader_leads_again() -> None:
    state = game("classic", "Marc deals Ana=Q,K,J Marc=Q,A,T", "Ana Q", "Marc Q")
    assert state.results == [None]
    assert state.to_act == ANA
    refused(state, "Marc play A", Code.OUT_OF_TURN)
    state = game("classic", "Ana deals Ana=Q,K,J Marc=Q,A,T", "Marc Q", "Ana Q", dealer=ANA)
    assert state.results == [None]
    assert state.to_act == MARC


def test_a_player_can_only_play_cards_they_hold() -> None:
    state = game("classic", DEAL)
    refused(state, "Ana As", Code.CARD_NOT_HELD)
    refused(state, "Ana 8h", Code.CARD_NOT_HELD)
    run(state, "Ana 7h", "Marc As")
    refused(state, "Ana 7h", Code.CARD_NOT_HELD)


# --- rule 5: when the hand is decided -----------------------------------------


HAND_CASES = {
    # Ana leads; each case: Ana's cards, Marc's cards, the plays, who wins, tricks played
    "two tricks won": ("7h,8h,9s", "Ah,Kh,Qh", ["Ana 7h", "Marc Ah", "Ana 8h", "Marc Kh"], ANA),
    "two tricks by the first-trick loser": (
        "9s,8h,7h",
        "Ah,Kh,Qh",
        ["Ana 9s", "Marc Ah", "Marc Kh", "Ana 8h", "Ana 7h", "Marc Qh"],
        ANA,
    ),
    "won then tied": ("7h,Qs,9s", "As,Qd,8c", ["Ana 7h", "Marc As", "Ana Qs", "Marc Qd"], ANA),
    "one each then tied": (
        "7h,9s,Qs",
        "As,8c,Qd",
        ["Ana 7h", "Marc As", "Ana 9s", "Marc 8c", "Marc Qd", "Ana Qs"],
        ANA,
    ),
    "tied then won": ("Qs,9s,7h", "Qd,As,8c", ["Ana Qs", "Marc Qd", "Ana 9s", "Marc As"], MARC),
    "tied, tied, then won": (
        "Qs,Ks,9s",
        "Qd,Kd,As",
        ["Ana Qs", "Marc Qd", "Ana Ks", "Marc Kd", "Ana 9s", "Marc As"],
        MARC,
    ),
}


@pytest.mark.parametrize("case", list(HAND_CASES))
def test_the_hand_is_decided_as_soon_as_rule_5_says(case: str) -> None:
    ana, marc, plays, winner = HAND_CASES[case]
    state = game("classic", f"Marc deals Ana={ana} Marc={marc}")
    for i, play in enumerate(plays):
        assert state.phase is Phase.PLAY, (case, i)
        run(state, play)
    assert state.phase is Phase.HAND_OVER
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.points, state.outcome.ending) == (
        winner,
        1,
        "tricks",
    )
    assert state.score[winner] == 1
    left = [
        p for p in ["Ana 7h", "Ana 9s", "Ana Qs", "Ana 8h", "Marc 8c", "Marc Qh"] if p not in plays
    ]
    for play in left[:1]:
        refused(state, play, Code.HAND_DECIDED)


def test_one_trick_each_does_not_decide_the_hand() -> None:
    state = game("classic", DEAL, "Ana 7h", "Marc As", "Ana 9s", "Marc 8c")
    assert state.results == [0, 1]
    assert state.phase is Phase.PLAY
    assert state.to_act == MARC


def test_two_tied_tricks_do_not_decide_the_hand() -> None:
    state = game("classic", "Marc deals Ana=Q,K,9 Marc=Q,K,A", "Ana Q", "Marc Q", "Ana K", "Marc K")
    assert state.phase is Phase.PLAY


def swap(line: str) -> str:
    """The same line with Ana and Marc's seats exchanged."""
    return line.replace(ANA, "@").replace(MARC, ANA).replace("@", MARC)


ALL_TIED = [
    "Marc deals Ana=Q,K,9 Marc=Q,K,9",
    "Ana Q",
    "Marc Q",
    "Ana K",
    "Marc K",
    "Ana 9",
    "Marc 9",
]


@pytest.mark.parametrize(
    ("rules", "dealer", "winner"),
    [
        ("classic", MARC, ANA),
        ("classic", ANA, MARC),
        ("classic-36", MARC, ANA),
        ("gamerules", MARC, None),
        ("sackson", MARC, None),
        ("francais", MARC, None),
        ({"preset": "sackson", "all_tied": "non_dealer"}, MARC, ANA),
        ({"preset": "classic", "all_tied": "draw"}, MARC, None),
    ],
)
def test_all_three_tricks_tied(rules: Any, dealer: str, winner: str | None) -> None:
    lines = ALL_TIED if dealer == MARC else [swap(line) for line in ALL_TIED]
    state = game(rules, *lines, dealer=dealer)
    assert state.phase is Phase.HAND_OVER
    assert state.outcome is not None
    assert state.outcome.winner == winner
    if winner is None:
        assert state.outcome.ending == "draw"
        assert state.score == {ANA: 0, MARC: 0}
    else:
        assert state.score[winner] == 1


# --- rule 6: raising, accepting, folding --------------------------------------


def test_a_hand_starts_worth_1_and_an_accepted_raise_sets_its_value() -> None:
    state = game("classic", DEAL)
    assert state.value == 1
    run(state, "Ana raise 3")
    assert state.value == 1
    assert state.pending is not None and state.pending.to == 3
    run(state, "Marc accept", "Ana 7h", "Marc As", "Ana Qs", "Marc Jd")
    assert state.outcome is not None and state.outcome.points == 3
    assert state.score == {ANA: 3, MARC: 0}


def test_the_follower_may_raise_before_playing_a_card() -> None:
    state = game("classic", DEAL, "Ana 9s", "Marc raise 2", "Ana accept", "Marc 8c")
    assert state.value == 2
    assert state.results == [1]


def test_a_player_cannot_raise_out_of_turn_or_after_playing() -> None:
    state = game("classic", DEAL)
    refused(state, "Marc raise 2", Code.OUT_OF_TURN)
    run(state, "Ana 9s")
    refused(state, "Ana raise 2", Code.OUT_OF_TURN)


def test_a_fold_ends_the_hand_and_the_raiser_scores_the_value_before_the_raise() -> None:
    state = game(
        "classic", DEAL, "Ana raise 2", "Marc accept", "Ana 7h", "Marc raise 5", "Ana fold"
    )
    assert state.phase is Phase.HAND_OVER
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.points, state.outcome.ending) == (MARC, 2, "fold")
    assert state.score == {ANA: 0, MARC: 2}
    refused(state, "Marc As", Code.HAND_DECIDED)


def test_a_fold_to_the_first_raise_gives_the_raiser_one_point() -> None:
    state = game("classic", DEAL, "Ana raise 4", "Marc fold")
    assert state.score == {ANA: 1, MARC: 0}


def test_while_a_raise_is_pending_only_the_answer_is_allowed() -> None:
    state = game("classic", DEAL, "Ana raise 2")
    assert state.to_act == MARC
    refused(state, "Ana 7h", Code.ANSWER_PENDING)
    refused(state, "Marc As", Code.ANSWER_PENDING)
    refused(state, "Marc raise 3", Code.RAISE_PENDING)
    refused(state, "Ana raise 3", Code.RAISE_PENDING)
    refused(state, "Ana accept", Code.ANSWER_BY_RAISER)
    refused(state, "Ana fold", Code.ANSWER_BY_RAISER)
    refused(state, "Ana redeal yes", Code.REDEAL_TOO_LATE)
    run(state, "Marc accept")
    assert state.pending is None
    assert state.to_act == ANA


def test_nothing_to_answer_without_a_raise() -> None:
    state = game("classic", DEAL)
    refused(state, "Marc accept", Code.NOTHING_PENDING)
    refused(state, "Ana accept", Code.NOTHING_PENDING)


# --- rule 7: reste ------------------------------------------------------------


def test_reste_raises_to_exactly_the_raisers_remainder() -> None:
    state = game("classic", DEAL, score={ANA: 7, MARC: 3})
    run(state, "Ana raise reste")
    assert state.pending is not None
    assert (state.pending.to, state.pending.reste) == (5, True)
    assert state.remainder(ANA) == 5


@pytest.mark.parametrize("rules", ["classic", "gamerules", "sackson", "classic-36", "eight-high"])
def test_an_accepted_reste_gives_the_hand_winner_the_game(rules: str) -> None:
    state = game(rules, "Marc deals", "Ana raise reste", "Marc accept", score={ANA: 7, MARC: 3})
    high, low = state.rules.order[0], state.rules.order[-1]
    run(state, f"Ana {high}", f"Marc {low}", f"Ana {high}", f"Marc {low}")
    assert state.phase is Phase.GAME_OVER
    assert state.score == {ANA: 12, MARC: 3}
    assert state.winner == ANA
    assert state.outcome is not None and state.outcome.reste


def test_an_accepted_reste_lifts_the_opponent_to_the_target_too() -> None:
    state = game("classic", DEAL, "Ana raise reste", "Marc accept", score={ANA: 10, MARC: 0})
    run(state, "Ana 9s", "Marc 8c", "Marc As", "Ana Qs")
    assert state.phase is Phase.GAME_OVER
    assert state.score == {ANA: 10, MARC: 12}
    assert state.winner == MARC
    assert state.outcome is not None and state.outcome.points == 12


def test_a_reste_may_follow_an_earlier_raise() -> None:
    state = game("classic", DEAL, "Ana raise 2", "Marc accept", "Ana 9s", "Marc raise reste")
    assert state.pending is not None and state.pending.to == 12
    run(state, "Ana accept", "Marc 8c", "Marc As", "Ana Qs")
    assert state.score == {ANA: 0, MARC: 12}


def test_a_drawn_hand_after_an_accepted_reste_scores_nothing_and_the_game_goes_on() -> None:
    state = game("gamerules", ALL_TIED[0], "Ana raise reste", "Marc accept", *ALL_TIED[1:])
    assert state.phase is Phase.HAND_OVER
    assert state.score == {ANA: 0, MARC: 0}
    assert state.outcome is not None and state.outcome.winner is None
    run(state, "Ana deals")
    assert state.value == 1
    run(state, "Marc raise 2")  # a new hand: raises are allowed again


@pytest.mark.parametrize("rules", ["classic", "gamerules", "sackson"])
def test_no_raise_may_follow_an_accepted_reste(rules: str) -> None:
    state = game(rules, "Marc deals", "Ana raise reste", "Marc accept")
    low = state.rules.order[-1]
    refused(state, "Ana raise reste", Code.RAISE_AFTER_RESTE)
    run(state, f"Ana {low}")
    refused(state, "Marc raise 12", Code.RAISE_AFTER_RESTE)
    refused(state, "Marc raise reste", Code.RAISE_AFTER_RESTE)
    refused(state, "Marc raise 24", Code.RAISE_AFTER_RESTE)


@pytest.mark.parametrize(("rules", "ana"), [("classic", 5), ("sackson", 5), ("classic-36", 5)])
def test_a_refused_reste_gives_the_value_before_it_under_previous(rules: str, ana: int) -> None:
    state = game(rules, "Marc deals", "Ana raise reste", "Marc fold", score={ANA: 4, MARC: 0})
    assert state.phase is Phase.HAND_OVER
    assert state.score == {ANA: ana, MARC: 0}


def test_a_refused_reste_after_a_raise_gives_the_raised_value_under_previous() -> None:
    state = game(
        "classic", DEAL, "Ana raise 3", "Marc accept", "Ana 9s", "Marc raise reste", "Ana fold"
    )
    assert state.score == {ANA: 0, MARC: 3}


def test_a_refused_reste_wins_the_game_under_game() -> None:
    state = game("gamerules", DEAL, "Ana raise reste", "Marc fold", score={ANA: 4, MARC: 9})
    assert state.phase is Phase.GAME_OVER
    assert state.score == {ANA: 12, MARC: 9}
    assert state.winner == ANA
    assert state.outcome is not None and state.outcome.reste and state.outcome.ending == "fold"


def test_reste_must_be_more_than_the_hands_value() -> None:
    state = game("classic", DEAL, "Ana raise 2", "Marc accept", score={ANA: 10, MARC: 0})
    refused(state, "Ana raise reste", Code.RAISE_TWICE)  # alternate raises come first
    state = game("gamerules", DEAL, "Ana raise 2", "Marc accept", score={ANA: 10, MARC: 0})
    refused(state, "Ana raise reste", Code.RESTE_NOT_A_RAISE)
    state = game("classic", DEAL, "Ana raise 3", "Marc accept", "Ana 9s", score={ANA: 0, MARC: 9})
    refused(state, "Marc raise reste", Code.RESTE_NOT_A_RAISE)


def test_francais_has_no_reste() -> None:
    state = game("francais", DEAL.replace("8c", "6c"))
    refused(state, "Ana raise reste", Code.RESTE_NOT_ALLOWED)
    state = game({"preset": "classic", "reste": False}, DEAL)
    refused(state, "Ana raise reste", Code.RESTE_NOT_ALLOWED)


# --- rule 8: redeal -----------------------------------------------------------


def test_the_non_dealer_may_ask_a_redeal_as_the_first_action() -> None:
    state = game("classic", DEAL, "Ana redeal yes")
    assert state.phase is Phase.REDEAL
    assert state.to_act == MARC
    refused(state, "Ana 7h", Code.NO_HAND)
    refused(state, "Ana deals #1", Code.DEAL_WRONG_DEALER)
    refused(state, "Marc deals #2", Code.DEAL_WRONG_NUMBER)
    run(state, "Marc deals Ana=Ah,Kc,Th #1")
    assert (state.phase, state.hand_no, state.dealer_name, state.to_act) == (
        Phase.PLAY,
        1,
        MARC,
        ANA,
    )
    run(state, "Ana Ah", "Marc 9d", "Ana Kc", "Marc 9h")
    assert state.outcome is not None and state.outcome.hand == 1
    run(state, "Ana deals #2")
    assert state.hand_no == 2


def test_a_refused_redeal_plays_on_with_the_same_cards() -> None:
    state = game("classic", DEAL, "Ana redeal no")
    assert state.phase is Phase.PLAY
    assert state.to_act == ANA
    run(state, "Ana 7h", "Marc As")


def test_only_the_non_dealer_may_ask_a_redeal() -> None:
    state = game("classic", DEAL)
    refused(state, "Marc redeal yes", Code.REDEAL_WRONG_PLAYER)
    state = game("classic", "Ana deals", dealer=ANA)
    refused(state, "Ana redeal no", Code.REDEAL_WRONG_PLAYER)
    run(state, "Marc redeal no")


@pytest.mark.parametrize("first", ["Ana 7h", "Ana raise 2"])
def test_a_redeal_must_be_asked_before_anything_else(first: str) -> None:
    state = game("classic", DEAL, first)
    if state.pending:
        run(state, "Marc accept")
    refused(state, "Ana redeal yes", Code.REDEAL_TOO_LATE)


def test_a_redeal_may_be_asked_only_once_per_hand() -> None:
    state = game("classic", DEAL, "Ana redeal no")
    refused(state, "Ana redeal yes", Code.REDEAL_TWICE)
    state = game("classic", DEAL, "Ana redeal yes", "Marc deals")
    refused(state, "Ana redeal yes", Code.REDEAL_TWICE)
    run(state, "Ana 7c", "Marc 8d", "Ana Tc", "Marc 9c")
    run(state, "Ana deals")
    run(state, "Marc redeal yes")  # the next hand may ask again


def test_redeal_rest_deals_from_the_rest_of_the_deck() -> None:
    state = game("classic", DEAL, "Ana redeal yes")
    refused(state, "Marc deals Ana=7h,??,??", Code.CARD_TWICE)
    refused(state, "Marc deals Marc=As,??,??", Code.CARD_TWICE)
    run(state, "Marc deals")
    refused(state, "Ana 7h", Code.CARD_TWICE)
    refused(state, "Ana Qs", Code.CARD_TWICE)
    run(state, "Ana 7c")
    refused(state, "Marc Jd", Code.CARD_TWICE)
    run(state, "Marc 8d")


def test_redeal_rest_counts_the_first_deals_ranks() -> None:
    state = game("classic", "Marc deals Ana=7,7,8 Marc=7,8,8", "Ana redeal yes")
    refused(state, "Marc deals Ana=7,7,??", Code.FIFTH_OF_RANK)
    run(state, "Marc deals Ana=7,9,??")
    refused(state, "Marc 7", Code.OUT_OF_TURN)
    run(state, "Ana 7")
    refused(state, "Marc 7", Code.FIFTH_OF_RANK)


def test_redeal_reshuffle_may_deal_the_same_cards_again() -> None:
    state = game("sackson", DEAL, "Ana redeal yes", "Marc deals Ana=7h,Qs,9s Marc=As,Jd,8c #1")
    run(state, "Ana 9s", "Marc 8c")
    assert state.results == [0]


def test_redeal_none_forbids_asking() -> None:
    state = game({"preset": "classic", "redeal": "none"}, DEAL)
    refused(state, "Ana redeal yes", Code.REDEAL_NOT_ALLOWED)
    refused(state, "Ana redeal no", Code.REDEAL_NOT_ALLOWED)


# --- rule 9: folding without a raise ------------------------------------------


@pytest.mark.parametrize("rules", ["classic", "sackson", "francais", "eight-low"])
def test_no_fold_without_a_raise_unless_fold_anytime(rules: str) -> None:
    state = game(rules, "Marc deals")
    refused(state, "Ana fold", Code.FOLD_NOT_ALLOWED)
    refused(state, "Marc fold", Code.FOLD_NOT_ALLOWED)


@pytest.mark.parametrize("folder", [ANA, MARC])
def test_fold_anytime_lets_either_player_fold_and_the_opponent_scores_the_value(
    folder: str,
) -> None:
    state = game("gamerules", DEAL, "Ana raise 3", "Marc accept", "Ana 9s")
    run(state, f"{folder} fold")
    other = MARC if folder == ANA else ANA
    assert state.phase is Phase.HAND_OVER
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.points, state.outcome.ending) == (other, 3, "fold")
    assert state.score[other] == 3 and state.score[folder] == 0


def test_fold_anytime_before_any_card() -> None:
    state = game("gamerules", DEAL, "Marc fold")
    assert state.score == {ANA: 1, MARC: 0}
    state = game({"preset": "classic", "fold_anytime": True}, DEAL, "Ana fold")
    assert state.score == {ANA: 0, MARC: 1}


def test_fold_anytime_does_not_let_the_raiser_fold_to_his_own_raise() -> None:
    state = game("gamerules", DEAL, "Ana raise 2")
    refused(state, "Ana fold", Code.ANSWER_BY_RAISER)
    run(state, "Marc fold")
    assert state.score == {ANA: 1, MARC: 0}


def test_fold_anytime_after_an_accepted_reste_gives_the_opponent_the_game() -> None:
    state = game("gamerules", DEAL, "Ana raise reste", "Marc accept", "Ana 9s", "Ana fold")
    assert state.phase is Phase.GAME_OVER
    assert state.score == {ANA: 0, MARC: 12}


# --- rule 10: the deal alternates; the game ends at the target ----------------


def test_the_deal_passes_to_the_other_player_after_every_hand() -> None:
    state = game("classic", DEAL, "Ana raise 2", "Marc fold")
    refused(state, "Marc deals", Code.DEAL_WRONG_DEALER)
    refused(state, "Ana deals #3", Code.DEAL_WRONG_NUMBER)
    run(state, "Ana deals #2")
    assert (state.dealer_name, state.hand_no, state.to_act) == (ANA, 2, MARC)
    run(state, "Marc raise 2", "Ana fold")
    run(state, "Marc deals #3")


def test_the_deal_passes_after_a_drawn_hand_too() -> None:
    state = game("gamerules", *ALL_TIED)
    refused(state, "Marc deals", Code.DEAL_WRONG_DEALER)
    run(state, "Ana deals")
    assert state.to_act == MARC


def test_next_deal_says_who_deals_which_hand_at_every_moment() -> None:
    state = game("classic")
    assert (state.next_deal.dealer, state.next_deal.hand) == (MARC, 1)
    run(state, DEAL)
    assert (state.next_deal.dealer, state.next_deal.hand) == (ANA, 2)  # once this hand is over
    run(state, "Ana raise 2", "Marc fold")
    assert (state.next_deal.dealer, state.next_deal.hand) == (ANA, 2)
    run(state, "Ana deals #2", "Marc redeal yes")
    assert (state.next_deal.dealer, state.next_deal.hand) == (ANA, 2)  # same dealer, same hand
    run(state, "Ana deals #2")
    assert (state.next_deal.dealer, state.next_deal.hand) == (MARC, 3)


def test_next_deal_is_the_one_deal_the_engine_accepts() -> None:
    state = game("gamerules", *ALL_TIED)
    due = state.next_deal
    assert [a for a in state.legal_actions() if isinstance(a, Deal)] == [due]
    assert due.dealer == ANA  # a drawn hand passes the deal too
    refused(state, f"{MARC} deals #{due.hand}", Code.DEAL_WRONG_DEALER)
    state.push(due)
    assert state.hand_no == 2 and state.dealer_name == ANA


def test_the_next_game_is_dealt_first_by_the_player_after_the_first_dealer() -> None:
    four = State.new(["Ana", "Bea", "Cy", "Dan"], dealer="Cy")
    assert four.next_game_dealer == "Dan"
    state = game("classic", DEAL, "Ana raise 2", "Marc fold", "Ana deals")
    assert state.next_game_dealer == ANA  # Marc dealt this game's first hand


def test_the_first_to_reach_the_target_wins_and_only_show_may_follow() -> None:
    state = game("classic", DEAL, "Ana raise 2", "Marc accept", score={ANA: 11, MARC: 11})
    run(state, "Ana 7h", "Marc As", "Ana Qs", "Marc Jd")
    assert state.phase is Phase.GAME_OVER
    assert state.score == {ANA: 13, MARC: 11}
    assert state.winner == ANA
    for line, code in [
        ("Ana deals", Code.GAME_OVER),
        ("Marc deals", Code.GAME_OVER),
        ("Marc 8c", Code.GAME_OVER),
        ("Marc raise 2", Code.GAME_OVER),
        ("Marc accept", Code.GAME_OVER),
        ("Marc fold", Code.GAME_OVER),
        ("Ana redeal yes", Code.GAME_OVER),
    ]:
        refused(state, line, code)
    assert state.legal_actions() == []
    run(state, "Ana show 9s", "Marc show 8c")


def test_a_hand_below_the_target_does_not_end_the_game() -> None:
    state = game("classic", DEAL, score={ANA: 10, MARC: 0})
    run(state, "Ana 7h", "Marc As", "Ana Qs", "Marc Jd")
    assert (state.phase, state.winner, state.score[ANA]) == (Phase.HAND_OVER, None, 11)


def test_a_starting_score_at_the_target_is_a_finished_game() -> None:
    state = game("classic", score={ANA: 12, MARC: 3})
    assert state.phase is Phase.GAME_OVER
    assert state.winner == ANA
    refused(state, "Marc deals", Code.GAME_OVER)


@pytest.mark.parametrize("target", [1, 5, 21])
def test_the_target_may_be_overridden(target: int) -> None:
    rules = {"preset": "classic", "target": target}
    state = game(rules, DEAL, score={ANA: target - 1, MARC: 0}, dealer=MARC)
    assert state.remainder(ANA) == 1
    run(state, "Ana 7h", "Marc As", "Ana Qs", "Marc Jd")
    assert state.phase is Phase.GAME_OVER
    assert state.score[ANA] == target


# --- rule 11: alternate raises ------------------------------------------------


@pytest.mark.parametrize("rules", ["classic", "classic-36", "eight-high", "eight-low"])
def test_alternate_raises_forbids_raising_twice_in_a_row(rules: str) -> None:
    state = game(rules, "Marc deals", "Ana raise 2", "Marc accept")
    error = refused(state, "Ana raise 3", Code.RAISE_TWICE)
    assert "Ana" in error.message and "twice" in error.message
    refused(state, "Ana raise reste", Code.RAISE_TWICE)
    low = state.rules.order[-1]
    run(state, f"Ana {low}")
    run(state, "Marc raise 3", "Ana accept", f"Marc {low}")
    assert state.to_act == ANA  # the tied trick: Ana leads again
    run(state, "Ana raise 4", "Marc accept")
    assert state.value == 4


def test_alternate_raises_starts_afresh_each_hand() -> None:
    state = game(
        "classic", DEAL, "Ana raise 2", "Marc fold", "Ana deals", "Marc raise 2", "Ana fold"
    )
    run(state, "Marc deals", "Ana raise 2")


@pytest.mark.parametrize("rules", ["gamerules", "sackson", "francais"])
def test_without_alternate_raises_a_player_may_raise_again(rules: str) -> None:
    state = game(rules, "Marc deals", "Ana raise 2", "Marc accept", "Ana raise 4", "Marc accept")
    assert state.value == 4


# --- rule 12: raise sizes ---------------------------------------------------------


@pytest.mark.parametrize("to", [2, 3, 7, 11, 30])
def test_raises_any_allows_any_whole_number_above(to: int) -> None:
    state = game("classic", DEAL, f"Ana raise {to}", "Marc accept")
    assert state.value == to


@pytest.mark.parametrize("to", [1, 0, -3])
def test_a_raise_must_be_above_the_value(to: int) -> None:
    state = game("classic", DEAL)
    refused(state, f"Ana raise {to}", Code.RAISE_NOT_ABOVE)
    state = game("classic", DEAL, "Ana raise 4", "Marc accept", "Ana 9s")
    refused(state, "Marc raise 4", Code.RAISE_NOT_ABOVE)


@pytest.mark.parametrize("rules", ["sackson", "francais"])
def test_raises_double_must_double(rules: str) -> None:
    state = game(rules, "Marc deals")
    refused(state, "Ana raise 3", Code.RAISE_NOT_DOUBLE)
    run(state, "Ana raise 2", "Marc accept")
    refused(state, "Ana raise 3", Code.RAISE_NOT_DOUBLE)
    refused(state, "Ana raise 6", Code.RAISE_NOT_DOUBLE)
    run(state, "Ana raise 4", "Marc accept")
    assert state.value == 4


def test_francais_doubles_to_2_4_8_but_not_more() -> None:
    state = game(
        "francais", "Marc deals", "Ana raise 2", "Marc accept", "Ana raise 4", "Marc accept"
    )
    run(state, "Ana raise 8", "Marc accept")
    refused(state, "Ana raise 16", Code.RAISE_ABOVE_MAX)
    run(state, "Ana 9", "Marc 7")
    refused(state, "Marc raise 16", Code.RAISE_ABOVE_MAX)


def test_max_value_bounds_raises_of_any_size() -> None:
    state = game({"preset": "classic", "max_value": 5}, DEAL)
    refused(state, "Ana raise 6", Code.RAISE_ABOVE_MAX)
    run(state, "Ana raise 5", "Marc accept")


def test_sackson_caps_a_raise_at_the_target_and_offers_reste() -> None:
    state = game("sackson", DEAL, "Ana raise 2", "Marc accept", "Ana 9s", score={ANA: 8, MARC: 10})
    refused(state, "Marc raise 4", Code.RAISE_PAST_TARGET)
    refused(state, "Marc raise reste", Code.RESTE_NOT_A_RAISE)
    state = game("sackson", DEAL, "Ana raise 2", "Marc accept", "Ana 9s", score={ANA: 8, MARC: 9})
    refused(state, "Marc raise 4", Code.RAISE_PAST_TARGET)
    run(state, "Marc raise reste", "Ana accept")
    assert state.value == 3


def test_cap_at_target_allows_a_raise_up_to_exactly_the_target() -> None:
    state = game("sackson", DEAL, score={ANA: 10, MARC: 0})
    run(state, "Ana raise 2", "Marc accept")
    state = game({"preset": "classic", "cap_at_target": True}, DEAL, score={ANA: 9, MARC: 0})
    refused(state, "Ana raise 4", Code.RAISE_PAST_TARGET)
    run(state, "Ana raise 3", "Marc accept")


def test_without_the_cap_a_raise_may_go_past_the_target() -> None:
    state = game("classic", DEAL, "Ana raise 9", "Marc accept", score={ANA: 10, MARC: 0})
    run(state, "Ana 7h", "Marc As", "Ana Qs", "Marc Jd")
    assert state.score[ANA] == 19


# --- unseen and rank-only cards, show -----------------------------------------


def test_unseen_cards_become_known_when_played() -> None:
    state = game("classic", "Marc deals Ana=7h,??,??")
    assert state.known_cards(ANA) == ([Card("7", "h")], 2)
    assert state.known_cards(MARC) == ([], 3)
    run(state, "Ana Kd")
    assert state.known_cards(ANA) == ([Card("7", "h")], 1)
    refused(state, "Marc Kd", Code.CARD_TWICE)
    refused(state, "Marc 7h", Code.CARD_TWICE)
    run(state, "Marc K")


def test_a_player_with_only_known_cards_cannot_play_another() -> None:
    state = game("classic", DEAL, "Ana 9s", "Marc 8c")
    refused(state, "Marc 7d", Code.CARD_NOT_HELD)
    run(state, "Marc play A")
    assert state.known_cards(MARC) == ([Card("J", "d")], 0)


def test_a_rank_only_card_is_played_with_or_without_its_suit() -> None:
    state = game("classic", "Marc deals Ana=Q,K,9 Marc=Qs,??,??", "Ana Qh", "Marc Q")
    assert state.results == [None]
    assert state.known_cards(MARC) == ([], 2)
    run(state, "Ana K")
    # format.md: "a rank without a suit is a card whose suit was not noted": the Q
    # Marc played may have been one of his unseen cards, so the Qs can still come.
    run(state, "Marc Qs")
    assert state.known_cards(MARC) == ([], 1)


def test_a_rank_only_play_is_the_suited_card_when_nothing_else_can_be() -> None:
    state = game("classic", "Marc deals Ana=Q,K,9 Marc=Qs,8,9", "Ana Qh", "Marc Q")
    run(state, "Ana K")
    refused(state, "Marc Qs", Code.CARD_NOT_HELD)
    run(state, "Marc 8")


def test_a_suited_card_must_be_the_one_held() -> None:
    state = game("classic", DEAL)
    refused(state, "Ana 7s", Code.CARD_NOT_HELD)


def test_show_reveals_unplayed_cards_after_the_hand() -> None:
    state = game("classic", "Marc deals Ana=7h,Qs,9s", "Ana 7h", "Marc 9d", "Ana Qs", "Marc Td")
    refused(state, "Ana show 7h", Code.CARD_NOT_HELD)
    refused(state, "Ana show 8c", Code.CARD_NOT_HELD)
    run(state, "Ana show 9s")
    run(state, "Marc show Ah")
    assert state.known_cards(MARC) == ([Card("A", "h")], 0)
    refused(state, "Marc show Kh", Code.CARD_NOT_HELD)
    run(state, "Ana deals")


def test_show_is_refused_during_the_hand() -> None:
    state = game("classic", DEAL, "Ana 7h")
    refused(state, "Marc show As", Code.SHOW_TOO_EARLY)


def test_a_shown_card_must_not_be_out_already() -> None:
    state = game("classic", "Marc deals Ana=7h,Qs,9s", "Ana 7h", "Marc 9d", "Ana Qs", "Marc Td")
    refused(state, "Marc show 7h", Code.CARD_TWICE)
    state = game("classic", "Marc deals Ana=7h,Qs,9s", "Ana raise 2", "Marc fold")
    refused(state, "Marc show Qs", Code.CARD_TWICE)
    refused(state, "Marc show Ah Ah", Code.CARD_TWICE)
    run(state, "Marc show Ah Kh")


def test_show_completes_rank_only_cards() -> None:
    state = game("classic", "Marc deals Ana=7,Q,K", "Ana 7", "Marc 9", "Ana Q", "Marc T")
    run(state, "Ana show Kd")
    assert state.known_cards(ANA) == ([Card("K", "d")], 0)


def test_show_completes_several_rank_only_cards() -> None:
    state = game("classic", "Marc deals Ana=7,Q,K", "Ana raise 2", "Marc fold")
    run(state, "Ana show Qh Kd 7c")
    assert sorted(map(str, state.known_cards(ANA)[0])) == ["7c", "Kd", "Qh"]


# --- the pure and undoable forms ----------------------------------------------


def test_apply_leaves_the_state_unchanged_and_pop_takes_back() -> None:
    state = game("classic", DEAL, "Ana raise 2")
    after = apply(state, Accept(MARC))
    assert state.pending is not None and after.pending is None and after.value == 2
    run(state, "Marc accept", "Ana 7h")
    assert state.pop() == Play(ANA, Card("7", "h"))
    assert state.known_cards(ANA)[0] == [Card("7", "h"), Card("Q", "s"), Card("9", "s")]
    assert state.pop() == Accept(MARC)
    assert state.pending is not None


def test_messages_name_the_rule_broken() -> None:
    state = game("classic", DEAL, "Ana raise 2", "Marc accept")
    error = refused(state, "Ana raise 3", Code.RAISE_TWICE)
    assert "classic" in error.message and "alternate" in error.message
    assert isinstance(error, ValueError)


# --- rubbers: the first to win two games --------------------------------------


def won_by(winner: str) -> State:
    """A game that ``winner`` takes in one hand from 11 points each."""
    state = game("classic", "Marc deals", score={ANA: 11, MARC: 11})
    if winner == ANA:
        return run(state, "Ana raise 2", "Marc fold")
    return run(state, "Ana 9", "Marc raise 2", "Ana fold")


def test_a_rubber_goes_to_the_first_to_win_two_games() -> None:
    rubber = Rubber()
    rubber.record(won_by(ANA))
    assert rubber.winner is None
    rubber.record(won_by(MARC))
    assert rubber.winner is None
    rubber.record(won_by(MARC))
    assert rubber.winner == MARC
    assert rubber.wins == {ANA: 1, MARC: 2}
    with pytest.raises(IllegalActionError) as caught:
        rubber.record(won_by(ANA))
    assert caught.value.code == Code.RUBBER_OVER
    assert rubber.wins == {ANA: 1, MARC: 2}


def test_only_a_finished_game_counts_in_a_rubber() -> None:
    rubber = Rubber()
    with pytest.raises(IllegalActionError) as caught:
        rubber.record(game("classic", DEAL))
    assert caught.value.code == Code.RUBBER_GAME_NOT_OVER
    assert rubber.wins == {}


# --- what legal_actions lists -------------------------------------------------


def test_legal_actions_at_the_start_of_a_hand() -> None:
    state = game("classic", DEAL)
    listed = state.legal_actions()
    assert Redeal(ANA, True) in listed and Redeal(ANA, False) in listed
    assert Raise(ANA, reste=True) in listed
    assert [a.to for a in listed if isinstance(a, Raise) and not a.reste] == list(range(2, 13))
    assert [a for a in listed if isinstance(a, Play)] == [
        Play(ANA, parse_card(c)) for c in ["7h", "Qs", "9s"]
    ]
    assert not any(isinstance(a, Accept | Fold | Deal) for a in listed)
    assert all(getattr(a, "player", ANA) == ANA for a in listed)


def test_legal_actions_while_a_raise_is_pending_are_the_answers() -> None:
    state = game("classic", DEAL, "Ana raise 2")
    assert state.legal_actions() == [Accept(MARC), Fold(MARC)]


def test_legal_actions_under_double_list_the_one_double() -> None:
    state = game("sackson", DEAL, "Ana raise 2", "Marc accept")
    raises = [a for a in state.legal_actions() if isinstance(a, Raise)]
    assert raises == [Raise(ANA, reste=True), Raise(ANA, to=4)]


def test_legal_actions_list_rank_only_plays_for_unseen_cards() -> None:
    state = game("francais", "Marc deals Ana=7h,??,?? Marc=7,7,7")
    plays = [a.card for a in state.legal_actions() if isinstance(a, Play)]
    assert plays == [parse_card(c) for c in ["7h", "6", "A", "K", "Q", "J", "T", "9"]]


def test_legal_actions_after_a_hand_are_the_next_deal() -> None:
    state = game("classic", DEAL, "Ana raise 2", "Marc fold")
    assert state.legal_actions() == [Deal(ANA, hand=2)]
    state = game("classic", DEAL, "Ana redeal yes")
    assert state.legal_actions() == [Deal(MARC, hand=1)]


def test_a_game_resumed_from_a_written_score_may_go_on_counting_hands() -> None:
    # format.md: the game line's `score` is a starting score (a game resumed from paper);
    # its first deal may carry the number the paper had reached, and the count goes on.
    state = State.new([ANA, MARC], dealer=MARC, rules="classic", score={ANA: 5, MARC: 7})
    state.push(Deal(MARC, hand=9))
    assert state.hand_no == 9
    fresh = State.new([ANA, MARC], dealer=MARC, rules="classic")
    refused(fresh, "Marc deals #9", Code.DEAL_WRONG_NUMBER)
