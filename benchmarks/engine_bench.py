"""Engine benchmark: replay many random hands and print hands per second.

    python benchmarks/engine_bench.py [--games 400] [--seed 1]

Games are first played at random from ``legal_actions`` under every preset, for
two and four players, with cards dealt from a shuffled deck; the figures are
then how fast those games are replayed with ``push`` alone (what the validator
does), and with ``legal_actions`` asked before every action (what a bot does).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from truclog.engine.actions import Deal
from truclog.engine.cards import Card, deck
from truclog.engine.rules import PRESETS
from truclog.engine.state import Phase, State

PLAYERS = (["Ana", "Marc"], ["Ana", "Bea", "Cid", "Dan"])


def shuffled_deal(state: State, rng: random.Random, out: set[Card]) -> Deal:
    """The next deal, with every card seen, from the cards not yet ``out``."""
    listed = state.legal_actions()[0]
    assert isinstance(listed, Deal)
    cards = [c for c in deck(state.rules.order) if c not in out]
    rng.shuffle(cards)
    hands = {p: cards[3 * i : 3 * i + 3] for i, p in enumerate(state.players)}
    out.update(c for held in hands.values() for c in held)
    return Deal.of(listed.dealer, hands, hand=listed.hand)


def random_game(players: Sequence[str], preset: str, rng: random.Random) -> State:
    """A whole game played at random from ``legal_actions``."""
    state = State.new(players, dealer=rng.choice(players), rules=preset)
    out: set[Card] = set()
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.PLAY:
            state.push(rng.choice(state.legal_actions()))
            continue
        if state.phase is not Phase.REDEAL or state.rules.redeal != "rest":
            out = set()
        state.push(shuffled_deal(state, rng, out))
    return state


def replay(games: Sequence[State], listing: bool) -> None:
    """Replay every game with ``push``; with ``listing``, ask ``legal_actions`` before each."""
    for game in games:
        state = State.new(game.players, game.players[game.first_dealer], game.rules)
        for action in game.history:
            if listing:
                state.legal_actions()
            state.push(action)


def best_time(games: Sequence[State], listing: bool, repeats: int) -> float:
    """The fastest of ``repeats`` runs, in CPU seconds (the least disturbed by other work)."""
    times = []
    for _ in range(repeats):
        started = time.process_time()
        replay(games, listing)
        times.append(time.process_time() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per player count")
    parser.add_argument("--repeats", type=int, default=5, help="runs; the fastest counts")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    games = [
        random_game(players, list(PRESETS)[i % len(PRESETS)], rng)
        for players in PLAYERS
        for i in range(args.games)
    ]
    hands = sum(len(g.outcomes) for g in games)
    actions = sum(len(g.history) for g in games)
    print(f"{len(games)} games, {hands} hands, {actions} actions (best of {args.repeats})")
    for label, listing in [("push", False), ("legal_actions + push", True)]:
        seconds = best_time(games, listing, args.repeats)
        print(f"{label:>22}: {hands / seconds:9.0f} hands/s {actions / seconds:10.0f} actions/s")


if __name__ == "__main__":
    main()
