"""The recorder at a phone's size (40 x 50 cells, as a 412-pixel-wide phone at 16-pixel
text shows it): a large button for each legal entry, the footer's commands in a menu,
the cards of a deal by taps, the score sheet whole, and the served recorder's fixed file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from recording import steady
from textual.pilot import Pilot
from textual.widgets import Button, Footer, Input, Label, OptionList, Static

from truclog.record.recorder import Recorder
from truclog.tui.record.app import RecordApp
from truclog.tui.record.screens.menu import MenuScreen
from truclog.tui.record.screens.prompts import DealScreen
from truclog.tui.record.screens.record import RecordScreen
from truclog.tui.record.screens.sheet import SheetScreen
from truclog.tui.record.screens.start import Setup, StartScreen

PHONE = (40, 50)


def lines(log: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in log.read_bytes().splitlines()]


def dealt(tmp_path: Path) -> Path:
    log = tmp_path / "phone.truclog.jsonl"
    with Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None, me="Ana") as rec:
        rec.deal({"Ana": ["7h", "Q", "9s"]})
    return log


def taps(app: RecordApp) -> list[Button]:
    return [b for b in app.screen.query("#taps Button").results(Button) if b.display]


async def tap(pilot: Pilot, label: str) -> None:
    """Click the button of this label (a tap in the browser)."""
    found = [b for b in pilot.app.screen.query(Button) if str(b.label) == label]
    assert found, [str(b.label) for b in pilot.app.screen.query(Button)]
    await pilot.click(found[0])
    await pilot.pause()


async def test_the_legal_entries_are_large_buttons_that_record(tmp_path: Path) -> None:
    log = dealt(tmp_path)
    app = RecordApp(Recorder.resume(log, clock=None), clock=None)
    async with app.run_test(size=PHONE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RecordScreen)
        assert not screen.query_one("#choices", OptionList).display
        assert not screen.query_one(Footer).display  # its commands are in the menu
        labels = [str(b.label) for b in taps(app)]
        assert labels == [c.label for c in screen.choices]
        assert "Ana raises to 2" in labels and "Ana plays Q" in labels
        for button in taps(app):  # a finger's size: three rows, within the screen
            assert button.region.height == 3 and button.region.right <= PHONE[0]
        await tap(pilot, "Ana raises to 2")
        assert [str(b.label) for b in taps(app)] == ["Marc accepts", "Marc folds"]
        await tap(pilot, "Marc accepts")
        await tap(pilot, "Ana plays Q")
    assert lines(log)[-3:] == [
        {"type": "raise", "player": "Ana", "to": 2},
        {"type": "accept", "player": "Marc"},
        {"type": "play", "player": "Ana", "card": "Q"},
    ]


async def test_the_cards_of_a_deal_are_tapped(tmp_path: Path) -> None:
    log = tmp_path / "deal.truclog.jsonl"
    Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None).close()
    app = RecordApp(Recorder.resume(log, clock=None), clock=None)
    async with app.run_test(size=PHONE) as pilot:
        await pilot.pause()
        await tap(pilot, "Marc deals hand 1")
        assert isinstance(app.screen, DealScreen)
        for label in ("7", "Q", "K", "⌫", "10"):  # a mistake taken back
            await tap(pilot, label)
        assert app.screen.query_one("#cards-0", Input).value == "7 Q 10"
        for label in ("A", "??"):  # Ana's three are in: Marc's line
            await tap(pilot, label)
        await tap(pilot, "OK")
        assert isinstance(app.screen, RecordScreen)
    assert lines(log)[-1] == {
        "type": "deal",
        "dealer": "Marc",
        "cards": {"Ana": ["7", "Q", "T"], "Marc": ["A", "??", "??"]},
        "hand": 1,
    }


async def test_the_footers_commands_are_in_a_menu_that_fits(tmp_path: Path) -> None:
    log = dealt(tmp_path)
    app = RecordApp(Recorder.resume(log, clock=None), clock=None)
    async with app.run_test(size=PHONE) as pilot:
        await pilot.pause()
        await tap(pilot, "Menu")
        assert isinstance(app.screen, MenuScreen)
        commands = app.screen.query_one("#commands", OptionList)
        texts = [str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)]
        for wanted in ("Score sheet", "Abandon the game", "Help: entries and keys", "Quit"):
            assert wanted in texts
        dialog = app.screen.query_one(".dialog")
        assert dialog.region.right <= PHONE[0] and dialog.region.bottom <= PHONE[1]
        await pilot.click(commands, offset=(2, texts.index("Score sheet")))
        await pilot.pause()
        assert isinstance(app.screen, SheetScreen)
        # the sheet's rows are wider than the phone: they scroll sideways, nothing is cut
        sheet = app.screen.query_one("#sheet", Static)
        widest = max(len(line) for line in str(sheet.render()).splitlines())
        assert widest > PHONE[0]
        assert sheet.region.width >= widest
        assert app.screen.query_one(".dialog").max_scroll_x > 0
        await pilot.press("escape")
        await tap(pilot, "Menu")
        await pilot.click(commands_of(app), offset=(2, texts.index("Abandon the game")))
        await pilot.pause()
        await tap(pilot, "Yes")
        await tap(pilot, "Menu")
        await pilot.click(commands_of(app), offset=(2, texts.index("Quit")))
        await pilot.pause()
    assert lines(log)[-1]["type"] == "game_end" and lines(log)[-1]["abandoned"] is True
    assert app.return_code == 0 and not app.is_running


def commands_of(app: RecordApp) -> OptionList:
    assert isinstance(app.screen, MenuScreen)
    return app.screen.query_one("#commands", OptionList)


async def test_the_served_recorder_keeps_the_file_it_was_given(tmp_path: Path) -> None:
    path = str(tmp_path / "given.truclog.jsonl")
    app = RecordApp(None, Setup(path=path, players=("Ana", "Marc"), fixed_path=True))
    async with app.run_test(size=PHONE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        field = app.screen.query_one("#path", Input)
        assert field.disabled and field.value == path
        # the explanations wrap at a phone's width rather than being cut
        seating = [label for label in app.screen.query(Label) if "seating" in str(label.render())]
        assert seating and seating[0].region.height >= 2 and seating[0].region.right <= PHONE[0]


def test_phone_menu_snapshot(snap_compare: Any, tmp_path: Path) -> None:
    log = dealt(tmp_path)

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        app = pilot.app
        app.screen.query_one("#message", Static).update("")
        app.clear_notifications()
        await pilot.click("#tap-menu")
        await steady(pilot)
        assert isinstance(app.screen, MenuScreen)

    app = RecordApp(Recorder.resume(log, clock=None), clock=None)
    assert snap_compare(app, terminal_size=PHONE, run_before=run_before)
