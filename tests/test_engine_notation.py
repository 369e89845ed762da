"""The short notation of actions (``truclog.engine.parse_action``), which the recorder's
entry line reads: each form gives the action the engine expects of whoever acts."""

from __future__ import annotations

import pytest

from truclog.engine import NotationError, parse_action
from truclog.engine.actions import Accept, Deal, Fold, Play, Raise, Redeal, Show
from truclog.engine.cards import Card
from truclog.engine.cards import parse_card as c
from truclog.engine.state import State


def dealt(players: list[str] | None = None) -> State:
    players = players or ["Ana", "Marc"]
    state = State.new(players, dealer=players[-1])
    state.push(Deal.of(players[-1], {players[0]: [c("7h"), c("Q"), c("9s")]}, hand=1))
    return state


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7h", Play("Ana", c("7h"))),
        ("play 9s", Play("Ana", c("9s"))),
        ("p Q", Play("Ana", Card("Q"))),
        ("2", Play("Ana", Card("Q"))),
        ("a", Play("Ana", Card("A"))),  # nothing to accept: the ace
        ("r", Raise("Ana", to=2)),
        ("raise 4", Raise("Ana", to=4)),
        ("rr", Raise("Ana", reste=True)),
        ("raise reste", Raise("Ana", reste=True)),
        ("x y", Redeal("Ana", True)),
        ("redeal no", Redeal("Ana", False)),
        ("fold", Fold("Ana")),
    ],
)
def test_each_form_reads_as_the_action_of_whoever_acts(text: str, expected: object) -> None:
    assert parse_action(text, dealt()) == expected


def test_an_answer_goes_to_the_answerer_or_to_the_one_named() -> None:
    state = dealt(["Ana", "Marc", "Lu", "Zoé"])
    state.push(Raise("Ana", to=2))
    assert parse_action("accept", state) == Accept("Marc")
    assert parse_action("a zo", state) == Accept("Zoé")
    assert parse_action("f Zoé", state) == Fold("Zoé")


def test_a_deal_and_a_show_name_their_cards() -> None:
    state = State.new(["Ana", "Marc"], dealer="Marc")
    deal = parse_action("d 7h Q ?? / As", state)
    assert deal == Deal.of(
        "Marc", {"Ana": [c("7h"), c("Q"), None], "Marc": [c("As"), None, None]}, hand=1
    )
    assert parse_action("deal 7h Q 9s", state, me="Marc") == Deal.of(
        "Marc", {"Marc": [c("7h"), c("Q"), c("9s")]}, hand=1
    )
    assert parse_action("show marc K J", state) == Show("Marc", (Card("K"), Card("J")))


def test_a_named_player_acts_whatever_the_engine_expects() -> None:
    """A log may say someone else acted: the notation reads it, the engine judges it."""
    state = dealt()
    action = parse_action("As", state, player="Marc")
    assert action == Play("Marc", c("As"))
    assert not state.is_legal(action)
    assert parse_action("raise -3", state, player="Ana") == Raise("Ana", to=-3)


@pytest.mark.parametrize("text", ["", "zz", "r x", "7h 9s", "x maybe", "s Marc"])
def test_what_is_not_an_action_says_so(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_action(text, dealt())
    assert caught.value.message
