"""The recorder at the table: cards shown after the game, refused entries selected, the
menu by the arrows, resuming from the start screen, editing a line, a full disk, and
layouts for 80x24 and for a phone."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import orjson
import pytest
from recording import enter, message, steady
from textual.pilot import Pilot
from textual.widgets import Button, Input, OptionList, Static

from truclog.record.recorder import Recorder
from truclog.tui.record.app import RecordApp
from truclog.tui.record.screens.prompts import TextScreen
from truclog.tui.record.screens.record import RecordScreen
from truclog.tui.record.screens.sheet import SheetScreen
from truclog.tui.record.screens.start import Setup, StartScreen

SIZE = (100, 40)


def lines(log: Path) -> list[dict]:
    return [orjson.loads(x) for x in log.read_bytes().splitlines()]


def won_game(log: Path) -> None:
    """Ana calls reste (to 12, the target) and takes the first two tricks."""
    with Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None, me="Ana") as rec:
        rec.deal({"Ana": ["7h", "Q", "9s"]})
        rec.reste("Ana")
        rec.accept("Marc")
        for player, card in [("Ana", "7h"), ("Marc", "As"), ("Ana", "Q")]:
            rec.play(player, card)


async def test_cards_shown_after_the_last_hand_and_a_refused_entry_selected(
    tmp_path: Path,
) -> None:
    log = tmp_path / "won.truclog.jsonl"
    won_game(log)
    app = RecordApp(Recorder.resume(log, clock=None), clock=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.me == "Ana"  # from the game line
        await enter(pilot, "Jd")  # Marc's last card decides the game
        assert "Ana wins the game" in message(app)
        await enter(pilot, "7c")
        assert "refused: the game is over" in message(app)
        entry = app.screen.query_one("#entry", Input)
        assert entry.selected_text == "7c"
        await pilot.press(*"s Ana 9s", "enter")  # typing replaces the refused entry
        await pilot.pause()
        assert "Ana shows 9s" in message(app)
        await enter(pilot, "sheet")
        assert isinstance(app.screen, SheetScreen)
        sheet = str(app.screen.query_one("#sheet", Static).render())
        assert "Ana wins the game: Ana 12, Marc 0." in sheet
    assert [line["type"] for line in lines(log)[-3:]] == ["result", "game_end", "show"]


async def test_arrows_go_from_the_entry_line_to_the_menu(tmp_path: Path) -> None:
    log = tmp_path / "menu.truclog.jsonl"
    app = RecordApp(setup=Setup(path=str(log), players=("Ana", "Marc"), dealer="Marc"), clock=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await enter(pilot, "d 7h Q 9s")
        await pilot.press("down")
        menu = app.screen.query_one("#choices", OptionList)
        assert menu.has_focus and menu.highlighted == 0
        prompts = [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
        target = next(i for i, text in enumerate(prompts) if "Ana raises to 2" in text)
        await pilot.press(*["down"] * target, "enter")
        await pilot.pause()
        assert app.screen.query_one("#entry", Input).has_focus
    assert lines(log)[-1] == {"type": "raise", "player": "Ana", "to": 2}


async def test_the_start_screen_offers_to_resume_the_game_in_progress(tmp_path: Path) -> None:
    log = tmp_path / "busy.truclog.jsonl"
    with Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None, me="Ana") as rec:
        rec.deal({"Ana": ["7h", "Q", "9s"]})
    app = RecordApp(setup=Setup(path=str(log)), clock=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        offer = str(app.screen.query_one("#unfinished-text", Static).render())
        assert "game in progress (Ana · Marc, hand 1, Ana 0, Marc 0)" in offer
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, RecordScreen) and app.me == "Ana"
        await enter(pilot, "7h")
    assert lines(log)[-1] == {"type": "play", "player": "Ana", "card": "7h"}


async def test_a_line_picked_in_the_log_is_edited(tmp_path: Path) -> None:
    log = tmp_path / "edit.truclog.jsonl"
    with Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None) as rec:
        rec.deal({"Ana": ["7h", "Q", "9s"]})
        rec.raise_("Ana", 2)
        rec.accept("Marc")
        rec.play("Ana", "7h")
    app = RecordApp(Recorder.resume(log, clock=None), clock=None)
    async with app.run_test(size=SIZE) as pilot:
        events = app.screen.query_one("#events", OptionList)
        events.focus()
        events.highlighted = 2  # Ana raises to 2
        await pilot.press("ctrl+e")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        assert app.screen.query_one("#text", Input).value == "r 2"
        await enter(pilot, "r 4")
        assert "line 3 is now: Ana raises to 4" in message(app)
        events.focus()
        events.highlighted = 4  # Ana plays 7h: her 9 instead is legal, Marc has not played
        await pilot.press("ctrl+e")
        await pilot.pause()
        await enter(pilot, "Marc")
        assert "refused" in message(app) and "not an entry" in message(app)
    assert lines(log)[2] == {"type": "raise", "player": "Ana", "to": 4}
    assert lines(log)[4] == {"type": "play", "player": "Ana", "card": "7h"}
    assert orjson.loads(Path(f"{log}.undone").read_bytes().splitlines()[0])["to"] == 2


async def test_a_full_disk_refuses_the_entry_and_the_session_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "full.truclog.jsonl"
    with Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None) as rec:
        rec.deal({"Ana": ["7h", "Q", "9s"]})
    before = log.read_bytes()
    app = RecordApp(Recorder.resume(log, clock=None), clock=None)
    async with app.run_test(size=SIZE) as pilot:

        def full(fd: int, data: bytes) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr("truclog.format.writer.os.write", full)
        await enter(pilot, "r")
        assert "refused" in message(app) and "No space left on device" in message(app)
        assert app.screen.query_one("#entry", Input).selected_text == "r"
        await enter(pilot, "u")
        assert "nothing was undone" in message(app) or "No space" in message(app)
        monkeypatch.undo()
        await enter(pilot, "r")
        assert "recorded" in message(app)
    assert len(app.failures) >= 1 and "No space left on device" in app.failures[0]
    assert log.read_bytes().startswith(before)
    assert lines(log)[-1] == {"type": "raise", "player": "Ana", "to": 2}


@pytest.mark.parametrize("size", [(80, 24), (45, 50)], ids=["80x24", "phone"])
def test_record_screen_layouts(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    log = tmp_path / "snap.truclog.jsonl"
    with Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None, me="Ana") as rec:
        rec.deal({"Ana": ["7h", "Q", "9s"]})
        rec.raise_("Ana", 2)

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        app = pilot.app
        assert isinstance(app, RecordApp)
        if size[0] < 70:  # a phone: a button for each legal entry
            taps = [str(b.label) for b in app.screen.query("#taps Button").results(Button)]
            assert taps == ["Marc accepts", "Marc folds"]
        else:
            menu = app.screen.query_one("#choices", OptionList)
            assert menu.size.height >= 2, "the menu of legal entries has no room"
            assert menu.option_count == 2  # Marc accepts, Marc folds: both shown
        app.screen.query_one("#message", Static).update("")
        app.clear_notifications()  # the "Resumed" toast, which would come and go
        await steady(pilot)

    app = RecordApp(Recorder.resume(log, clock=None), clock=None)
    assert snap_compare(app, terminal_size=size, run_before=run_before)
