"""A drill judges a decision as the review of the log judges it: the same decision
retried from the same seat gets the log's points lost, best choices and grade, on the
log worked out by hand in test_browse_review.py and on simulated two-player logs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_browse_review import FINAL, REVIEW

from truclog.replay import read_games
from truclog.simulate.run import Simulation, simulate_to
from truclog.solver.grade import Grade
from truclog.tui.browse.mistakes import Mistake
from truclog.tui.browse.screens.drill import DrillPosition

Verdict = tuple[int | None, tuple[str, ...] | None, Grade | None]


def drilled_and_logged(log: Path) -> list[tuple[Verdict, Verdict]]:
    """For every judged decision of the log: its verdict retried in a drill, and the
    log's."""
    pairs: list[tuple[Verdict, Verdict]] = []
    for game in read_games(log):
        for hand in game.hands:
            at = {id(step): i for i, step in enumerate(hand.steps)}
            for j in hand.review():
                mistake = Mistake(
                    j.player, str(log), game.line, game.id, hand.number, j.step.line, j.kind,
                    j.grade or Grade.BEST, j.lost or 0, j.best or (), j.sound, 0,
                )  # fmt: skip
                action = j.step.action
                assert action is not None
                tried = DrillPosition.of(mistake, hand, at[id(j.step)]).judge(action)
                pairs.append(((tried.lost, tried.best, tried.grade), (j.lost, j.best, j.grade)))
    return pairs


def test_the_hand_worked_out_is_drilled_as_reviewed(tmp_path: Path) -> None:
    log = tmp_path / "review.truclog.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in REVIEW + FINAL), "utf-8")
    pairs = drilled_and_logged(log)
    assert any(logged[2] not in (None, Grade.BEST) for _, logged in pairs)
    assert [drilled for drilled, _ in pairs] == [logged for _, logged in pairs]


@pytest.mark.parametrize("rules", ["classic", "gamerules", "eight-low"])
def test_simulated_decisions_are_drilled_as_reviewed(tmp_path: Path, rules: str) -> None:
    log = tmp_path / f"{rules}.truclog.jsonl"
    simulate_to(Simulation(games=3, seed=5, hidden=0.3, rules=rules), log)
    pairs = drilled_and_logged(log)
    assert any(logged[2] is not None for _, logged in pairs)
    assert [drilled for drilled, _ in pairs] == [logged for _, logged in pairs]
