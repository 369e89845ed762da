"""One seed, many presets: each preset gets games of its own, not another preset's
games with the ranks named otherwise; the same seed and rules still give the same games."""

from __future__ import annotations

from itertools import combinations

import orjson

from truclog.engine.rules import PRESETS
from truclog.format.writer import dumps
from truclog.simulate.run import Simulation, simulate


def course(rules: str | dict[str, object], seed: int = 1) -> list[tuple[str, str | None]]:
    """Who did what, card values left out: the same under a relabelling of ranks."""
    lines = [orjson.loads(dumps(e)) for e in simulate(Simulation(games=3, seed=seed, rules=rules))]
    return [(line["type"], line.get("player")) for line in lines if line["type"] != "game"]


def test_every_preset_plays_its_own_games_from_one_seed() -> None:
    courses = {name: course(name) for name in PRESETS}
    for a, b in combinations(PRESETS, 2):
        assert courses[a] != courses[b], (a, b)


def test_an_override_is_rules_of_their_own_too() -> None:
    assert course({"preset": "classic", "target": 15}) != course("classic")


def test_the_same_seed_and_rules_play_the_same_games() -> None:
    assert course("sackson", seed=4) == course("sackson", seed=4)
    assert course("sackson", seed=4) != course("sackson", seed=5)
