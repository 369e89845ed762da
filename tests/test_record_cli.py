"""``truclog record`` on the command line: resume errors are messages, repairs are reported."""

from __future__ import annotations

import gzip
import os
import re
import shlex
import socket
import sys
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from truclog.cli import main
from truclog.record.recorder import Recorder
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
    before = log.read_bytes()
    result = CliRunner().invoke(main, ["record", "--resume", str(log), "--me", "Zoé"])
    assert result.exit_code == 1 and "'Zoé' is not a player" in result.output
    assert log.read_bytes() == before


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


def test_me_is_restored_from_the_log_on_resume(tmp_path: Path, launched: list[RecordApp]) -> None:
    log = tmp_path / "game.truclog.jsonl"
    Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None, me="Marc").close()
    result = CliRunner().invoke(main, ["record", "--resume", str(log)])
    assert result.exit_code == 0, result.output
    (app,) = launched
    assert app.recorder is not None and app.recorder.me == "Marc"


def test_no_time_keeps_the_date_of_the_game(tmp_path: Path, launched: list[RecordApp]) -> None:
    result = CliRunner().invoke(main, ["record", str(tmp_path / "x.jsonl"), "--no-time"])
    assert result.exit_code == 0, result.output
    (app,) = launched
    assert app.clock is None and app.setup.date == date.today().isoformat()


def test_faults_at_the_command_line_are_one_line_messages(
    tmp_path: Path, launched: list[RecordApp]
) -> None:
    log = tmp_path / "game.truclog.jsonl"
    packed = tmp_path / "game.truclog.jsonl.gz"
    Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None).close()
    packed.write_bytes(gzip.compress(log.read_bytes()))
    result = CliRunner().invoke(main, ["record", "--resume", str(packed)])
    assert result.exit_code == 1 and "compressed (gzip) log cannot be recorded" in result.output
    with Recorder.resume(log, clock=None):
        result = CliRunner().invoke(main, ["record", "--resume", str(log)])
    assert result.exit_code == 1
    assert f"already being recorded by another recorder (process {os.getpid()})" in result.output
    assert "Traceback" not in result.output and launched == []


def test_a_session_with_a_refused_write_exits_with_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def run(app: RecordApp) -> None:
        app.failures.append("x.jsonl: nothing was recorded: No space left on device")

    monkeypatch.setattr(RecordApp, "run", run)
    result = CliRunner().invoke(main, ["record", str(tmp_path / "x.jsonl")])
    assert result.exit_code == 1
    assert "error: x.jsonl: nothing was recorded: No space left on device" in result.output
    assert "1 write(s) refused by the disk" in result.output


def test_the_score_sheet_prints_each_game(tmp_path: Path) -> None:
    log = tmp_path / "game.truclog.jsonl"
    with Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None) as rec:
        rec.deal()
        rec.raise_("Ana", 2)
        rec.fold("Marc")
        rec.deal()
        rec.reste("Marc")
        rec.accept("Ana")
        for player, card in [("Marc", "7c"), ("Ana", "8d"), ("Marc", "Ac"), ("Ana", "K")]:
            rec.play(player, card)
    result = CliRunner().invoke(main, ["record", "--sheet", str(log)])
    assert result.exit_code == 0, result.output
    # hand 1: Marc folds to Ana's raise, Ana scores the value before it, 1;
    # hand 2: Marc's reste (to 12, his remainder) accepted, Marc takes two tricks: 12
    assert result.output.splitlines() == [
        "Game 1: Ana · Marc, classic to 12",
        "hand  dealer  raises     ended  scored  points  Ana  Marc",
        "   1  Marc    Ana 2      fold   Ana          1    1     0",
        "   2  Ana     Marc reste tricks Marc        12    1    12",
        "Marc wins the game: Ana 1, Marc 12.",
    ]


def test_serving_refuses_a_port_in_use_and_says_where_it_listens(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(main, ["record", "--serve", "--port", str(port)])
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.output


@pytest.fixture
def servers(monkeypatch: pytest.MonkeyPatch) -> list:
    """Servers the command would start, caught instead of listening."""
    from textual_serve.server import Server

    started: list[Server] = []
    monkeypatch.setattr(Server, "serve", lambda self, *a, **k: started.append(self))
    return started


def test_serve_runs_the_same_command_for_each_browser_on_localhost(
    tmp_path: Path, servers: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])  # as the installed script runs
    log = tmp_path / "cafe.truclog.jsonl"
    args = ["record", "--serve", "--port", "8123", str(log), "-p", "Ana", "-p", "Marc"]
    result = CliRunner().invoke(main, [*args, "--me", "Ana"])
    assert result.exit_code == 0, result.output
    (server,) = servers
    assert f"open http://127.0.0.1:8123/?token={server.token} in a browser" in result.output
    assert "at most 2 page(s) at once" in result.output and server.limit == 2
    assert "scan" not in result.output  # no QR code for an address no phone reaches
    assert (server.host, server.port) == ("127.0.0.1", 8123)
    command = shlex.split(server.command)
    assert command[1:5] == ["-P", "-m", "truclog", "record"] and "--serve" not in command
    # the log given, and no other: the page cannot choose another file
    assert command[5:7] == [str(log), "--fixed-path"]
    assert command[7:11] == ["-p", "Ana", "-p", "Marc"]
    assert command[command.index("--me") + 1] == "Ana"


def test_serve_beyond_localhost_only_when_asked_and_says_so(
    tmp_path: Path, servers: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])  # as the installed script runs
    args = ["browse", "--serve", "--host", "0.0.0.0", "--sessions", "3", str(tmp_path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    (server,) = servers
    assert server.host == "0.0.0.0" and server.limit == 3
    assert "can connect, but only with the token" in result.output
    (url,) = re.findall(r"open (\S+) in a browser", result.output)
    assert url.endswith(f":8000/?token={server.token}") and "0.0.0.0" not in url
    assert shlex.split(server.command)[4:] == ["browse", "--bluff-threshold", "0.5", str(tmp_path)]
    # the QR code printed under the address reads as that address, for a phone's camera
    assert qr_text(result.output.split("scan:\n", 1)[1]) == url


def qr_text(drawing: str) -> str:
    """What a QR code drawn with half blocks says (each character: two modules, one above
    the other), read by zxing-cpp from the picture the blocks make."""
    import zxingcpp

    halves = {" ": (0, 0), "▀": (1, 0), "▄": (0, 1), "█": (1, 1)}
    rows = [line for line in drawing.splitlines() if line and set(line) <= set(halves)]
    scale, width = 8, max(len(line) for line in rows)
    pixels = bytearray()
    for line in rows:
        for half in (0, 1):
            row = bytes(255 * halves[c][half] for c in line.ljust(width))
            pixels += b"".join(bytes([v]) * scale for v in row) * scale
    image = memoryview(bytes(pixels)).cast("B", (len(rows) * 2 * scale, width * scale))
    (found,) = zxingcpp.read_barcodes(image)
    return str(found.text)


def test_each_session_runs_the_truclog_of_the_command_that_serves(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import truclog
    from truclog.cli.serving import app_command

    root = Path(truclog.__file__).resolve().parent.parent
    monkeypatch.delenv("PYTHONPATH", raising=False)
    # installed (the script's folder first on the path): -P keeps the working directory's
    # truclog folder, if any, out of the sessions' path
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path[1:]])
    assert shlex.split(app_command(["browse"])) == [sys.executable, "-P", "-m", "truclog", "browse"]
    # run as python -m truclog in a checkout: the sessions import that checkout too
    monkeypatch.setattr(sys, "path", [str(root), *sys.path[1:]])
    command = shlex.split(app_command(["browse"]))
    assert command == ["env", f"PYTHONPATH={root}", sys.executable, "-P", "-m", "truclog", "browse"]
