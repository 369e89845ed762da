"""Notes and marks in the browser: shown beside the events, typed on the replay screen
into the log's notes file (never into the log), found by mark or by the words of a note,
and nothing lost when another program annotates the same log meanwhile."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_browse import SIZE, open_replay, rows_of, text_of, wait_found, wait_loaded
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from truclog.record.annotations import annotate, notes_path, read_notes
from truclog.tui.browse import BrowseApp
from truclog.tui.browse.screens import FindHandsScreen, ReplayScreen
from truclog.tui.browse.screens.annotate import AnnotateScreen

ROOT = Path(__file__).resolve().parent.parent
CAFE = ROOT / "sample_logs" / "2026-11-29-cafe-du-port-classic.truclog.jsonl"
GAME = "cafe-du-port-2026-11-29-1"


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A log we do not own (read-only), in a folder of its own."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "server"
    folder.mkdir()
    log = folder / "cafe.truclog.jsonl"
    shutil.copy(CAFE, log)
    log.chmod(0o444)
    return log


async def type_notes(pilot: Pilot[None], note: str | None, marks: str | None) -> None:
    """Fill the open note dialog (a field left as it is for ``None``) and press Enter."""
    screen = pilot.app.screen
    assert isinstance(screen, AnnotateScreen)
    if note is not None:
        screen.query_one("#annotate-note", Input).value = note
    if marks is not None:
        screen.query_one("#annotate-marks", Input).value = marks
    screen.query_one("#annotate-note", Input).focus()
    await pilot.press("enter")
    await pilot.pause()


def event_row(replay: ReplayScreen, position: int) -> str:
    return str(replay.query_one("#replay-events", DataTable).get_row_at(position)[1])


async def test_a_note_and_marks_typed_on_the_replay_go_to_the_notes_file(server: Path) -> None:
    before = server.read_bytes()
    app = BrowseApp([str(server.parent)])
    async with app.run_test(size=SIZE) as pilot:
        replay = await open_replay(app, pilot)
        await pilot.press("right", "a")  # the note key, on the second event of hand 1
        await pilot.pause()
        await type_notes(pilot, "a raise on a seven", "bluff?, review")
        assert app.screen is replay
        note = text_of(replay.query_one("#replay-note", Static))
        assert "your note  a raise on a seven  #bluff?  #review" in note
        assert "Ana taps the table" in note  # the log's own note on that line stays shown
        assert "#bluff?" in event_row(replay, 1) and "✎" in event_row(replay, 1)
        # meanwhile another program marks another step, and the same one
        annotate(server, GAME, 1, 5, add=["misplay"], clock=None)
        annotate(server, GAME, 1, 2, add=["dispute"], clock=None)
        await pilot.press("a")
        await pilot.pause()
        marks = app.screen.query_one("#annotate-marks", Input)
        assert marks.value == "bluff?, review, dispute"  # read again from the file
        await type_notes(pilot, None, "bluff?")  # review and dispute taken off
    assert server.read_bytes() == before
    kept = read_notes(server).annotations
    assert kept[GAME, 1, 2].note == "a raise on a seven"
    assert kept[GAME, 1, 2].marks == ("bluff?",)
    assert kept[GAME, 1, 5].marks == ("misplay",)
    assert kept[GAME, 1, 2].t is not None


async def test_an_edit_made_while_the_dialog_is_open_is_kept(server: Path) -> None:
    app = BrowseApp([str(server.parent)])
    async with app.run_test(size=SIZE) as pilot:
        await open_replay(app, pilot)
        await pilot.press("a")
        await pilot.pause()
        annotate(server, GAME, 1, 1, add=["misdeal"], clock=None)  # while the dialog is open
        await type_notes(pilot, None, "review")
    assert read_notes(server).annotations[GAME, 1, 1].marks == ("misdeal", "review")


async def test_a_bad_mark_is_refused_and_nothing_written(server: Path) -> None:
    app = BrowseApp([str(server.parent)])
    async with app.run_test(size=SIZE) as pilot:
        await open_replay(app, pilot)
        await pilot.press("a")
        await pilot.pause()
        await type_notes(pilot, None, "x" * 41)
        assert isinstance(app.screen, ReplayScreen)
        assert any("1 to 40 characters" in n.message for n in app._notifications)
    assert not notes_path(server).exists()


async def test_find_hands_by_mark_or_by_words_of_a_note(server: Path) -> None:
    annotate(server, GAME, 4, 3, note="Marc hesitated a long time", clock=None)
    annotate(server, GAME, 7, 2, add=["Bluff?"], clock=None)
    rows = server.read_text().splitlines()
    marked = json.loads(rows[1])  # the first deal, marked in the log itself
    marked["marks"] = ["review"]
    rows[1] = json.dumps(marked)
    server.chmod(0o644)
    server.write_text("\n".join(rows) + "\n")
    app = BrowseApp([str(server.parent)])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        await pilot.press("f")
        screen = app.screen
        assert isinstance(screen, FindHandsScreen)
        expected = {
            "#bluff?": ["7"],  # the mark (in any case), not the words of a note
            "bluff?": ["3", "7"],  # hand 3 has a note "bluff? Ana raises..."
            "#review": ["1"],
            "hesitated": ["4"],
            "taps the": ["1"],
        }
        for noted, hands in expected.items():
            field = screen.query_one("#find-noted", Input)
            field.value = noted
            field.focus()
            await pilot.press("enter")
            found = await wait_found(app, pilot)
            assert [r[1] for r in rows_of(found)] == hands, noted
        heading = text_of(screen.query_one("#find-heading", Static))
        assert "noted 'taps the': 1 hands" in heading
