"""The truclog/1 event models, checked against the format contract (format.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from truclog.engine.actions import Accept, Deal, Fold, Play, Raise, Redeal, Show
from truclog.engine.cards import Card
from truclog.engine.rules import PRESETS
from truclog.format.events import (
    AcceptEvent,
    DealEvent,
    GameEndEvent,
    GameEvent,
    PlayEvent,
    RaiseEvent,
    ResultEvent,
    ShowEvent,
    action_to_event,
    event_to_action,
    parse_event,
    reasons,
)
from truclog.format.writer import dumps

GAME = {"type": "game", "format": "truclog/1", "players": ["Ana", "Marc"], "dealer": "Marc"}


def why(data: dict | str) -> str:
    """The user-facing reasons a line is refused (fails the test if it is accepted)."""
    with pytest.raises(ValidationError) as caught:
        parse_event(data)
    return reasons(caught.value)


# --- the contract's example -----------------------------------------------------

EXAMPLE = """\
{"type": "game", "format": "truclog/1", "id": "cafe-2026-11-29-1", "rules": "classic", "players": ["Ana", "Marc"], "dealer": "Marc", "source": "tabletop"}
{"type": "deal", "hand": 1, "dealer": "Marc", "cards": {"Ana": ["7h", "Q", "9s"], "Marc": ["??", "??", "??"]}}
{"type": "raise", "player": "Ana", "to": 2, "t": "2026-11-29T20:14:03+01:00"}
{"type": "accept", "player": "Marc"}
{"type": "play", "player": "Ana", "card": "7h"}
{"type": "play", "player": "Marc", "card": "As"}
{"type": "play", "player": "Ana", "card": "Q"}
{"type": "play", "player": "Marc", "card": "Jd"}
{"type": "result", "winner": "Ana", "points": 2, "score": {"Ana": 2, "Marc": 0}}
"""


def test_the_contract_example_parses_line_by_line() -> None:
    events = [parse_event(line) for line in EXAMPLE.splitlines()]
    assert [e.type for e in events] == [
        "game", "deal", "raise", "accept", "play", "play", "play", "play", "result",
    ]  # fmt: skip
    game, deal, raise_ = events[0], events[1], events[2]
    assert isinstance(game, GameEvent) and game.id == "cafe-2026-11-29-1"
    assert isinstance(deal, DealEvent) and deal.cards == {
        "Ana": ["7h", "Q", "9s"],
        "Marc": ["??", "??", "??"],
    }
    assert isinstance(raise_, RaiseEvent) and raise_.to == 2
    assert raise_.t == "2026-11-29T20:14:03+01:00"


def test_every_type_parses_from_bytes_str_and_dict() -> None:
    line = '{"type":"fold","player":"Ana"}'
    for data in (line, line.encode(), {"type": "fold", "player": "Ana"}):
        assert parse_event(data).type == "fold"


# --- cards -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "normal"),
    [("7h", "7h"), ("7H", "7h"), ("qS", "Qs"), ("10d", "Td"), ("10", "T"), ("t", "T"), ("a", "A")],
)
def test_cards_are_normalised_upper_rank_lower_suit(given: str, normal: str) -> None:
    assert parse_event({"type": "play", "player": "Ana", "card": given}).card == normal
    deal = parse_event({"type": "deal", "dealer": "Ana", "cards": {"Ana": [given, "??", "??"]}})
    assert deal.cards == {"Ana": [normal, "??", "??"]}


@pytest.mark.parametrize("bad", ["1h", "7x", "Z", "", "7hh", " 7h", "11", "???"])
def test_bad_cards_are_refused_naming_the_field(bad: str) -> None:
    reason = why({"type": "play", "player": "Ana", "card": bad})
    assert reason.startswith("card: ") and "card" in reason[6:]


def test_unseen_card_only_where_a_dealt_card_is_expected() -> None:
    assert "unseen" in why({"type": "play", "player": "Ana", "card": "??"})
    assert "cards.0" in why({"type": "show", "player": "Ana", "cards": ["??"]})


def test_a_deal_gives_exactly_three_cards_to_each_listed_player() -> None:
    assert "cards.Marc" in why({"type": "deal", "dealer": "Ana", "cards": {"Marc": ["7h", "8h"]}})
    assert "cards.Marc" in why(
        {"type": "deal", "dealer": "Ana", "cards": {"Marc": ["7h", "8h", "9h", "Th"]}}
    )
    left_out = parse_event({"type": "deal", "dealer": "Ana"})
    assert isinstance(left_out, DealEvent) and left_out.cards is None


def test_show_lists_between_one_and_three_known_cards() -> None:
    assert parse_event({"type": "show", "player": "Ana", "cards": ["7h", "q"]}).cards == ["7h", "Q"]
    assert "cards" in why({"type": "show", "player": "Ana", "cards": []})


# --- strict types ---------------------------------------------------------------------


@pytest.mark.parametrize("to", ["3", 3.0, True, None, [3]])
def test_raise_to_must_be_an_integer(to: object) -> None:
    reason = why({"type": "raise", "player": "Ana", "to": to})
    assert "to" in reason or "exactly one" in reason


def test_raise_needs_exactly_one_of_to_or_reste_true() -> None:
    assert parse_event({"type": "raise", "player": "Ana", "reste": True}).reste is True
    assert "exactly one" in why({"type": "raise", "player": "Ana"})
    assert "exactly one" in why({"type": "raise", "player": "Ana", "to": 3, "reste": True})
    assert parse_event({"type": "raise", "player": "Ana", "to": 3, "reste": False}).to == 3
    assert "exactly one" in why({"type": "raise", "player": "Ana", "reste": False})
    assert why({"type": "raise", "player": "Ana", "reste": "yes"}).startswith("reste: ")


def test_huge_integers_are_integers() -> None:
    assert parse_event('{"type":"raise","player":"Ana","to":123456789012345678901234567890}').to
    assert "to" in why('{"type":"raise","player":"Ana","to":1e999}')


@pytest.mark.parametrize("accepted", [1, 0, "true", None])
def test_redeal_accepted_must_be_a_real_boolean(accepted: object) -> None:
    assert why({"type": "redeal", "player": "Ana", "accepted": accepted}).startswith("accepted: ")


def test_result_points_and_scores_are_non_negative_integers() -> None:
    ok = {"type": "result", "winner": "Ana", "points": 2, "score": {"Ana": 2, "Marc": 0}}
    assert parse_event(ok).points == 2
    assert why({**ok, "points": 2.5}).startswith("points: ")
    assert why({**ok, "points": "2"}).startswith("points: ")
    assert why({**ok, "score": {"Ana": -1}}).startswith("score.Ana: ")


def test_result_winner_is_required_but_may_be_null_for_a_drawn_hand() -> None:
    drawn = parse_event({"type": "result", "winner": None, "points": 0, "score": {"Ana": 1}})
    assert isinstance(drawn, ResultEvent) and drawn.winner is None
    assert "winner" in drawn.model_fields_set
    assert why({"type": "result", "points": 0, "score": {"Ana": 1}}) == (
        "winner: required field is missing"
    )


def test_game_end_fields_are_all_optional() -> None:
    end = parse_event({"type": "game_end", "abandoned": True})
    assert isinstance(end, GameEndEvent) and end.abandoned and end.winner is None
    assert why({"type": "game_end", "abandoned": "yes"}).startswith("abandoned: ")


def test_every_problem_of_a_line_is_reported() -> None:
    reason = why({"type": "deal", "dealer": "", "cards": {"Ana": ["1x", "??", "??"]}, "hand": 0})
    assert "dealer" in reason and "cards.Ana.0" in reason and "hand" in reason


def test_missing_required_fields_are_named() -> None:
    assert why({"type": "play", "player": "Ana"}) == "card: required field is missing"
    assert why({"type": "accept"}) == "player: required field is missing"


# --- common fields and extensions ----------------------------------------------------


def test_t_keeps_the_original_string() -> None:
    for stamp in ["2026-11-29T20:14:03+01:00", "2026-11-29T19:14:03Z", "2026-11-29t19:14:03.250z"]:
        assert parse_event({"type": "accept", "player": "Ana", "t": stamp}).t == stamp


@pytest.mark.parametrize(
    "stamp",
    ["2026-11-29 20:14:03+01:00", "2026-11-29T20:14:03", "2026-11-29", "2026-02-30T20:14:03Z", "x"],
)
def test_t_must_be_rfc3339_with_offset(stamp: str) -> None:
    assert why({"type": "accept", "player": "Ana", "t": stamp}).startswith("t: ")


def test_extensions_are_kept_and_other_unknown_fields_refused() -> None:
    event = parse_event({"type": "play", "player": "Ana", "card": "7h", "_strength": 0.25})
    assert event.extensions == {"_strength": 0.25}
    assert why({"type": "play", "player": "Ana", "card": "7h", "strength": 1}) == (
        "strength: unknown field (an extension field must start with '_')"
    )
    assert "'a', 'b'" in why({"type": "fold", "player": "Ana", "a": 1, "b": 2})


def test_note_is_free_text() -> None:
    assert parse_event({"type": "fold", "player": "Ana", "note": "« non ! »"}).note == "« non ! »"
    assert why({"type": "fold", "player": "Ana", "note": 5}).startswith("note: ")


# --- the game line --------------------------------------------------------------------


def test_game_defaults_to_classic_rules() -> None:
    game = parse_event(GAME)
    assert isinstance(game, GameEvent)
    assert game.rules is None and game.rules_obj == PRESETS["classic"]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_game_accepts_every_preset(preset: str) -> None:
    game = parse_event({**GAME, "rules": preset})
    assert isinstance(game, GameEvent) and game.rules_obj is PRESETS[preset]


def test_unknown_preset_lists_the_known_ones() -> None:
    reason = why({**GAME, "rules": "belote"})
    assert reason.startswith("rules: ") and "belote" in reason
    assert all(name in reason for name in PRESETS)


def test_rules_object_overrides_a_preset() -> None:
    game = parse_event({**GAME, "rules": {"preset": "francais", "target": 8, "max_value": None}})
    assert isinstance(game, GameEvent)
    assert game.rules_obj.target == 8 and game.rules_obj.max_value is None
    assert game.rules_obj.order == PRESETS["francais"].order
    assert parse_event({**GAME, "rules": {"order": "87akqjt9"}}).rules_obj.order == "87AKQJT9"


@pytest.mark.parametrize(
    "rules",
    [
        {"preset": "classic", "raises": "triple"},
        {"preset": "classic", "fold_anytime": "yes"},
        {"preset": "classic", "target": 12.5},
        {"preset": "classic", "colour": "red"},
        {"preset": "classic", "order": "78AX"},
        {"preset": "nope"},
        {"preset": "classic", "reste": None},
        5,
    ],
)
def test_bad_rules_objects_are_refused(rules: object) -> None:
    assert why({**GAME, "rules": rules}).startswith("rules")


def test_format_must_be_truclog_1() -> None:
    assert why({**GAME, "format": "truclog/2"}).startswith("format: ")
    assert why({k: v for k, v in GAME.items() if k != "format"}) == (
        "format: required field is missing"
    )


@pytest.mark.parametrize("players", [["Ana"], ["Ana", "Marc", "Lu"], ["Ana", "Ana"], []])
def test_two_or_four_distinct_players(players: list[str]) -> None:
    assert why({**GAME, "players": players, "dealer": "Ana"}).startswith("players")


def test_dealer_is_a_player() -> None:
    assert why({**GAME, "dealer": "Zoé"}) == "dealer: 'Zoé' is not one of the players"


def test_starting_score_names_players() -> None:
    game = parse_event({**GAME, "score": {"Ana": 7, "Marc": 5}})
    assert isinstance(game, GameEvent) and game.score == {"Ana": 7, "Marc": 5}
    assert why({**GAME, "score": {"Zoé": 3}}).startswith("score: ")


def test_date_is_kept_as_the_writer_noted_it() -> None:
    # format.md gives `date` no format (only `t` must be RFC 3339): any text is kept.
    assert parse_event({**GAME, "date": "2026-11-29"}).date == "2026-11-29"
    assert parse_event({**GAME, "date": "samedi 29/11/2026"}).date == "samedi 29/11/2026"
    assert why({**GAME, "date": 20261129}).startswith("date: ")


def test_tags_are_strings() -> None:
    assert parse_event({**GAME, "tags": {"place": "Sète"}}).tags == {"place": "Sète"}
    assert why({**GAME, "tags": {"table": 4}}).startswith("tags.table: ")


# --- four players --------------------------------------------------------------------

FOUR = {**GAME, "players": ["Ana", "Marc", "Lu", "Zoé"], "dealer": "Zoé"}


def test_four_players_have_default_team_names() -> None:
    game = parse_event(FOUR)
    assert isinstance(game, GameEvent) and game.sides == ("Ana+Lu", "Marc+Zoé")


def test_teams_name_partners_sitting_opposite() -> None:
    game = parse_event({**FOUR, "teams": {"eux": ["Marc", "Zoé"], "nous": ["Lu", "Ana"]}})
    assert isinstance(game, GameEvent) and game.sides == ("nous", "eux")
    assert parse_event({**FOUR, "teams": {"nous": ["Ana", "Lu"], "eux": ["Marc", "Zoé"]}})


@pytest.mark.parametrize(
    "teams",
    [
        {"nous": ["Ana", "Marc"], "eux": ["Lu", "Zoé"]},
        {"nous": ["Ana", "Lu"]},
        {"nous": ["Ana", "Lu"], "eux": ["Marc", "Paul"]},
        {"nous": ["Ana", "Ana"], "eux": ["Marc", "Zoé"]},
    ],
)
def test_bad_teams_are_refused(teams: dict[str, list[str]]) -> None:
    assert why({**FOUR, "teams": teams}).startswith("teams: ")


def test_teams_only_in_four_player_games() -> None:
    assert why({**GAME, "teams": {"a": ["Ana"], "b": ["Marc"]}}).startswith("teams: ")


def test_four_player_scores_are_keyed_by_team() -> None:
    assert parse_event({**FOUR, "score": {"Ana+Lu": 3}})
    assert why({**FOUR, "score": {"Ana": 3}}).startswith("score: ")


# --- events and engine actions -------------------------------------------------------


ACTIONS = [
    Deal.of("Marc", {"Ana": [Card("7", "h"), None, Card("Q")]}, hand=1),
    Deal.of("Marc"),
    Redeal("Ana", True),
    Redeal("Ana", False),
    Raise("Ana", to=2),
    Raise("Ana", reste=True),
    Accept("Marc"),
    Fold("Marc"),
    Play("Ana", Card("T", "s")),
    Play("Ana", Card("Q")),
    Show("Marc", (Card("A", "c"), Card("9"))),
]


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_actions_and_events_convert_both_ways(action: object) -> None:
    event = action_to_event(action)  # type: ignore[arg-type]
    assert event_to_action(event) == action


def test_action_to_event_adds_common_fields_and_extensions() -> None:
    event = action_to_event(Play("Ana", Card("7", "h")), t="2026-11-29T20:14:03+01:00", _x=1)
    assert isinstance(event, PlayEvent)
    assert event.t == "2026-11-29T20:14:03+01:00" and event.extensions == {"_x": 1}
    with pytest.raises(ValidationError):
        action_to_event(Accept("Ana"), mood="happy")


def test_event_to_action_reads_unseen_and_rank_only_cards() -> None:
    event = parse_event({"type": "deal", "dealer": "Marc", "cards": {"Ana": ["10h", "??", "q"]}})
    assert event_to_action(event) == Deal.of("Marc", {"Ana": [Card("T", "h"), None, Card("Q")]})


def test_lines_without_an_action() -> None:
    assert event_to_action(parse_event(GAME)) is None
    assert event_to_action(parse_event({"type": "game_end"})) is None
    result = {"type": "result", "winner": None, "points": 0, "score": {}}
    assert event_to_action(parse_event(result)) is None
    assert isinstance(parse_event({"type": "accept", "player": "A"}), AcceptEvent)
    assert isinstance(parse_event({"type": "show", "player": "A", "cards": ["7"]}), ShowEvent)


def test_game_accepts_engine_rules_and_declares_them_by_preset() -> None:
    from truclog.engine.rules import get_rules

    plain = GameEvent(format="truclog/1", players=["A", "B"], dealer="A", rules=PRESETS["sackson"])
    assert plain.rules == "sackson" and plain.rules_obj == PRESETS["sackson"]
    custom = get_rules({"preset": "francais", "target": 8})
    game = GameEvent(format="truclog/1", players=["A", "B"], dealer="A", rules=custom)
    assert game.rules_obj == custom
    assert parse_event(game.model_dump(exclude_unset=True)).rules_obj == custom


def test_card_counts_are_explained_in_cards() -> None:
    assert why({"type": "deal", "dealer": "A", "cards": {"Ana": ["7h"]}}) == (
        "cards.Ana: must list exactly 3 cards, not 1"
    )
    assert why({"type": "show", "player": "A", "cards": ["7", "8", "9", "T"]}) == (
        "cards: must list 1 to 3 cards, not 4"
    )


names = st.sampled_from(["Ana", "Marc", "Zoé", "Lu"])
known_cards = st.builds(Card, st.sampled_from(list("6789TJQKA")), st.sampled_from([None, *"cdhs"]))
actions = st.one_of(
    st.builds(
        lambda dealer, cards, hand: Deal.of(dealer, cards, hand),
        names,
        st.dictionaries(names, st.lists(st.none() | known_cards, min_size=3, max_size=3)),
        st.none() | st.integers(1, 30),
    ),
    st.builds(Redeal, names, st.booleans()),
    st.builds(lambda p, to: Raise(p, to=to), names, st.integers(2, 40)),
    st.builds(lambda p: Raise(p, reste=True), names),
    st.builds(Accept, names),
    st.builds(Fold, names),
    st.builds(Play, names, known_cards),
    st.builds(Show, names, st.lists(known_cards, min_size=1, max_size=3).map(tuple)),
)


@settings(max_examples=200, deadline=None)
@given(actions)
def test_any_action_survives_a_trip_through_a_log_line(action: object) -> None:
    line = dumps(action_to_event(action))  # type: ignore[arg-type]
    assert event_to_action(parse_event(line)) == action
