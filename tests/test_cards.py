"""Card parsing and printing as docs/format.md says, and the decks of docs/rules.md rule 1."""

import pytest

from truclog.engine.cards import Card, deck, format_card, parse_card, parse_dealt
from truclog.engine.rules import PRESETS
from truclog.errors import CardError, TruclogError


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("7h", "7", "h"),
        ("Ts", "T", "s"),
        ("10s", "T", "s"),
        ("10", "T", None),
        ("10H", "T", "h"),
        ("qS", "Q", "s"),
        ("as", "A", "s"),
        ("Kd", "K", "d"),
        ("6c", "6", "c"),
        ("9", "9", None),
        ("j", "J", None),
    ],
)
def test_a_rank_then_an_optional_suit_in_any_case(text: str, rank: str, suit: str | None) -> None:
    assert parse_card(text) == Card(rank, suit)


@pytest.mark.parametrize(
    ("text", "printed"),
    [("7H", "7h"), ("10d", "Td"), ("q", "Q"), ("aS", "As"), ("10", "T")],
)
def test_writers_emit_an_upper_case_rank_and_a_lower_case_suit(text: str, printed: str) -> None:
    assert str(parse_card(text)) == printed
    assert format_card(parse_card(text)) == printed


def test_the_unseen_card_is_none_when_dealt_and_prints_as_question_marks() -> None:
    assert parse_dealt("??") is None
    assert format_card(None) == "??"
    assert parse_dealt("7h") == Card("7", "h")


def test_the_unseen_card_is_not_a_known_card() -> None:
    with pytest.raises(CardError, match="unseen"):
        parse_card("??")


@pytest.mark.parametrize("text", ["", "1", "1s", "5h", "Z", "Qx", "7hh", "11", "10x", "h7", "7 h"])
def test_strings_that_are_not_cards_are_refused(text: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_card(text)
    assert isinstance(caught.value, TruclogError)
    assert isinstance(caught.value, ValueError)
    assert repr(text) in str(caught.value) or text == ""


def test_a_rank_only_card_matches_every_suit_of_its_rank() -> None:
    queen = parse_card("Q")
    assert queen.matches(parse_card("Qs"))
    assert parse_card("Qs").matches(queen)
    assert not parse_card("Qh").matches(parse_card("Qs"))
    assert not queen.matches(parse_card("K"))


@pytest.mark.parametrize(
    ("name", "size"), [(name, 36 if name == "classic-36" else 32) for name in PRESETS]
)
def test_each_preset_deck_holds_four_cards_of_each_of_its_ranks(name: str, size: int) -> None:
    rules = PRESETS[name]
    cards = deck(rules.order)
    assert len(cards) == size == rules.deck_size
    assert len(set(cards)) == size
    for rank in rules.order:
        assert sum(card.rank == rank for card in cards) == 4
    assert {card.suit for card in cards} == set("cdhs")
