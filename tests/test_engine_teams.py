"""Scenario tests for four players in two teams, as team play sets the rules.

Seats follow ``players``: Ana, Bea, Cid, Dan; partners sit opposite, so Ana and
Cid play against Bea and Dan. Lines are written as in shorthand.py.
"""

from __future__ import annotations

from functools import partial

import pytest
import shorthand
from shorthand import refused, run

from truclog.engine.cards import Card
from truclog.engine.state import Code, Phase, State
from truclog.errors import TruclogError

PLAYERS = ["Ana", "Bea", "Cid", "Dan"]
AC, BD = "Ana+Cid", "Bea+Dan"


game = partial(shorthand.game, PLAYERS, dealer="Dan")
"""A game of the four players, Dan dealing first."""


def trick(*cards: str, lead: str = "Ana") -> list[str]:
    """Plays of one trick, from ``lead`` in seating order."""
    start = PLAYERS.index(lead)
    return [f"{PLAYERS[(start + i) % 4]} {card}" for i, card in enumerate(cards)]


# Dan deals, Ana leads. Ana+Cid hold the 7s, Bea+Dan the aces.
DEAL = "Dan deals Ana=7h,Qh,9h Bea=Ah,Kh,Th Cid=7s,Qs,9s Dan=As,Ks,Ts"


# --- seats, teams and names ---------------------------------------------------


def test_partners_sit_opposite_and_teams_are_named_by_default() -> None:
    state = game()
    assert state.teams == (AC, BD)
    assert state.team_names == {"Ana": AC, "Bea": BD, "Cid": AC, "Dan": BD}
    assert state.score == {AC: 0, BD: 0}


def test_teams_may_be_named() -> None:
    state = game(teams={"eux": ["Dan", "Bea"], "nous": ["Ana", "Cid"]})
    assert state.teams == ("nous", "eux")
    assert state.team_names["Bea"] == "eux"
    assert state.score == {"nous": 0, "eux": 0}


@pytest.mark.parametrize(
    "teams",
    [
        {"x": ["Ana", "Bea"], "y": ["Cid", "Dan"]},
        {"x": ["Ana", "Cid"]},
        {"x": ["Ana", "Cid"], "y": ["Bea", "Zoe"]},
        {"x": ["Ana", "Ana"], "y": ["Bea", "Dan"]},
        {"x": ["Ana", "Cid", "Bea"], "y": ["Dan"]},
    ],
)
def test_teams_must_be_the_two_pairs_of_partners(teams: dict[str, list[str]]) -> None:
    with pytest.raises(TruclogError):
        game(teams=teams)


@pytest.mark.parametrize("players", [["Ana", "Bea", "Cid"], ["Ana", "Bea", "Cid", "Ana"], ["Ana"]])
def test_a_game_has_two_or_four_distinct_players(players: list[str]) -> None:
    with pytest.raises(TruclogError):
        State.new(players, dealer="Ana")


def test_starting_scores_are_per_team() -> None:
    state = game(score={AC: 5, BD: 7})
    assert state.score == {AC: 5, BD: 7}
    assert state.remainder("Cid") == 7 and state.remainder("Bea") == 5


# --- the deal and the order of play -------------------------------------------


@pytest.mark.parametrize(("dealer", "leader"), [("Dan", "Ana"), ("Ana", "Bea"), ("Cid", "Dan")])
def test_the_player_after_the_dealer_leads(dealer: str, leader: str) -> None:
    state = game("classic", f"{dealer} deals", dealer=dealer)
    assert state.to_act == leader
    for other in PLAYERS:
        if other != leader:
            refused(state, f"{other} 7h", Code.OUT_OF_TURN)


def test_play_goes_round_the_table_in_seating_order() -> None:
    state = game("classic", DEAL, "Ana 9h")
    refused(state, "Cid 9s", Code.OUT_OF_TURN)
    refused(state, "Dan Ts", Code.OUT_OF_TURN)
    run(state, "Bea Th")
    assert state.to_act == "Cid"
    run(state, "Cid 9s", "Dan Ts")
    assert len(state.results) == 1


def test_each_of_four_players_is_dealt_three_cards() -> None:
    state = game()
    refused(state, "Dan deals Ana=7h,Qh,9h Bea=Ah,Kh", Code.DEAL_WRONG_COUNT)
    refused(state, "Dan deals Ana=7h,Qh,9h Bea=7h,Kh,Th", Code.CARD_TWICE)
    run(state, DEAL)
    assert state.known_cards("Dan") == ([Card("A", "s"), Card("K", "s"), Card("T", "s")], 0)


def test_the_deal_passes_to_the_next_player_after_each_hand() -> None:
    state = game("classic", DEAL, "Ana raise 2", "Bea fold")
    for other in ["Dan", "Bea", "Cid"]:
        refused(state, f"{other} deals", Code.DEAL_WRONG_DEALER)
    run(state, "Ana deals #2")
    assert state.to_act == "Bea"
    run(state, "Bea raise 2", "Cid fold", "Bea deals #3")
    assert state.to_act == "Cid"


# --- four-card tricks ---------------------------------------------------------


def test_the_highest_card_wins_the_trick_for_its_team_and_its_player_leads() -> None:
    state = game("classic", DEAL, *trick("9h", "Th", "Qs", "Ks"))
    assert state.results == [1]
    assert state.to_act == "Dan"
    state = game("classic", DEAL, *trick("9h", "Ah", "7s", "Ks"))
    assert state.results == [0]
    assert state.to_act == "Cid"


def test_partners_sharing_the_top_rank_win_and_the_first_of_them_leads() -> None:
    state = game("classic", DEAL, *trick("7h", "Th", "7s", "Ks"))
    assert state.results == [0]
    assert state.to_act == "Ana"
    state = game("classic", DEAL, *trick("9h", "Ah", "9s", "As"))
    assert state.results == [1]
    assert state.to_act == "Bea"


def test_both_teams_sharing_the_top_rank_tie_and_the_leader_leads_again() -> None:
    state = game(
        "classic",
        "Dan deals Ana=Kh,Qh,9h Bea=Kd,Ah,Th Cid=7s,Qs,9s Dan=As,Ks,Ts",
        "Ana Kh",
        "Bea Kd",
    )
    run(state, "Cid Qs", "Dan Ts")
    assert state.results == [None]
    assert state.to_act == "Ana"


def test_a_lower_shared_rank_does_not_tie_the_trick() -> None:
    state = game("classic", DEAL, *trick("Qh", "Th", "Qs", "Ts"))
    assert state.results == [0]
    assert state.to_act == "Ana"


# --- rule 5 on the teams' tricks ----------------------------------------------


def test_two_tricks_by_partners_decide_the_hand_for_their_team() -> None:
    state = game("classic", DEAL, *trick("9h", "Th", "7s", "Ts"))
    assert state.to_act == "Cid"
    run(state, *trick("Qs", "Ks", "7h", "Ah", lead="Cid"))
    assert state.phase is Phase.HAND_OVER
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.points) == (AC, 1)
    assert state.score == {AC: 1, BD: 0}
    refused(state, "Ana Qh", Code.HAND_DECIDED)


def test_first_trick_won_then_a_tied_trick_decides_for_the_first_winner() -> None:
    state = game("classic", "Dan deals", *trick("7", "T", "9", "T"))
    assert state.phase is Phase.PLAY
    run(state, *trick("K", "K", "Q", "9"))
    assert state.results == [0, None]
    assert state.phase is Phase.HAND_OVER
    assert state.outcome is not None and state.outcome.winner == AC


def test_first_trick_tied_then_the_next_won_decides() -> None:
    tied = "Dan deals Ana=Kh,Qh,9h Bea=Kd,Ah,Th Cid=7s,Qs,9s Dan=As,Ks,Ts"
    state = game("classic", tied, *trick("Kh", "Kd", "Qs", "Ts"))
    assert state.results == [None]
    run(state, *trick("9h", "Ah", "9s", "As"))
    assert state.phase is Phase.HAND_OVER
    assert state.outcome is not None and state.outcome.winner == BD


@pytest.mark.parametrize(
    ("rules", "dealer", "winner"),
    [("classic", "Dan", AC), ("classic", "Ana", BD), ("gamerules", "Dan", None)],
)
def test_all_tied_goes_to_the_non_dealing_team_or_is_a_draw(
    rules: str, dealer: str, winner: str | None
) -> None:
    lead = PLAYERS[(PLAYERS.index(dealer) + 1) % 4]
    state = game(rules, f"{dealer} deals", dealer=dealer)
    for top, low in ["Q9", "KT", "AJ"]:
        run(state, *trick(top, top, low, low, lead=lead))
    assert state.phase is Phase.HAND_OVER
    assert state.outcome is not None and state.outcome.winner == winner
    assert state.score == {AC: int(winner == AC), BD: int(winner == BD)}


# --- raises, answers, reste ---------------------------------------------------


def test_a_raise_may_be_answered_by_either_opponent_but_not_the_partner() -> None:
    for answerer in ["Bea", "Dan"]:
        state = game("classic", DEAL, "Ana raise 2")
        refused(state, "Cid accept", Code.ANSWER_BY_RAISER)
        refused(state, "Ana accept", Code.ANSWER_BY_RAISER)
        refused(state, "Cid fold", Code.ANSWER_BY_RAISER)
        run(state, f"{answerer} accept")
        assert state.value == 2


def test_a_fold_by_either_opponent_gives_the_raising_team_the_value_before() -> None:
    state = game("classic", DEAL, "Ana raise 3", "Dan accept", "Ana 9h", "Bea raise 5", "Cid fold")
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.points) == (BD, 3)
    assert state.score == {AC: 0, BD: 3}


def test_only_the_player_to_play_may_raise() -> None:
    state = game("classic", DEAL, "Ana 9h")
    for other in ["Ana", "Cid", "Dan"]:
        refused(state, f"{other} raise 2", Code.OUT_OF_TURN)
    run(state, "Bea raise 2", "Cid accept")


def test_alternate_raises_applies_per_team() -> None:
    state = game("classic", DEAL, "Ana raise 2", "Bea accept", "Ana 9h", "Bea Th")
    refused(state, "Cid raise 3", Code.RAISE_TWICE)
    run(state, "Cid 9s", "Dan raise 3", "Ana accept")
    assert state.value == 3
    run(state, "Dan Ts")


def test_after_the_other_team_raised_a_partner_may_raise_again() -> None:
    state = game(
        "classic", DEAL, "Ana raise 2", "Bea accept", "Ana 9h", "Bea raise 3", "Cid accept"
    )
    run(state, "Bea Th", "Cid raise 4", "Dan accept")
    assert state.value == 4
    run(state, "Cid 9s")


def test_without_alternate_raises_partners_may_raise_in_turn() -> None:
    state = game("gamerules", DEAL, "Ana raise 2", "Bea accept", "Ana 9h", "Bea Th", "Cid raise 3")
    run(state, "Dan accept")
    assert state.value == 3


def test_reste_is_the_raising_teams_remainder() -> None:
    state = game("classic", DEAL, "Ana 9h", "Bea raise reste", score={AC: 2, BD: 9})
    assert state.pending is not None and state.pending.to == 3
    run(state, "Cid accept", "Bea Th", "Cid 7s", "Dan Ts")
    run(state, *trick("Qs", "Ks", "7h", "Ah", lead="Cid"))
    assert state.outcome is not None and state.outcome.winner == AC
    assert state.phase is Phase.GAME_OVER
    assert state.score == {AC: 12, BD: 9}
    assert state.winner == AC


def test_a_refused_team_reste_under_game_wins_the_game() -> None:
    state = game("gamerules", DEAL, "Ana raise reste", "Dan fold", score={AC: 4, BD: 0})
    assert state.phase is Phase.GAME_OVER
    assert state.score == {AC: 12, BD: 0}


def test_no_raise_after_an_accepted_team_reste() -> None:
    state = game("classic", DEAL, "Ana raise reste", "Bea accept", "Ana 9h")
    refused(state, "Bea raise 12", Code.RAISE_AFTER_RESTE)


# --- redeal, fold anytime, game over ------------------------------------------


def test_the_player_after_the_dealer_asks_the_redeal_and_the_dealer_deals_again() -> None:
    state = game("classic", DEAL)
    for other in ["Bea", "Cid", "Dan"]:
        refused(state, f"{other} redeal yes", Code.REDEAL_WRONG_PLAYER)
    run(state, "Ana redeal yes")
    assert state.phase is Phase.REDEAL
    refused(state, "Ana deals", Code.DEAL_WRONG_DEALER)
    refused(state, "Dan deals Cid=7s,??,??", Code.CARD_TWICE)
    run(state, "Dan deals #1")
    assert (state.hand_no, state.to_act) == (1, "Ana")
    refused(state, "Ana redeal yes", Code.REDEAL_TWICE)


def test_fold_anytime_by_any_player_gives_the_other_team_the_value() -> None:
    state = game("gamerules", DEAL, "Ana raise 2", "Dan accept", "Ana 9h", "Cid fold")
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.points, state.outcome.ending) == (BD, 2, "fold")
    state = game("classic", DEAL)
    refused(state, "Bea fold", Code.FOLD_NOT_ALLOWED)


def test_the_first_team_to_reach_the_target_wins_the_game() -> None:
    state = game("classic", DEAL, "Ana raise 2", "Dan accept", score={AC: 10, BD: 11})
    run(state, *trick("7h", "Th", "9s", "Ts"), *trick("Qh", "Ah", "7s", "Ks"))
    assert state.phase is Phase.GAME_OVER
    assert state.winner == AC
    assert state.score == {AC: 12, BD: 11}
    refused(state, "Ana deals", Code.GAME_OVER)
    run(state, "Ana show 9h")
