"""A state goes to another process (pickle, as ``-j`` workers and Dask send games) and
comes back the same, in the pure and the compiled build alike: same position, same
legal actions, and the same answer to the next action."""

from __future__ import annotations

import ast
import pickle
import random
from pathlib import Path

import pytest

from truclog.engine.state import _ATTRIBUTES, Phase, State

STATE_PY = Path(__file__).resolve().parent.parent / "truclog" / "engine" / "state.py"


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("players", [["Ana", "Marc"], ["Ana", "Bea", "Marc", "Luc"]])
def test_a_state_pickled_mid_game_plays_on_the_same(seed: int, players: list[str]) -> None:
    rng = random.Random(seed)
    state = State.new(players, dealer=players[-1], rules="classic")
    for _ in range(rng.randrange(1, 40)):
        if state.phase is Phase.GAME_OVER:
            break
        state.push(rng.choice(state.legal_actions()))
    again = pickle.loads(pickle.dumps(state))
    assert repr(again) == repr(state)
    assert again.score == state.score and again.phase is state.phase
    assert again.legal_actions() == state.legal_actions()
    if state.phase is not Phase.GAME_OVER:
        action = rng.choice(state.legal_actions())
        state.push(action)
        again.push(action)
        assert repr(again) == repr(state) and again.score == state.score


def test_every_attribute_a_copy_takes_is_pickled() -> None:
    tree = ast.parse(STATE_PY.read_text("utf-8"))
    adopt = next(
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name == "_adopt"
    )
    taken = {
        target.attr
        for node in ast.walk(adopt)
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Attribute)
    }
    assert taken == set(_ATTRIBUTES)
