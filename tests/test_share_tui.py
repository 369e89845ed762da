"""Share this hand from the browser (s) and the recorder (f7): the replay page written
where the prompt says (beside the log by default), and the app says where."""

from __future__ import annotations

from pathlib import Path

import pytest
from recording import enter, message
from test_browse import open_replay
from textual.pilot import Pilot
from textual.widgets import Input

from truclog.record import Recorder
from truclog.record.annotations import annotate
from truclog.replay import Game, read_games
from truclog.share.page import share_page, share_path
from truclog.tui.browse.app import BrowseApp
from truclog.tui.record.app import RecordApp
from truclog.tui.widgets.share import SharePrompt

SAMPLE = (
    Path(__file__).resolve().parent.parent
    / "sample_logs"
    / ("2026-11-29-cafe-du-port-classic.truclog.jsonl")
)
SIZE = (120, 40)


async def until(pilot: Pilot, done: object) -> None:
    for _ in range(500):
        if callable(done) and done():
            return
        await pilot.pause(0.02)
    raise AssertionError("the app did not get there")


def notes(app: object) -> list[str]:
    return [n.message for n in app._notifications]  # type: ignore[attr-defined]


@pytest.fixture
def log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    copy = tmp_path / "cafe.truclog.jsonl"
    copy.write_bytes(SAMPLE.read_bytes())
    return copy


def game_of(path: Path) -> Game:
    return next(read_games(path))


async def test_the_browser_shares_the_hand_from_the_seat_shown(log: Path) -> None:
    annotate(log, game_of(log).id, 2, 4, note="a note of the notes file", add=["lead"], clock=None)
    app = BrowseApp([log.name])
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await open_replay(app, pilot)
        await pilot.press("n", "v")  # hand 2, from Ana's seat
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, SharePrompt))
        default = share_path(game_of(Path(log.name)), 2, "Ana")  # as the browser was given it
        field = app.screen.query_one("#share-path", Input)
        assert field.value == str(default) and default.parent == Path(".")
        await pilot.press("enter")
        await until(pilot, lambda: any("shared" in n for n in notes(app)))
        assert notes(app)[-1] == f"hand 2 shared: {default}"
    page = (log.parent / default).read_bytes()
    assert page == share_page(game_of(log), 2, "Ana")
    assert "a note of the notes file" in page.decode() and '"lead"' in page.decode()


async def test_the_browser_writes_where_the_prompt_says_and_says_why_not(log: Path) -> None:
    app = BrowseApp([log.name])
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await open_replay(app, pilot)
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, SharePrompt))
        app.screen.query_one("#share-path", Input).value = "nowhere/hand.html"
        await pilot.press("enter")
        await until(pilot, lambda: any("cannot write" in n for n in notes(app)))
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, SharePrompt))
        app.screen.query_one("#share-path", Input).value = "first.html"
        await pilot.press("enter")
        await until(pilot, lambda: any("shared: first.html" in n for n in notes(app)))
    assert Path("first.html").read_bytes() == share_page(game_of(log), 1)
    assert not Path("nowhere").exists()


async def test_the_recorder_shares_the_hand_in_play(tmp_path: Path) -> None:
    log = tmp_path / "table.truclog.jsonl"
    recorder = Recorder.start(
        log, ["Ana", "Marc"], dealer="Marc", rules="classic", id="t-1", clock=None
    )
    app = RecordApp(recorder, clock=None)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("f7")
        assert "no hand to share yet" in message(app)
        await enter(pilot, "d 7h Q 9s / As Kd 8c")
        await enter(pilot, "7h")
        await pilot.press("f7")
        await until(pilot, lambda: isinstance(app.screen, SharePrompt))
        default = share_path(game_of(log), 1)
        assert app.screen.query_one("#share-path", Input).value == str(default)
        await pilot.press("enter")
        await until(pilot, lambda: any("shared" in n for n in notes(app)))
        assert notes(app)[-1] == f"hand 1 shared: {default}"
    assert default.parent == tmp_path
    assert default.read_bytes() == share_page(game_of(log), 1)


async def test_both_command_palettes_offer_to_share(log: Path) -> None:
    app = BrowseApp([log.name])
    async with app.run_test(size=SIZE) as pilot:
        await open_replay(app, pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Share this hand" in titles
    recorder = Recorder.start(
        log.with_name("r.truclog.jsonl"), ["Ana", "Marc"], dealer="Marc", clock=None
    )
    record = RecordApp(recorder, clock=None)
    async with record.run_test(size=SIZE) as pilot:
        await pilot.pause()
        titles = [c.title for c in record.get_system_commands(record.screen)]
        assert "Share this hand" in titles
