"""Text from logs reaches the terminal shown, never obeyed: a player's name holding an
OSC 52 sequence (which writes the clipboard) or a clear-screen sequence is printed with
its control characters escaped, as ``validate`` prints them, by ``show``, ``record
--sheet``, ``ratings`` and both apps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from truclog.cli import main
from truclog.record.recorder import Recorder
from truclog.tui.browse.app import BrowseApp
from truclog.tui.record.app import RecordApp, Setup

SAMPLES = Path(__file__).parent.parent / "sample_logs"
CAFE = SAMPLES / "2026-11-29-cafe-du-port-classic.truclog.jsonl"
CLIPBOARD = "A\x1b]52;c;cm0gLXJmIH4K\x07na"
CLEAR = "Ma\x1b[2J\x1b[Hrc"
OBEYED = ("\x1b", "\x07", "\x9b", "\x9d")
"""What a terminal would act on: ESC, BEL and the one-byte CSI and OSC."""


def hostile_log(folder: Path) -> Path:
    """The café sample with both players renamed to names holding escape sequences."""
    text = CAFE.read_text()
    for old, new in (("Ana", CLIPBOARD), ("Marc", CLEAR)):
        text = text.replace(f'"{old}"', json.dumps(new))
    path = folder / "hostile.truclog.jsonl"
    path.write_text(text)
    return path


def shown(text: str) -> None:
    assert not any(char in text for char in OBEYED), repr(text)
    assert "\\x1b]52;c;cm0gLXJmIH4K\\x07" in text or "\\x1b[2J" in text, repr(text)


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.output


def test_show_prints_names_escaped(tmp_path: Path) -> None:
    path = hostile_log(tmp_path)
    shown(run("show", str(path), "--game", "cafe-du-port-2026-11-29-1", "--hand", "1"))


def test_show_escapes_the_game_id_it_cannot_find(tmp_path: Path) -> None:
    output = run("show", str(hostile_log(tmp_path)), "--game", "\x1b[2Jnope", "--hand", "1")
    assert "\x1b" not in output and "\\x1b[2Jnope" in output


def test_the_score_sheet_prints_names_escaped(tmp_path: Path) -> None:
    shown(run("record", "--sheet", str(hostile_log(tmp_path))))


@pytest.mark.parametrize("history", [[], ["--history"]])
def test_ratings_print_names_escaped(history: list[str], tmp_path: Path) -> None:
    shown(run("ratings", *history, str(hostile_log(tmp_path))))


async def test_the_browser_shows_names_escaped(tmp_path: Path) -> None:
    app = BrowseApp([str(hostile_log(tmp_path))])
    async with app.run_test(size=(140, 40)) as pilot:
        for _ in range(500):
            if app.loaded:
                break
            await pilot.pause(0.02)
        await pilot.press("enter")
        await pilot.pause()
        games = app.export_screenshot()
        await pilot.press("enter")
        await pilot.pause()
        hand = app.export_screenshot()
    for screen in (games, hand):
        assert not any(char in screen for char in OBEYED)
    assert "\\x1b[2J" in games + hand


async def test_the_recorder_shows_names_escaped(tmp_path: Path) -> None:
    path = hostile_log(tmp_path)
    recorder = Recorder.resume(str(path))
    app = RecordApp(recorder, Setup(path=str(path)))
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause()
        screen = app.export_screenshot()
    recorder.close()
    assert not any(char in screen for char in OBEYED)
    assert "\\x1b[2J" in screen
