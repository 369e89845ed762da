"""Input that is not a log (binary data, a device such as ``/dev/zero``): one E009
problem, and that file is read no further, whatever the command.

``/dev/zero`` never ends: a command that read it to its end would never stop, so each
run here is a real process given a generous time limit (a hang fails the test)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from truclog.format.reader import read_log
from truclog.validate import CheckedGame, Diagnostic, check_logs
from truclog.validate.report import report_file

ZERO = "/dev/zero"
GAME = {"type": "game", "format": "truclog/1", "players": ["Ana", "Marc"], "dealer": "Marc"}
DEAL = {"type": "deal", "dealer": "Marc", "cards": {"Ana": ["7h", "8h", "Ah"]}}

needs_zero = pytest.mark.skipif(not os.path.exists(ZERO), reason="no /dev/zero here")


def truclog(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "truclog", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def image(tmp_path: Path) -> str:
    """A log with a game, then binary data (a zip archive pasted on), then another game."""
    path = tmp_path / "evening.truclog.jsonl"
    good = (json.dumps(GAME) + "\n" + json.dumps(DEAL) + "\n").encode()
    path.write_bytes(good + b"PK\x03\x04\x14\x00\x00\x00\x08\x00\n\xff\n" + good)
    return str(path)


@needs_zero
def test_validate_reads_a_device_of_zeros_as_one_problem_and_stops() -> None:
    run = truclog("validate", "--format", "json", ZERO)
    assert run.returncode == 1, run.stderr
    (found,) = json.loads(run.stdout)["files"]
    assert [(d["line"], d["code"]) for d in found["diagnostics"]] == [(1, "E009")]
    assert "binary data, not a truclog log" in found["diagnostics"][0]["message"]


@needs_zero
@pytest.mark.parametrize(
    "command",
    [
        ["stats"],
        ["stats", "--format", "json"],
        ["stats", "-j", "2"],
        ["export", "--to", "{tmp}/tables"],
        ["ratings"],
    ],
)
def test_commands_that_count_say_the_device_is_no_log_and_go_on(
    command: list[str], tmp_path: Path
) -> None:
    log = tmp_path / "real.truclog.jsonl"
    log.write_text(json.dumps(GAME) + "\n", "utf-8")
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    run = truclog(*args, ZERO, str(log))
    assert run.returncode == 0, run.stderr
    assert "1 file(s) of binary data, not logs, read no further (E009)" in run.stderr


@needs_zero
def test_show_says_the_device_is_no_log() -> None:
    run = truclog("show", ZERO, "--game", "g", "--hand", "1")
    assert run.returncode == 1
    assert "E009" in run.stderr and "binary data" in run.stderr


@pytest.mark.parametrize("quick", [True, False])
def test_a_log_stops_at_its_first_nul_byte_on_either_path(image: str, quick: bool) -> None:
    report = report_file(image, quick=quick)
    assert [(d.line, d.code) for d in report.diagnostics if d.severity == "error"] == [(3, "E009")]
    assert report.game_count == 1  # the game after the binary data is not read


def test_the_reader_and_the_api_stop_at_the_nul_byte(image: str) -> None:
    lines = list(read_log(image))
    assert [line.line for line in lines] == [1, 2, 3]
    assert lines[-1].problem is not None and lines[-1].problem.code == "E009"
    found = list(check_logs([image]))
    games = [g for g in found if isinstance(g, CheckedGame)]
    problems = [d for d in found if isinstance(d, Diagnostic)]
    problems += [d for game in games for d in game.diagnostics]
    assert [d.code for d in problems if d.severity == "error"] == ["E009"]
    assert len(games) == 1


@needs_zero
async def test_the_browser_lists_the_device_as_one_file_problem() -> None:
    from test_browse import wait_loaded

    from truclog.tui.browse import BrowseApp

    app = BrowseApp([ZERO])
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_loaded(app, pilot)
        assert [p.code for p in app.catalog.problems] == ["E009"]
