"""The ``truclog simulate`` command: options, output and clear errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from truclog.cli import main
from truclog.simulate import STYLES, parse_style
from truclog.simulate.run import Simulation, simulate_to
from truclog.validate import CheckedGame, check_logs


def _run(*args: str) -> tuple[int, bytes, str]:
    result = CliRunner().invoke(main, ["simulate", *args])
    return result.exit_code, result.stdout_bytes, result.stderr


def test_writes_the_api_simulation_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "cli.truclog.jsonl"
    code, _, err = _run(
        "--games", "3", "--rules", "francais", "--seed", "9",
        "--players", "Ana", "Marc", "Lu", "Zoé",
        "--style", "Ana=bluffer", "Marc=cautious:bluff=0.2", "--style", "Lu=random",
        "--annotate", "-o", str(out),
    )  # fmt: skip
    assert code == 0, err
    assert "wrote 3 games" in err and "hands/s" in err
    expected = tmp_path / "api.truclog.jsonl"
    simulate_to(
        Simulation(
            games=3,
            seed=9,
            rules="francais",
            players=("Ana", "Marc", "Lu", "Zoé"),
            styles={
                "Ana": STYLES["bluffer"],
                "Marc": parse_style("cautious:bluff=0.2"),
                "Lu": STYLES["random"],
            },
            annotate=True,
        ),
        expected,
    )
    assert out.read_bytes() == expected.read_bytes()


def test_dash_writes_to_stdout_and_a_bare_style_is_everyones(tmp_path: Path) -> None:
    code, stdout, err = _run("-n", "2", "--seed", "4", "--style", "cautious", "-o", "-")
    assert code == 0, err
    expected = tmp_path / "api.jsonl"
    simulate_to(Simulation(games=2, seed=4, default_style=STYLES["cautious"]), expected)
    assert stdout == expected.read_bytes()


def test_realistic_logs_validate_clean(tmp_path: Path) -> None:
    out = tmp_path / "real.truclog.jsonl"
    code, _, err = _run(
        "-n", "4", "--realistic", "--match", "--start", "2026-11-29T20:30:00+01:00",
        "--rules", '{"preset": "gamerules", "target": 7}', "-o", str(out),
    )  # fmt: skip
    assert code == 0, err
    lines = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    assert all("t" in line for line in lines)
    assert lines[0]["t"] == "2026-11-29T20:30:00+01:00"
    assert lines[0]["rules"] == {"preset": "gamerules", "target": 7}
    assert any("note" in line for line in lines)
    deals = [line["cards"] for line in lines if line["type"] == "deal"]
    assert any(len(cards) == 1 or "??" in str(cards) for cards in deals)
    checked = list(check_logs([str(out)]))
    assert all(isinstance(g, CheckedGame) and not g.diagnostics for g in checked)
    assert len({g.header.match for g in checked if isinstance(g, CheckedGame)}) == 4


def test_hands_option(tmp_path: Path) -> None:
    out = tmp_path / "h.jsonl"
    code, _, err = _run("--hands", "25", "-o", str(out))
    assert code == 0, err
    results = out.read_bytes().count(b'{"type":"result"')
    assert results >= 25


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "nope"], "unknown rules preset 'nope'"),
        (["--rules", "{nope"], "rules given as JSON do not parse"),
        (["--style", "Bob=bluffer"], "Bob, who is not a player"),
        (["--style", "shy"], "unknown style 'shy'"),
        (["--style", "Ana=bluffer:bluff=2"], "between 0 and 1"),
        (["--style", "Ana=bluffer:careful=maybe"], "takes yes or no"),
        (["--players", "Ana", "Marc", "Lu"], "two or four distinct players"),
        (["--players", "Ana", "Ana"], "two or four distinct players"),
        (["--start", "tonight"], "not a date and time"),
        (["--teams", "nous", "eux"], "only in a four-player game"),
        (["--players", "A", "B", "C", "D", "--teams", "nous", "nous"], "two different teams"),
        (["--hidden", "1.5"], "1.5"),
        (
            ["--players", "A", "B", "C", "D", "--rules", '{"preset":"classic","order":"78AK"}'],
            "a deck of 16 cards (ranks 78AK) is too small for 4 players",
        ),
        (["-o", "/nonexistent-dir/x.jsonl"], "cannot write /nonexistent-dir/x.jsonl"),
    ],
)
def test_errors_are_clear_messages(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["simulate", "-n", "1", "-o", "-", *args])
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_small_deck_deals_once_when_a_redeal_reshuffles() -> None:
    """16 cards hold one deal for four players, though not a redeal from the rest."""
    rules = '{"preset":"classic","order":"78AK","redeal":"reshuffle"}'
    result = CliRunner().invoke(
        main, ["simulate", "-n", "3", "-o", "-", "--players", "A", "B", "C", "D", "--rules", rules]
    )
    assert result.exit_code == 0
    assert result.stdout.count('"type":"game"') == 3
    checked = CliRunner().invoke(main, ["validate", "-"], input=result.stdout)
    assert checked.exit_code == 0, checked.output


def test_same_seed_same_bytes_across_processes() -> None:
    """No dependence on string hashing (set or dict order) between runs."""
    args = [sys.executable, "-m", "truclog", "simulate", "-n", "1", "--seed", "5",
            "--players", "Ana", "Marc", "Lu", "Zoé", "--style", "Ana=random",
            "--realistic", "--match", "--annotate", "-o", "-"]  # fmt: skip
    outputs = {
        subprocess.run(
            args, capture_output=True, check=True, env={**os.environ, "PYTHONHASHSEED": seed}
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1
    assert next(iter(outputs)).count(b'"type":"game_end"') >= 2


def test_rules_read_leniently_are_declared_as_read(tmp_path: Path) -> None:
    """``--rules`` reads an override as the rules do (a target of "8" is 8, an order
    with 10 is one with T), and the games declare the values read, so the log is
    valid truclog/1 and its games are played to 8."""
    out = tmp_path / "eight.truclog.jsonl"
    spec = '{"preset": "classic", "target": "8", "order": "78AKQJ109"}'
    code, _, err = _run("--games", "2", "--seed", "4", "--rules", spec, "-o", str(out))
    assert code == 0, err
    games = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    headers = [line for line in games if line["type"] == "game"]
    assert [h["rules"] for h in headers] == [
        {"preset": "classic", "target": 8, "order": "78AKQJT9"}
    ] * 2
    checked = [item for item in check_logs([out]) if isinstance(item, CheckedGame)]
    assert len(checked) == 2 and all(not game.diagnostics for game in checked)
    assert all(max(game.score.values()) >= 8 for game in checked)
