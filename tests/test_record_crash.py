"""Killing a recorder with SIGKILL loses nothing it reported as recorded, and resume continues.

A small script drives the recording API in a subprocess and prints the number
of each action once the call returned (that is when a screen would show it as
recorded). The test kills it, then checks the log against the same game
recorded without a crash, resumes it and finishes the game.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from truclog.engine.actions import Raise
from truclog.engine.state import Phase, State
from truclog.record.recorder import Recorder
from truclog.validate import CheckedGame, check_log

PLAYERS = ["Ana", "Marc"]
RULES = {"preset": "classic", "target": 40}  # a long game, to be killed anywhere in it

DRIVER = """
import sys, time
sys.path.insert(0, {tests!r})
from test_record_crash import RULES, game_actions
from truclog.record.recorder import Recorder

seed, pause_at = int(sys.argv[2]), int(sys.argv[3])
with Recorder.start(sys.argv[1], ["Ana", "Marc"], "Marc", RULES, clock=None) as recorder:
    for number, action in enumerate(game_actions(seed)):
        recorder.record(action)
        print(number, flush=True)
        if number == pause_at:
            time.sleep(60)
"""


def game_actions(seed: int) -> list:
    """A whole legal game of random choices (cards named at the deal and played)."""
    rng = random.Random(seed)
    state = State.new(PLAYERS, dealer="Marc", rules=RULES)
    actions = []
    while state.phase is not Phase.GAME_OVER:
        legal = [a for a in state.legal_actions() if not (isinstance(a, Raise) and a.reste)]
        calm = [a for a in legal if not isinstance(a, Raise)]
        action = rng.choice(calm if calm and rng.random() < 0.9 else legal)
        actions.append(action)
        state.push(action)
    return actions


def mid_hand(actions: list) -> int:
    """The index of an action after which a hand (not the first) is still being played."""
    state = State.new(PLAYERS, dealer="Marc", rules=RULES)
    for number, action in enumerate(actions):
        state.push(action)
        if state.hand_no > 1 and state.phase is Phase.PLAY and len(state.results) == 1:
            return number
    raise AssertionError("no hand reached its second trick")


def recorded_without_crash(path: Path, seed: int) -> bytes:
    with Recorder.start(path, PLAYERS, "Marc", RULES, clock=None) as recorder:
        for action in game_actions(seed):
            recorder.record(action)
    return path.read_bytes()


@pytest.fixture(scope="module")
def expected_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[int, bytes]:
    """The logs of the test games recorded without a crash."""
    where = tmp_path_factory.mktemp("expected")
    logs = {seed: where / str(seed) / "crash.jsonl" for seed in (0, 8)}  # the same game id
    for log in logs.values():
        log.parent.mkdir()
    return {seed: recorded_without_crash(log, seed) for seed, log in logs.items()}


def run_driver(log: Path, seed: int, pause_at: int) -> subprocess.Popen[str]:
    script = log.with_name("driver.py")
    script.write_text(DRIVER.format(tests=str(Path(__file__).parent)))
    return subprocess.Popen(
        [sys.executable, str(script), str(log), str(seed), str(pause_at)],
        stdout=subprocess.PIPE,
        text=True,
    )


def resume_and_finish(log: Path, seed: int) -> None:
    actions = game_actions(seed)
    with Recorder.resume(log, clock=None) as recorder:
        assert recorder.state is not None
        done = len(recorder.state.history)
        assert recorder.state.history == actions[:done]
        for action in actions[done:]:
            recorder.record(action)


def assert_valid(log: Path) -> None:
    for item in check_log(str(log)):
        assert isinstance(item, CheckedGame)
        assert [d.message for d in item.diagnostics] == []


def test_sigkill_mid_hand_loses_nothing_reported_and_resume_finishes(
    tmp_path: Path, expected_logs: dict[int, bytes]
) -> None:
    seed = 8
    actions = game_actions(seed)
    expected = expected_logs[seed]
    pause_at = mid_hand(actions)
    log = tmp_path / "crash.jsonl"
    child = run_driver(log, seed, pause_at)
    assert child.stdout is not None
    reported = -1
    while reported < pause_at:
        reported = int(child.stdout.readline())
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL
    on_disk = log.read_bytes()
    assert expected.startswith(on_disk)
    with Recorder.resume(log, clock=None) as recorder:
        assert recorder.state is not None
        assert recorder.state.history == actions[: pause_at + 1]
        assert recorder.state.phase is Phase.PLAY
    resume_and_finish(log, seed)
    assert log.read_bytes() == expected
    assert_valid(log)


@pytest.mark.parametrize("delay", [0.0, 0.15, 0.3])
def test_sigkill_at_any_moment_keeps_a_prefix_that_resumes(
    tmp_path: Path, expected_logs: dict[int, bytes], delay: float
) -> None:
    seed = 0
    expected = expected_logs[seed]
    log = tmp_path / "crash.jsonl"
    child = run_driver(log, seed, pause_at=10**6)
    assert child.stdout is not None
    first = child.stdout.readline()
    time.sleep(delay)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    reported = [int(line) for line in (first + child.stdout.read()).split()]
    on_disk = log.read_bytes()
    complete = on_disk[: on_disk.rfind(b"\n") + 1]
    assert expected.startswith(complete)
    action_lines = [
        line for line in complete.splitlines() if b'"result"' not in line and b'"game' not in line
    ]
    assert len(action_lines) >= reported[-1] + 1
    resume_and_finish(log, seed)
    assert log.read_bytes() == expected
    assert_valid(log)
