"""Bot players: a style of play, and the decision it makes in a position.

A :class:`Style` says how often a bot raises with a strong, a middling and a
weak hand (the last is its bluff frequency), how readily it accepts a raise,
when it calls reste, asks for or grants a redeal, gives up a hand, and whether
it picks its cards with care (win cheaply, keep the top card) or at random.

:func:`decide` returns the bot's next action in a :class:`~truclog.engine.State`
whose cards are all known (the simulator deals real cards), chosen among the
legal ones with one ``random.Random``, so a seed fixes every decision.

>>> style = parse_style("bluffer:bluff=0.6")
>>> style.name, style.bluff, style.call
('bluffer', 0.6, -0.05)
>>> parse_style("shy")
Traceback (most recent call last):
...
truclog.errors.TruclogError: unknown style 'shy'; known styles: random, balanced, cautious, bluffer, calling-station
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace

from truclog.engine.actions import Accept, Action, Fold, Play, Raise, Redeal
from truclog.engine.cards import Card
from truclog.engine.state import Phase, State, apply
from truclog.engine.trick import decide as decide_hand
from truclog.engine.trick import team_of, trick_winner
from truclog.errors import TruclogError
from truclog.solver.bluff import BLUFF_THRESHOLD
from truclog.solver.strength import played_this_hand, raise_strength, strength_of, trick_results

RAISE_DECAY = 0.8  # the chance to raise shrinks as the hand gets dearer


@dataclass(frozen=True, slots=True)
class Style:
    """How a bot plays. Probabilities are per opportunity (each turn it could raise)."""

    name: str = "balanced"
    strong: float = 0.7  # strength from which a hand counts as strong
    value_raise: float = 0.5  # chance to raise with a strong hand
    middle_raise: float = 0.12  # chance to raise with strength in [0.5, strong)
    bluff: float = 0.06  # chance to raise with strength below 0.5
    jump: float = 0.15  # with raises of any amount: chance to raise by 2 rather than 1
    call: float = 0.0  # shift of the accept threshold (negative: accepts more)
    loose: float = 0.05  # chance to accept anyway below the threshold
    reste: float = 0.4  # chance to call reste with a very strong hand when it is allowed
    redeal_ask: float = 0.4  # chance to ask for a redeal with a weak hand
    redeal_grant: float = 0.5  # chance to grant a redeal (a third of it with a good hand)
    give_up: float = 0.3  # fold anytime: chance to give up a hopeless hand
    careful: bool = True  # win tricks cheaply and keep the top card; else any card
    uniform: bool = False  # every choice uniformly at random among the legal actions

    def with_overrides(self, text: str) -> Style:
        """This style with ``field=value`` overrides, comma separated.

        >>> STYLES["cautious"].with_overrides("bluff=0.2,careful=no").careful
        False
        """
        changes: dict[str, float | bool] = {}
        known = {f.name: f for f in fields(self) if f.name != "name"}
        for item in filter(None, (part.strip() for part in text.split(","))):
            key, sep, raw = item.partition("=")
            key = key.strip().replace("-", "_")
            if not sep or key not in known:
                raise TruclogError(
                    f"bad style override {item!r}: expected field=value with a field of "
                    + ", ".join(known)
                )
            changes[key] = _override_value(key, raw.strip(), known[key].type == "bool")
        return replace(self, **changes)  # type: ignore[arg-type]


def _override_value(key: str, raw: str, boolean: bool) -> float | bool:
    if boolean:
        if raw.lower() not in ("yes", "no", "true", "false", "1", "0"):
            raise TruclogError(f"style field {key} takes yes or no, not {raw!r}")
        return raw.lower() in ("yes", "true", "1")
    try:
        value = float(raw)
    except ValueError:
        raise TruclogError(f"style field {key} takes a number, not {raw!r}") from None
    if key != "call" and not 0.0 <= value <= 1.0:
        raise TruclogError(f"style field {key} must be between 0 and 1, not {raw}")
    return value


STYLES: dict[str, Style] = {
    "random": Style(name="random", careful=False, uniform=True),
    "balanced": Style(),
    "cautious": Style(
        name="cautious",
        strong=0.8,
        value_raise=0.4,
        middle_raise=0.03,
        bluff=0.01,
        jump=0.0,
        call=0.12,
        loose=0.0,
        reste=0.2,
        redeal_ask=0.6,
        redeal_grant=0.3,
        give_up=0.6,
    ),
    "bluffer": Style(
        name="bluffer",
        strong=0.65,
        value_raise=0.7,
        middle_raise=0.35,
        bluff=0.3,
        jump=0.35,
        call=-0.05,
        loose=0.1,
        reste=0.6,
        redeal_ask=0.2,
        redeal_grant=0.6,
        give_up=0.0,
    ),
    "calling-station": Style(
        name="calling-station",
        value_raise=0.3,
        middle_raise=0.05,
        bluff=0.02,
        jump=0.0,
        call=-0.3,
        loose=0.6,
        reste=0.2,
        redeal_ask=0.2,
        redeal_grant=0.8,
        give_up=0.0,
    ),
}


def parse_style(text: str) -> Style:
    """A named style, optionally with overrides: ``"bluffer"``, ``"cautious:bluff=0.1"``."""
    name, _, overrides = text.partition(":")
    try:
        style = STYLES[name.strip()]
    except KeyError:
        raise TruclogError(
            f"unknown style {name.strip()!r}; known styles: {', '.join(STYLES)}"
        ) from None
    return style.with_overrides(overrides) if overrides else style


# --- strength ----------------------------------------------------------------


_MEMO: dict[tuple[object, ...], float] = {}
_MEMO_LIMIT = 1 << 18


def hand_strength(state: State, player: str) -> float:
    """The player's chance of winning the hand in progress, as the bot sees it.

    With two players and the player to act, this is exactly the strength that
    statistics give a raise (:func:`truclog.solver.strength.raise_strength`). For the
    other side of a pending raise (or a dealer asked for a redeal) it is the same
    double-dummy count from that player's cards, as if they were to lead. With
    four players it is :func:`rough_strength`.

    Both depend on ranks only, so answers are remembered by the ranks in play.
    """
    if len(state.players) != 2:
        return rough_strength(state, player)
    seat = state.seat[player]
    holding = state.holdings[seat]
    mine, theirs = played_this_hand(state, player)
    first, table = state.trick[0] if state.trick else (None, None)
    to_act = state.turn == seat and state.pending is None
    key = (
        state.rules,
        to_act,
        state.dealer == seat,
        "".join(sorted(card.rank for card in holding.known)),
        holding.unseen,
        "".join(sorted(mine)),
        "".join(sorted(theirs)),
        trick_results(state, seat),
        first == seat,
        table.rank if table else None,
    )
    known = _MEMO.get(key)
    if known is not None:
        return known
    exact = raise_strength(state, player) if to_act else None
    value = exact if exact is not None else _answer_strength(state, player, mine, theirs)
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[key] = value
    return value


def _answer_strength(state: State, player: str, mine: str, theirs: str) -> float:
    seat = state.seat[player]
    held = "".join(card.rank for card in state.holdings[seat].known)
    hand, table = held + mine, None
    if state.trick:
        first, card = state.trick[0]
        if first == seat:
            held += card.rank
        else:
            table = card.rank
    results = trick_results(state, seat)
    try:
        return strength_of(state.rules, hand, held, theirs, results, table, state.dealer == seat)
    except ValueError:
        return rough_strength(state, player)


def rough_strength(state: State, player: str) -> float:
    """A cheap estimate of the chance that the player's side wins the hand.

    How likely each held card is to beat what the opponents may hold, plus the
    tricks the side has already won or lost, and the trick on the table.
    """
    strength = state.rules.strength
    top = len(state.rules.order)
    seat = state.seat[player]
    team = team_of(seat)
    held = state.holdings[seat].known
    opponents = len(state.players) // 2
    chances = sorted(((strength[c.rank] - 1) / (top - 1)) ** opponents for c in held)
    best = chances[-1] if chances else 0.0
    second = chances[-2] if len(chances) > 1 else best
    won = sum(1 for r in state.results if r == team)
    lost = sum(1 for r in state.results if r is not None and r != team)
    estimate = best if won else 0.5 * best + 0.5 * second
    estimate += 0.15 * (won - lost)
    if state.trick:
        result, _ = trick_winner(state.trick, strength)
        estimate += 0.1 if result == team else -0.1
    return min(1.0, max(0.0, estimate))


# --- choosing ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decision:
    """What a bot does, and the strength it saw when it raised or answered."""

    action: Action
    strength: float | None = None


def decide(state: State, styles: Mapping[str, Style], rng: random.Random) -> Decision:
    """The next action of the hand in progress, by the bot whose turn it is."""
    if state.pending is not None:
        return _answer(state, styles, rng)
    player = state.players[state.turn]
    style = styles[player]
    if style.uniform:
        return Decision(_uniform(state, rng))
    redeal = _redeal(state, player, styles, rng)
    if redeal is not None:
        return redeal
    staking = _stake(state, player, style, rng)
    if staking is not None:
        return staking
    return Decision(Play(player, choose_card(state, player, rng, style.careful)))


def _uniform(state: State, rng: random.Random) -> Action:
    by_kind: dict[str, list[Action]] = {}
    for action in state.legal_actions():
        by_kind.setdefault(type(action).__name__, []).append(action)
    kind = rng.choice(sorted(by_kind))
    return rng.choice(by_kind[kind])


def _answer(state: State, styles: Mapping[str, Style], rng: random.Random) -> Decision:
    pending = state.pending
    assert pending is not None
    answerer = _answerer(state)
    style = styles[answerer]
    if style.uniform:
        return Decision(rng.choice((Accept(answerer), Fold(answerer))))
    strength = hand_strength(state, answerer)
    threshold = accept_threshold(state, answerer)
    accept = threshold == 0.0 or strength >= threshold + style.call or rng.random() < style.loose
    return Decision(Accept(answerer) if accept else Fold(answerer), strength)


def _answerer(state: State) -> str:
    """Who answers a raise: the opponent, or with four players the better-placed one."""
    answerers = state.answerers
    if len(answerers) == 1:
        return answerers[0]
    first, second = answerers
    return second if hand_strength(state, second) > hand_strength(state, first) else first


def accept_threshold(state: State, answerer: str) -> float:
    """The strength from which accepting the pending raise pays, given the score.

    Folding costs the value before the raise; accepting risks the new value. A
    fold that hands the opponent the game is never better than accepting: the
    threshold is then 0, and every style accepts.
    """
    pending = state.pending
    assert pending is not None
    if apply(state, Fold(answerer)).phase is Phase.GAME_OVER:
        return 0.0
    if pending.reste:
        return 0.45
    threshold = (pending.to - pending.previous) / (2 * pending.to)
    if state.remainder(state.players[pending.raiser]) <= pending.to:
        threshold += 0.1
    return threshold


def _redeal(
    state: State, player: str, styles: Mapping[str, Style], rng: random.Random
) -> Decision | None:
    if not state.may_redeal(player):
        return None
    if rng.random() >= styles[player].redeal_ask or hand_strength(state, player) >= 0.3:
        return None
    dealer = state.dealer_name
    grant = styles[dealer].redeal_grant
    if hand_strength(state, dealer) >= 0.5:
        grant /= 3
    return Decision(Redeal(player, rng.random() < grant))


def _stake(state: State, player: str, style: Style, rng: random.Random) -> Decision | None:
    """A raise, a reste or (fold anytime) giving up, if the bot wants one now.

    The chance to raise depends on the hand's strength band only, so the draw is
    made first and the strength worked out only when the draw could mean a raise.
    """
    rules = state.rules
    if not state.stake_open(player) and not rules.fold_anytime:
        return None
    draw = rng.random()
    decay = RAISE_DECAY ** (state.value - 1)
    top = max(style.value_raise, style.middle_raise, style.bluff) * decay
    if not rules.fold_anytime and draw >= top:
        return None
    strength = hand_strength(state, player)
    if rules.fold_anytime and strength < 0.05 and rng.random() < style.give_up:
        return Decision(Fold(player), strength)
    if not state.may_raise(player):
        return None
    if strength >= style.strong:
        chance = style.value_raise
    elif strength >= BLUFF_THRESHOLD:
        chance = style.middle_raise
    else:
        chance = style.bluff
    if draw >= chance * decay:
        return None
    raises = _raise_options(state, player)
    plain = [r for r in raises if not r.reste]
    reste = bool(raises) and raises[-1].reste and (strength >= 0.85 or not plain)
    if reste and rng.random() < style.reste:
        return Decision(raises[-1], strength)
    if not plain:
        return None
    jump = len(plain) > 1 and rng.random() < style.jump
    return Decision(plain[1] if jump else plain[0], strength)


def _raise_options(state: State, player: str) -> list[Raise]:
    """The legal raises worth considering: the next step up (and one more), and reste.

    A plain raise to the raiser's remainder or beyond is left to reste.
    """
    rules, span = state.rules, state.raise_range(player)
    steps = [] if span is None else [to for to in (span.low, span.low + 1) if to in span]
    remainder = state.remainder(player)
    options = [Raise(player, to=to) for to in steps if to < remainder or not rules.reste]
    if rules.reste and state.is_legal(Raise(player, reste=True)):
        options.append(Raise(player, reste=True))
    return options


# --- playing a card --------------------------------------------------------------


def choose_card(state: State, player: str, rng: random.Random, careful: bool = True) -> Card:
    """The card to play: at random, or with care.

    With care, a follower plays the cheapest card that wins the trick for its side
    (partner's winning card is left alone), else the cheapest tying card, else its
    lowest; a leader keeps the top rank of the deck for later on the first trick
    and otherwise leads its best card.
    """
    held = state.holdings[state.seat[player]].known
    if not careful:
        return rng.choice(held)
    strength = state.rules.strength
    ranked = sorted(held, key=lambda c: strength[c.rank])
    if state.trick:
        return _follow(state, player, ranked)
    if not state.results and len(ranked) > 1 and ranked[-1].rank == state.rules.order[0]:
        below = [c for c in ranked if c.rank != state.rules.order[0]]
        return below[-1] if below else ranked[-1]
    return ranked[-1]


def _follow(state: State, player: str, ranked: Sequence[Card]) -> Card:
    seat = state.seat[player]
    team = team_of(seat)
    strength = state.rules.strength
    last = len(state.trick) == len(state.players) - 1
    ties: list[Card] = []
    for card in ranked:
        result, _ = trick_winner([*state.trick, (seat, card)], strength)
        if result == team:
            return card
        if result is None:
            if last and decide_hand([*state.results, None]) == (True, team):
                return card
            ties.append(card)
    return ties[0] if ties else ranked[0]
