"""Games, hands, steps, states and actions go to other processes and are deep-copied,
as a user's ``multiprocessing`` pool or Dask bag sends them, and come back the same.

The suite runs against the installed build, compiled with mypyc in CI: compiled, an
object is made only through its ``__init__``, and a frozen record refuses the
attribute-by-attribute restore that pickle falls back on. These tests hold every kind
of object the API hands out to a round trip through pickle and through
``copy.deepcopy``, on every sample log (every preset, two and four players) and on a
long game read again from its log.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import pytest

import truclog
from truclog import Game, State
from truclog.engine.holding import Holding
from truclog.engine.state import _STATE_ATTRIBUTES
from truclog.simulate.run import Simulation, simulate_to
from truclog.validate.checker import Step

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def round_trips(thing: Any) -> Iterator[Any]:
    """The object back from pickle (every protocol from 2) and from ``copy.deepcopy``."""
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        yield pickle.loads(pickle.dumps(thing, protocol))
    yield copy.deepcopy(thing)


def same_state(one: State, other: State) -> None:
    """Two states that say the same of the game and allow the same actions."""
    assert repr(other) == repr(one)
    assert other.score == one.score
    assert other.phase is one.phase
    assert list(other.history) == list(one.history)
    assert list(other.outcomes) == list(one.outcomes)
    assert truclog.legal_actions(other) == truclog.legal_actions(one)
    for player in one.players:
        assert other.view(player) == one.view(player)


def told(step: Step) -> tuple[object, ...]:
    """What a step says: its line, action, error, time, whether it was checked, its event."""
    source = step.source
    event = None if source.problem is not None else step.event
    return (step.line, step.action, step.error, step.t, step.checked, source.raw, event)


def sample_games() -> list[Game]:
    return list(truclog.read_games(SAMPLES))


def test_the_samples_cover_both_table_sizes() -> None:
    assert {len(game.players) for game in sample_games()} == {2, 4}


@pytest.mark.parametrize("game", sample_games(), ids=lambda game: game.id)
def test_every_object_of_a_game_comes_back_the_same(game: Game) -> None:
    for back in round_trips(game):
        assert (back.id, back.path, back.line, back.players) == (
            game.id,
            game.path,
            game.line,
            game.players,
        )
        assert (back.score, back.winner, back.diagnostics) == (
            game.score,
            game.winner,
            game.diagnostics,
        )
        assert [hand.actions for hand in back.hands] == [hand.actions for hand in game.hands]
        same_state(game.final, back.final)
    for hand in game.hands:
        for back_hand in round_trips(hand):
            assert (back_hand.number, back_hand.outcome, back_hand.errors) == (
                hand.number,
                hand.outcome,
                hand.errors,
            )
        for step, state in hand.replay():
            for back_step in round_trips(step):
                assert told(back_step) == told(step)
            for action in truclog.legal_actions(state):
                assert all(back == action for back in round_trips(action))
            for back_state in round_trips(state):
                same_state(state, back_state)
        if len(game.players) == 2:
            for judgement in hand.review():
                for back_judgement in round_trips(judgement):
                    assert replace(back_judgement, step=step, state=state) == replace(
                        judgement, step=step, state=state
                    )
                    assert told(back_judgement.step) == told(judgement.step)
                    same_state(judgement.state, back_judgement.state)


def test_a_copied_state_goes_on_alone() -> None:
    """A state back from pickle or deepcopy plays on without touching the original."""
    game = next(g for g in sample_games() if len(g.hands) > 3)
    hand = game.hands[2]
    replay = hand.replay()
    state = next(replay)[1].copy()  # the replay's state changes at each next step
    following = next(replay)[0].action
    assert following is not None
    before = list(state.history)
    for back in round_trips(state):
        back.push(following)
        assert list(back.history) == [*before, following]
        assert list(state.history) == before


def test_a_holding_comes_back_with_its_revealed_cards() -> None:
    holding = Holding([truclog.parse_card("7h"), None, truclog.parse_card("Kd")])
    holding.reveal(truclog.parse_card("As"), True, [1])
    for back in round_trips(holding):
        assert back.dealt == holding.dealt
        assert (back.revealed, back.played, back.slot_of) == (
            holding.revealed,
            holding.played,
            holding.slot_of,
        )


def test_pickling_keeps_every_attribute_of_a_state() -> None:
    """The attributes a state is pickled with are all it has, compiled or not."""
    state = next(iter(sample_games())).final
    declared = getattr(State, "__mypyc_attrs__", None)
    held = set(declared) - {"__dict__"} if declared is not None else set(vars(state))
    assert set(_STATE_ATTRIBUTES) == held


def hands_and_score(game: Game) -> tuple[str, int, dict[str, int]]:
    return game.id, len(game.hands), game.score


def test_games_go_to_a_process_pool() -> None:
    """What a user's pool does: each game sent to a worker process, worked on there."""
    games = sample_games()
    with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
        got = list(pool.map(hands_and_score, games))
    assert got == [hands_and_score(game) for game in games]


def test_a_long_game_read_again_from_its_log_pickles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long game checked line by line is read again from its log as its hands are
    asked for (here: a game of more than 5 hands); pickled mid-reading, it still reads
    its hands from there."""
    monkeypatch.setattr(truclog.validate.games, "HANDS_HELD", 5)
    game = next(iter(truclog.read_games(long_log(tmp_path))))
    assert game.hands[3].number == 4
    assert len(game.hands) > 10
    for back in round_trips(game):
        assert [hand.number for hand in back.hands] == [hand.number for hand in game.hands]
        assert back.hands[-1].actions == game.hands[-1].actions
        assert back.diagnostics == game.diagnostics


def long_log(folder: Path) -> Path:
    """One simulated game of some 60 hands with a line that is not truclog in its middle
    (so it is checked line by line)."""
    log = folder / "long.truclog.jsonl"
    rules = {"preset": "classic", "reste": False, "max_value": 4, "target": 40}
    simulate_to(Simulation(seed=3, rules=rules), log)
    lines = log.read_bytes().splitlines(keepends=True)
    lines.insert(len(lines) // 2, b'{"type":"note","text":"not a truclog line"}\n')
    log.write_bytes(b"".join(lines))
    return log
