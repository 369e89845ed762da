"""Bot decisions in fixed positions: card choice, answers to raises, reste, redeal, styles."""

from __future__ import annotations

import random

import pytest

from truclog.engine.actions import Accept, Deal, Fold, Play, Raise, Redeal
from truclog.engine.cards import deck, parse_card
from truclog.engine.rules import PRESETS
from truclog.engine.state import Phase, State
from truclog.errors import TruclogError
from truclog.simulate.bots import STYLES, Style, choose_card, decide, hand_strength, parse_style
from truclog.solver.strength import raise_strength

BALANCED = STYLES["balanced"]


def _state(
    ana: str, marc: str, rules: str = "classic", score: dict[str, int] | None = None
) -> State:
    """Marc deals; Ana (non-dealer) leads. Cards as space-separated strings."""
    state = State.new(["Ana", "Marc"], dealer="Marc", rules=rules, score=score)
    cards = {
        "Ana": [parse_card(c) for c in ana.split()],
        "Marc": [parse_card(c) for c in marc.split()],
    }
    state.push(Deal.of("Marc", cards))
    return state


def _play(state: State, *moves: str) -> State:
    for move in moves:
        player, card = move.split()
        state.push(Play(player, parse_card(card)))
    return state


def _rng() -> random.Random:
    return random.Random(0)


# --- cards: win cheaply, keep the 7 -----------------------------------------------------


def test_follower_wins_with_the_cheapest_card_that_beats() -> None:
    state = _play(_state("Kh 9c Jd", "7h Ac 9s"), "Ana Kh")
    assert choose_card(state, "Marc", _rng()) == parse_card("Ac")  # A beats K; the 7 is kept


def test_follower_that_cannot_win_plays_its_lowest_or_ties() -> None:
    state = _play(_state("7h 9c Jd", "Ac Qs 9s"), "Ana 7h")
    assert choose_card(state, "Marc", _rng()) == parse_card("9s")
    tie = _play(_state("Ah 9c Jd", "Ac Qs 9s"), "Ana Ah")
    assert choose_card(tie, "Marc", _rng()) == parse_card("Ac")  # a tie beats a loss


def test_leader_keeps_the_top_card_on_the_first_trick() -> None:
    state = _state("7h Kc 9d", "Ac Qs 9s")
    assert choose_card(state, "Ana", _rng()) == parse_card("Kc")
    sackson = _state("Ah Kc 9d", "Ac Qs 9s", rules="sackson")  # ace high there
    assert choose_card(sackson, "Ana", _rng()) == parse_card("Kc")


def test_leader_after_winning_the_first_trick_leads_its_best() -> None:
    state = _play(_state("7h Kc 9d", "Ac Qs 9s"), "Ana Kc", "Marc Qs")
    assert choose_card(state, "Ana", _rng()) == parse_card("7h")


def test_four_players_leave_a_partners_winning_card_alone() -> None:
    state = State.new(["Ana", "Marc", "Lu", "Zoé"], dealer="Zoé", rules="classic")
    hands = {"Ana": "7h Kc 9d", "Marc": "Qs 9s Jd", "Lu": "8h Ac Td", "Zoé": "Kd Js Tc"}
    state.push(Deal.of("Zoé", {p: [parse_card(c) for c in h.split()] for p, h in hands.items()}))
    _play(state, "Ana 7h", "Marc 9s")
    assert choose_card(state, "Lu", _rng()) == parse_card("Td")  # partner Ana wins with the 7


def test_careless_bots_play_any_held_card() -> None:
    state = _state("7h Kc 9d", "Ac Qs 9s")
    rng = random.Random(3)
    picks = {choose_card(state, "Ana", rng, careful=False) for _ in range(60)}
    assert picks == {parse_card(c) for c in ("7h", "Kc", "9d")}


# --- answering a raise ---------------------------------------------------------------


def test_a_fold_that_gives_the_game_away_is_never_chosen() -> None:
    # Marc has 11: folding to his raise would give him the game, so even a
    # cautious Ana with the worst cards accepts.
    style = parse_style("cautious:loose=0")
    for seed in range(20):
        state = _state("9h 9c Td", "7h 7c 8s", score={"Ana": 0, "Marc": 11})
        state.push(Play("Ana", parse_card("Td")))
        state.push(Raise("Marc", to=2))
        decision = decide(state, {"Ana": style, "Marc": style}, random.Random(seed))
        assert decision.action == Accept("Ana")


def test_hopeless_hands_fold_and_certain_ones_accept() -> None:
    style = parse_style("balanced:loose=0")
    hopeless = _play(_state("9h 9c Td", "7h 7c 8s"), "Ana Td")
    hopeless.push(Raise("Marc", to=2))
    assert decide(hopeless, {"Ana": style, "Marc": style}, _rng()).action == Fold("Ana")
    certain = _state("7h 7c 7s", "9h 9c Td")
    certain.push(Raise("Ana", to=2))
    assert decide(certain, {"Ana": style, "Marc": style}, _rng()).action == Fold("Marc")
    certain.pop()
    certain.push(Play("Ana", parse_card("7h")))
    certain.push(Raise("Marc", to=2))
    assert decide(certain, {"Ana": style, "Marc": style}, _rng()).action == Accept("Ana")


def test_a_calling_station_accepts_what_a_cautious_player_folds() -> None:
    def answers(style: Style) -> set[type]:
        kinds = set()
        for seed in range(40):
            state = _play(_state("9h Qc Td", "7h Ac 8s"), "Ana Td")
            state.push(Raise("Marc", to=2))
            kinds.add(
                type(decide(state, {"Ana": style, "Marc": style}, random.Random(seed)).action)
            )
        return kinds

    assert answers(parse_style("calling-station:loose=1")) == {Accept}
    assert answers(STYLES["cautious"]) == {Fold}


# --- raising ---------------------------------------------------------------------------


def _raises(style: Style, ana: str, marc: str, tries: int = 200, **kw: object) -> list[object]:
    made = []
    for seed in range(tries):
        state = _state(ana, marc, **kw)  # type: ignore[arg-type]
        action = decide(state, {"Ana": style, "Marc": style}, random.Random(seed)).action
        if isinstance(action, Raise):
            made.append(action)
    return made


def test_no_bluffs_with_bluff_zero_and_bluffs_with_bluff_one() -> None:
    weak, strong = "9h 9c Td", "7h 7c 8s"
    assert raise_strength(_state(weak, strong), "Ana") < 0.01
    assert _raises(parse_style("bluffer:bluff=0,redeal_ask=0"), weak, strong) == []
    assert len(_raises(parse_style("cautious:bluff=1,redeal_ask=0"), weak, strong)) == 200


def test_raises_follow_the_rules_steps() -> None:
    style = parse_style("balanced:value_raise=1,jump=0,reste=0")
    assert set(_raises(style, "7h 7c 8s", "9h 9c Td")) == {Raise("Ana", to=2)}
    jumpy = parse_style("balanced:value_raise=1,jump=1,reste=0")
    assert set(_raises(jumpy, "7h 7c 8s", "9h 9c Td")) == {Raise("Ana", to=3)}
    assert set(_raises(jumpy, "Ah Ac Ks", "9h 9c Td", rules="francais")) == {Raise("Ana", to=2)}


def test_reste_with_a_very_strong_hand_or_when_a_raise_would_pass_the_remainder() -> None:
    style = parse_style("balanced:value_raise=1,reste=1")
    assert set(_raises(style, "7h 7c 7s", "9h 9c Td", tries=20)) == {Raise("Ana", reste=True)}
    near = _raises(style, "Ah Kc Ks", "9h 9c Td", tries=20, score={"Ana": 10, "Marc": 0})
    assert near and set(near) == {Raise("Ana", reste=True)}
    no_reste = _raises(style, "7h 7c 7s", "9h 9c Td", tries=20, rules="francais")
    assert set(no_reste) == {Raise("Ana", to=2)}


def test_weak_non_dealer_asks_for_a_redeal_and_the_dealer_answers() -> None:
    asker = parse_style("balanced:redeal_ask=1")
    seen = set()
    for seed in range(30):
        state = _state("9h 9c Td", "Kh Qc Js")
        styles = {"Ana": asker, "Marc": parse_style("balanced:redeal_grant=1")}
        seen.add(decide(state, styles, random.Random(seed)).action)
    assert seen == {Redeal("Ana", True)}
    never = _state("9h 9c Td", "Kh Qc Js", rules={"preset": "classic", "redeal": "none"})  # type: ignore[arg-type]
    action = decide(never, {"Ana": asker, "Marc": asker}, _rng()).action
    assert not isinstance(action, Redeal)


@pytest.mark.parametrize("players", [("Ana", "Marc"), ("Ana", "Marc", "Lu", "Zoé")])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_decision_is_among_the_legal_actions(preset: str, players: tuple[str, ...]) -> None:
    rng = random.Random(preset)
    for style in STYLES.values():
        styles = dict.fromkeys(players, style)
        state = State.new(players, dealer=players[-1], rules=preset)
        while state.phase is not Phase.GAME_OVER:
            if state.phase is not Phase.PLAY:
                out = state.seen if state.phase is Phase.REDEAL else set()  # redeal: rest
                pool = [c for c in deck(state.rules.order) if c not in out]
                cards = rng.sample(pool, 3 * len(players))
                listed = state.legal_actions()[0]
                assert isinstance(listed, Deal)
                held = {p: cards[3 * i : 3 * i + 3] for i, p in enumerate(players)}
                state.push(Deal.of(listed.dealer, held, listed.hand))
                continue
            action = decide(state, styles, rng).action
            assert action in state.legal_actions(), action
            state.push(action)


# --- strength and styles ------------------------------------------------------------------


def test_strength_is_the_statistic_for_the_player_to_act() -> None:
    state = _play(_state("Kh 9c Jd", "7h Ac 9s"), "Ana Kh")
    assert hand_strength(state, "Marc") == raise_strength(state, "Marc")
    assert hand_strength(_state("7h 7c 7s", "9h 9c Td"), "Marc") == 0.0


def test_style_overrides_and_errors() -> None:
    style = parse_style("cautious:bluff=0.25,careful=no")
    assert (style.name, style.bluff, style.careful) == ("cautious", 0.25, False)
    assert parse_style("calling-station").call < 0
    for bad, words in [
        ("nobody", "unknown style"),
        ("balanced:bluff", "expected field=value"),
        ("balanced:name=x", "expected field=value"),
        ("balanced:bluff=lots", "takes a number"),
        ("balanced:bluff=-1", "between 0 and 1"),
    ]:
        with pytest.raises(TruclogError, match=words):
            parse_style(bad)
