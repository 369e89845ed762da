"""Random games under every preset, for two and four players, played from
``legal_actions``: with concrete deals from a shuffled deck, partly seen deals,
and unseen deals.

Properties: no listed action is refused; scores never go down; the game is over
exactly when a side has reached the target; ``apply`` leaves its state as it was;
``pop`` undoes exactly; an action is legal exactly when it is listed, wherever
the listing is complete (``legal_actions`` lists unseen plays as rank-only cards,
deals without cards (the first of a game resumed from a written score may carry any
number), and raises of ``raises: any`` up to the target or ``max_value``; ``show`` is
never listed); the engine's rules questions (``raise_range``, ``may_raise``,
``may_redeal``, ``answerers``, ``fold_ends_game``) agree with what it accepts.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import rules_objects

from truclog.engine.actions import Accept, Action, Deal, Fold, Play, Raise, Redeal, Show
from truclog.engine.cards import RANKS, SUITS, Card, deck
from truclog.engine.rules import PRESETS, Rules, get_rules
from truclog.engine.state import Phase, State, apply

TWO = ["Ana", "Marc"]
FOUR = ["Ana", "Bea", "Cid", "Dan"]
MAX_STEPS = 250


def snapshot(state: State) -> tuple[Any, ...]:
    """Everything a reader of the state can see, and what it allows next."""
    return (
        state.phase,
        state.score,
        state.value,
        state.pending,
        state.reste_accepted,
        state.last_raiser_team,
        state.hand_no,
        state.dealer,
        state.to_act,
        state.leader,
        list(state.trick),
        list(state.results),
        [(list(h.known), h.unseen) for h in state.holdings],
        list(state.outcomes),
        list(state.history),
        state.legal_actions(),
    )


def assert_same_state(copy: State, state: State) -> None:
    """Every attribute of the copy equals the state's (what ``copy`` and ``pop`` must keep)."""
    if not hasattr(state, "__dict__"):
        return  # compiled: the class fixes its attributes, and snapshot() compares them
    assert vars(copy).keys() == vars(state).keys()
    for name, value in vars(state).items():
        if name == "holdings":
            value = [(h.dealt, h.revealed, h.played, h.slot_of) for h in value]
            other = [(h.dealt, h.revealed, h.played, h.slot_of) for h in copy.holdings]
        else:
            other = getattr(copy, name)
        assert other == value, name


def dealt(state: State, rng: random.Random, mode: str, out: set[Card]) -> Deal:
    """The next deal: the listed (unseen) one, or cards from a shuffled deck.

    The cards dealt, seen or not, are added to ``out``.
    """
    listed = state.legal_actions()
    assert len(listed) == 1 and isinstance(listed[0], Deal)
    if mode == "unseen":
        return listed[0]
    cards = [c for c in deck(state.rules.order) if c not in out]
    rng.shuffle(cards)
    out.update(cards[: 3 * len(state.players)])
    hands: dict[str, list[Card | None]] = {}
    for i, player in enumerate(state.players):
        hand: list[Card | None] = list(cards[3 * i : 3 * i + 3])
        if mode == "partly":
            hand = [c if rng.random() < 0.5 else None for c in hand]
            if rng.random() < 0.3:
                hand = [Card(c.rank) if c is not None else None for c in hand]
        hands[player] = hand
    return Deal.of(listed[0].dealer, hands, hand=listed[0].hand)


def shown(state: State, rng: random.Random) -> Show:
    """A player shows some of the known cards they still hold."""
    player = rng.choice(state.players)
    known = state.known_cards(player)[0]
    return Show(player, tuple(rng.sample(known, rng.randrange(len(known) + 1))))


def arbitrary(state: State, rng: random.Random) -> Action:
    """Any action at all, legal or not; often by the player to act, with a card they hold."""
    player = rng.choice([*state.players, "Zoe"])
    if state.to_act is not None and rng.random() < 0.6:
        player = state.to_act
    kind = rng.randrange(7)
    if kind == 0:
        return Accept(player)
    if kind == 1:
        return Fold(player)
    if kind == 2:
        return Redeal(player, rng.random() < 0.5)
    if kind == 3:
        return (
            Raise(player, reste=True)
            if rng.random() < 0.2
            else Raise(player, to=rng.randrange(-1, 30))
        )
    if kind == 4:
        return Deal(player, hand=rng.randrange(0, state.hand_no + 3))
    suit = rng.choice([None, *SUITS])
    if kind == 5:
        known = state.known_cards(player)[0] if player in state.seat else []
        if known and rng.random() < 0.5:
            return Play(player, rng.choice(known))
        return Play(player, Card(rng.choice(RANKS), suit))
    return Show(player, (Card(rng.choice(RANKS), suit),))


def comparable(state: State, action: Action) -> bool:
    """Whether ``legal_actions`` claims to list ``action`` when it is legal."""
    if isinstance(action, Show):
        return False
    if isinstance(action, Deal):
        resumed = not state.hand_no and any(state.start_score)  # may start from any number
        return not action.cards and action.hand is not None and not resumed
    if isinstance(action, Raise) and not action.reste and state.rules.raises == "any":
        assert action.to is not None
        return action.to <= max(state.value + 1, state.rules.target, state.rules.max_value or 0)
    if isinstance(action, Play) and action.player in state.seat:
        if state.phase is not Phase.PLAY or state.to_act != action.player:
            return True
        known, unseen = state.known_cards(action.player)
        if action.card in known:
            return True
        return (
            action.card.suit is None
            and unseen > 0
            and all(c.rank != action.card.rank for c in known)
        )
    return not isinstance(action, Play)


def assert_rules_questions(state: State, player: str) -> None:
    """The engine's answers to the rules questions agree with what it accepts: every raise
    value in ``raise_range`` is legal and none outside it (past the target too), ``may_raise``
    and ``may_redeal`` say whether such an action is legal, ``stake_open`` holds whenever a
    raise is legal, the answerers are those who may accept, and a fold that ends the game
    does."""
    span = state.raise_range(player)
    top = 3 * max(state.rules.target, state.rules.max_value or 0, span.low if span else 0)
    legal_to = [to for to in range(-1, top + 2) if state.is_legal(Raise(player, to=to))]
    if span is None:
        assert legal_to == []
    else:
        assert span.player == player
        high = top + 1 if span.high is None else span.high
        assert legal_to == list(range(span.low, high + 1))
        assert [r.to for r in span.listed_raises()] == legal_to[: span.listed - span.low + 1]
    reste = state.is_legal(Raise(player, reste=True))
    assert state.may_raise(player) == (bool(legal_to) or reste)
    assert not state.may_raise(player) or state.stake_open(player)
    asked = state.is_legal(Redeal(player, True))
    assert state.may_redeal(player) == asked == state.is_legal(Redeal(player, False))
    assert set(state.answerers) == {p for p in state.players if state.is_legal(Accept(p))}
    if state.fold_ends_game():
        folded = apply(state, Fold(state.answerers[0]))
        assert folded.phase is Phase.GAME_OVER


def play_a_game(players: list[str], rules: Rules, mode: str, seed: int, start: int) -> State:
    rng = random.Random(seed)
    start = min(start, rules.target - 1)
    state = State.new(players, dealer=rng.choice(players), rules=rules, score={players[1]: start})
    out: set[Card] = set()
    for _ in range(MAX_STEPS):
        if state.phase is Phase.GAME_OVER:
            break
        assert (max(state.score.values()) >= rules.target) is False
        listed = state.legal_actions()
        assert listed, state.phase
        assert_rules_questions(state, state.players[state.turn])
        assert_rules_questions(state, rng.choice(state.players))
        for other in (arbitrary(state, rng) for _ in range(6)):
            if comparable(state, other):
                assert state.is_legal(other) == (other in listed), other
        if state.phase in (Phase.DEAL, Phase.HAND_OVER) or rules.redeal != "rest":
            out = set()
        if state.phase is Phase.HAND_OVER and rng.random() < 0.4:
            action: Action = shown(state, rng)
        elif state.phase is not Phase.PLAY:
            action = dealt(state, rng, mode, out)
        else:
            action = rng.choice(listed)
        before, score = snapshot(state), state.score
        for each in listed:
            assert state.is_legal(each), each
            apply(state, each)
            assert snapshot(state) == before
        state.push(action)
        assert_same_state(state.copy(), state)
        after = snapshot(state)
        assert state.pop() == action
        assert_same_state(state, state.replay(state.history))
        assert snapshot(state) == before
        state.push(action)
        assert snapshot(state) == after
        for team, points in state.score.items():
            assert points >= score[team]
        assert (state.phase is Phase.GAME_OVER) == (max(state.score.values()) >= rules.target)
    if state.phase is Phase.GAME_OVER:
        assert state.winner is not None
        assert state.score[state.winner] >= rules.target
        assert state.legal_actions() == []
    return state


SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("players", [TWO, FOUR], ids=["two players", "four players"])
@SETTINGS
@given(
    preset=st.sampled_from(list(PRESETS)),
    mode=st.sampled_from(["concrete", "partly", "unseen"]),
    seed=st.integers(0, 2**32),
    start=st.integers(0, 11),
)
def test_random_games_keep_the_properties(
    players: list[str], preset: str, mode: str, seed: int, start: int
) -> None:
    play_a_game(players, PRESETS[preset], mode, seed, start)


OVERRIDES = rules_objects()


@SETTINGS
@given(
    overrides=OVERRIDES,
    four=st.booleans(),
    mode=st.sampled_from(["concrete", "partly", "unseen"]),
    seed=st.integers(0, 2**32),
    start=st.integers(0, 20),
)
def test_random_games_under_overridden_rules_keep_the_properties(
    overrides: dict[str, Any], four: bool, mode: str, seed: int, start: int
) -> None:
    play_a_game(FOUR if four else TWO, get_rules(overrides), mode, seed, start)
