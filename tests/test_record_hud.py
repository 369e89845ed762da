"""The recorder's HUD: each player's fold and bluff rates over the hands recorded before
the one being played, from the other logs of the folder (or ``--history``) and the
earlier hands of the log being recorded; never the hand being played.

Classic rules: three nines can win nothing, so a raise with them is a bluff.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from recording import enter
from test_browse import BLUFF, text_of
from textual.pilot import Pilot

from truclog.cli import main
from truclog.cli import record as record_cli
from truclog.record.recorder import Recorder
from truclog.tui.record.app import RecordApp
from truclog.tui.record.hud import Hud, history_files
from truclog.tui.record.screens.record import RecordScreen

SIZE = (120, 40)


def write(path: Path, events: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(e) + "\n" for e in events), "utf-8")


async def hud_text(app: RecordApp, pilot: Pilot[None]) -> str:
    hud = app.screen.query_one(Hud)
    deadline = time.monotonic() + 60  # the counting worker may wait for a core
    while time.monotonic() < deadline:
        if hud.history is not None and hud.current is not None and hud.place == hud.where():
            break
        await pilot.pause(0.02)
    await pilot.pause()
    return text_of(hud)


def row(text: str, player: str) -> list[str]:
    return next(r for r in text.splitlines() if r.split()[:1] == [player]).split()[1:]


async def test_the_hud_counts_the_folder_and_the_earlier_hands_only(tmp_path: Path) -> None:
    # the folder's other log: bluff-1 (Marc accepts a raise, then bluffs; Ana folds)
    write(tmp_path / "earlier.truclog.jsonl", BLUFF)
    log = tmp_path / "tonight.truclog.jsonl"
    with Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None) as rec:
        rec.deal({"Ana": ["7c", "8h", "Ad"], "Marc": ["9c", "9s", "9d"]})
    app = RecordApp(Recorder.resume(log, clock=None), clock=None, history=())
    async with app.run_test(size=SIZE) as pilot:
        text = await hud_text(app, pilot)
        assert "as of hand 1" in text
        assert row(text, "Marc") == ["0%", "0/1", "100%", "1/1"]
        assert row(text, "Ana") == ["100%", "1/1", "0%", "0/1"]
        # in this hand Ana (who leads) raises with 7 8 A and Marc folds: not counted while
        # the hand is played
        await enter(pilot, "r")
        await enter(pilot, "f")
        text = await hud_text(app, pilot)
        assert row(text, "Marc") == ["0%", "0/1", "100%", "1/1"]
        # the next hand: the one just played counts now
        recorder = app.recorder
        assert recorder is not None and isinstance(app.screen, RecordScreen)
        recorder.deal({"Ana": ["7h", "7s", "7d"], "Marc": ["9s", "9h", "9d"]})
        app.screen.refresh_game()
        text = await hud_text(app, pilot)
        assert "as of hand 2" in text
        assert row(text, "Marc") == ["50%", "1/2", "100%", "1/1"]
        assert row(text, "Ana") == ["100%", "1/1", "0%", "0/2"]


def test_history_leaves_out_the_log_being_recorded(tmp_path: Path) -> None:
    write(tmp_path / "a.truclog.jsonl", BLUFF)
    write(tmp_path / "b.truclog.jsonl", BLUFF)
    files = history_files([str(tmp_path)], tmp_path / "b.truclog.jsonl")
    assert [Path(f).name for f in files] == ["a.truclog.jsonl"]
    assert history_files([str(tmp_path / "missing")], tmp_path / "b.truclog.jsonl") == []


def test_cli_passes_the_history_to_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[object] = []
    monkeypatch.setattr(RecordApp, "run", lambda app: seen.append(app.history))
    log = str(tmp_path / "new.truclog.jsonl")
    old = str(tmp_path / "old.truclog.jsonl")
    write(Path(old), BLUFF)
    runner = CliRunner()
    for args in ([], ["--history", old], ["--no-hud"]):
        result = runner.invoke(main, ["record", "-p", "Ana", "-p", "Marc", *args, log])
        assert result.exit_code == 0, result.output
    assert seen == [(), (old,), None]
    choices = record_cli.Choices(("Ana", "Marc"), "classic", "", "", False, False, (old,), False)
    assert choices.args()[-3:] == ["--history", old, "--no-hud"]
