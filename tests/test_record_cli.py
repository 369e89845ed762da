"""``truclog record`` on the command line: resume errors are messages, repairs are reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from truclog.cli import main
from truclog.record import Recorder
from truclog.tui.record.app import RecordApp


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[RecordApp]:
    """Apps the command would run, caught instead of taking over the terminal."""
    apps: list[RecordApp] = []
    monkeypatch.setattr(RecordApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


def test_resume_of_a_missing_log_is_a_message(tmp_path: Path, launched: list) -> None:
    result = CliRunner().invoke(main, ["record", "--resume", str(tmp_path / "nope.jsonl")])
    assert result.exit_code == 1
    assert "no such log to resume" in result.output
    assert "Traceback" not in result.output and launched == []


def test_resume_of_an_illegal_log_names_the_line(tmp_path: Path, launched: list) -> None:
    log = tmp_path / "bad.truclog.jsonl"
    log.write_text(
        '{"type":"game","format":"truclog/1","players":["Ana","Marc"],"dealer":"Marc"}\n'
        '{"type":"deal","dealer":"Marc"}\n'
        '{"type":"play","player":"Marc","card":"7h"}\n'
    )
    result = CliRunner().invoke(main, ["record", "--resume", str(log)])
    assert result.exit_code == 1
    assert f"{log}:3: Marc cannot play 7h" in result.output
    assert "Traceback" not in result.output and launched == []


def test_resume_reports_a_torn_line_and_hands_the_game_to_the_app(
    tmp_path: Path, launched: list[RecordApp]
) -> None:
    log = tmp_path / "torn.truclog.jsonl"
    with Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None) as recorder:
        recorder.deal()
    with open(log, "ab") as f:
        f.write(b'{"type":"raise","pla')
    result = CliRunner().invoke(main, ["record", "--resume", str(log), "--me", "Ana"])
    assert result.exit_code == 0, result.output
    assert "cut short by a crash" in result.output and "torn.truclog.jsonl.torn" in result.output
    (app,) = launched
    assert app.recorder is not None and app.recorder.state is not None
    assert app.recorder.state.to_act == "Ana" and app.me == "Ana"
    assert f"{log}: 2 line(s), all on disk." in result.output


def test_me_must_be_a_player_of_the_resumed_game(tmp_path: Path, launched: list) -> None:
    log = tmp_path / "game.truclog.jsonl"
    Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None).close()
    result = CliRunner().invoke(main, ["record", "--resume", str(log), "--me", "Zoé"])
    assert result.exit_code == 2 and "not a player" in result.output


def test_options_fill_the_start_screen(tmp_path: Path, launched: list[RecordApp]) -> None:
    log = tmp_path / "new.truclog.jsonl"
    args = ["record", str(log), "-p", "Ana", "-p", "Marc", "--rules", "sackson", "--match"]
    result = CliRunner().invoke(main, [*args, "--dealer", "cut", "--no-time"])
    assert result.exit_code == 0, result.output
    (app,) = launched
    assert app.recorder is None and app.clock is None
    setup = app.setup
    assert (setup.path, setup.players, setup.rules, setup.dealer, setup.match) == (
        str(log),
        ("Ana", "Marc"),
        "sackson",
        "cut",
        True,
    )
