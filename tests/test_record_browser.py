"""``truclog record --serve`` in a real browser (the system's Chromium, driven by
Playwright) at the size of a phone: a hand entered by clicking and typing lands on disk.

Skipped only where no Chromium is installed (CI installs it from the system's packages).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import orjson
import pytest
from playwright.sync_api import Page, sync_playwright
from textual.widgets import OptionList

from truclog.record.recorder import Recorder
from truclog.tui.record.app import RecordApp
from truclog.validate import CheckedGame, check_log

CHROMIUM = next(
    (
        found
        for found in (
            shutil.which("chromium"),
            shutil.which("chromium-browser"),
            "/usr/bin/chromium",
        )
        if found and os.path.exists(found)
    ),
    None,
)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 412, "height": 915}

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium found (apt-get install -y chromium): the browser test cannot run",
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``truclog record --serve`` on 127.0.0.1, its whole process group ended afterwards."""
    log = tmp_path / "phone.truclog.jsonl"
    port = free_port()
    command = [sys.executable, "-m", "truclog", "record", "--serve", "--port", str(port)]
    command += [str(log), "-p", "Ana", "-p", "Marc", "--dealer", "Marc", "--me", "Ana"]
    server = subprocess.Popen(
        [*command, "--no-time"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    out = server.stdout.read().decode() if server.stdout else ""
                    pytest.fail(f"the server did not start: {out}")
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/", log
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        with_children = subprocess.run(
            ["pgrep", "-s", str(server.pid)], capture_output=True, text=True
        ).stdout.split()
        for pid in with_children:
            os.kill(int(pid), signal.SIGKILL)


def lines(log: Path) -> list[dict]:
    return [orjson.loads(x) for x in log.read_bytes().splitlines()] if log.exists() else []


def wait_for(log: Path, count: int, nudge: Callable[[], None] | None = None) -> list[dict]:
    """The log once it holds ``count`` lines. ``nudge`` is done again every few seconds
    while the app is busy starting (keys sent before a screen is up are lost); it must be
    an entry that is refused once recorded."""
    deadline = time.monotonic() + 90
    nudged = 0.0
    while len(lines(log)) < count:
        if time.monotonic() > deadline:
            raise AssertionError(f"the log holds {lines(log)}, not {count} lines")
        if nudge is not None and time.monotonic() - nudged > 3:
            nudge()
            nudged = time.monotonic()
        time.sleep(0.2)
    time.sleep(0.5)  # the screen redrawn after the line
    return lines(log)


def menu_row(log: Path, size: tuple[int, int], label: str) -> tuple[int, int]:
    """Where (column, row) the "Legal now" menu shows ``label`` at this terminal size."""

    def find(app: RecordApp) -> tuple[int, int]:
        menu = app.screen.query_one("#choices", OptionList)
        prompts = [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
        found = [i for i, text in enumerate(prompts) if label in text]
        assert found, f"{label!r} is not in the menu: {prompts} ({lines(log)})"
        line = menu._index_to_line[found[0]]  # long labels wrap over two lines
        region = menu.content_region
        return region.x + 4, region.y + line - int(menu.scroll_offset.y)

    return laid_out(log, size, find)


def laid_out(
    log: Path, size: tuple[int, int], find: Callable[[RecordApp], tuple[int, int]]
) -> tuple[int, int]:
    """A cell of the screen as ``find`` tells it, in the same app opened on a copy of
    the log and laid out at the same size."""
    copy = log.with_name("twin.truclog.jsonl")
    copy.write_bytes(log.read_bytes())

    async def found() -> tuple[int, int]:
        app = RecordApp(Recorder.resume(copy, clock=None), clock=None)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            return find(app)

    try:  # in a thread of its own: Playwright runs an event loop in this one
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, found()).result()
    finally:
        copy.unlink()


def widget_cell(log: Path, size: tuple[int, int], selector: str) -> tuple[int, int]:
    """Where (column, row) the middle of the widget ``selector`` is at this terminal size."""

    def find(app: RecordApp) -> tuple[int, int]:
        region = app.screen.query_one(selector).region
        return region.x + region.width // 2, region.y + region.height // 2

    return laid_out(log, size, find)


def wait_until(log: Path, holds: Callable[[list[dict]], bool]) -> list[dict]:
    deadline = time.monotonic() + 60
    while not holds(lines(log)):
        if time.monotonic() > deadline:
            raise AssertionError(f"the log never came to hold it: {lines(log)}")
        time.sleep(0.2)
    time.sleep(0.5)
    return lines(log)


def click_cell(
    page: Page, cell: tuple[int, int], size: tuple[int, int], touch: bool = False
) -> None:
    """Click (or tap, as a finger on a phone does) the middle of a character cell."""
    box = page.locator(".xterm-screen").bounding_box()
    assert box is not None
    width, height = box["width"] / size[0], box["height"] / size[1]
    x, y = box["x"] + (cell[0] + 0.5) * width, box["y"] + (cell[1] + 0.5) * height
    if touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def type_entry(page: Page, text: str) -> None:
    page.focus(".xterm-helper-textarea")  # the terminal's keyboard input
    page.keyboard.type(text)
    page.keyboard.press("Enter")


def test_a_hand_recorded_from_a_phone_browser(served: tuple[str, Path]) -> None:
    url, log = served
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport=PHONE, has_touch=True)
            sizes: list[tuple[int, int]] = []

            def on_socket(ws: object) -> None:
                def sent(payload: str | bytes) -> None:
                    if isinstance(payload, str) and payload.startswith('["resize"'):
                        data = orjson.loads(payload)[1]
                        sizes.append((data["width"], data["height"]))

                ws.on("framesent", sent)  # type: ignore[attr-defined]

            page.on("websocket", on_socket)
            page.goto(url)
            page.wait_for_selector("body.-first-byte", timeout=60_000)
            page.focus(".xterm-helper-textarea")
            # the start screen holds the players and dealer given: Enter starts the game
            wait_for(log, 1, nudge=lambda: page.keyboard.press("Enter"))
            assert sizes and sizes[-1][0] < 60, f"not a phone-sized terminal: {sizes}"
            size = sizes[-1]
            # my cards (--me Ana); a deal typed again once recorded is refused
            wait_for(log, 2, nudge=lambda: type_entry(page, "d 7h Q 9s"))
            click_cell(page, menu_row(log, size, "Ana raises to 2"), size)
            wait_for(log, 3)
            click_cell(page, menu_row(log, size, "Marc accepts"), size, touch=True)
            wait_for(log, 4)
            # one tap on a mark button: the mark goes on the last entry, the accept
            click_cell(page, widget_cell(log, size, "#mark-0"), size, touch=True)
            wait_until(log, lambda now: now[3].get("marks") == ["bluff?"])
            type_entry(page, "7h")
            wait_for(log, 5)
            type_entry(page, "As")
            wait_for(log, 6)
            click_cell(page, menu_row(log, size, "Ana plays Q"), size)
            wait_for(log, 7)
            type_entry(page, "Jd")
            written = wait_for(log, 9)
        finally:
            browser.close()
    assert written == [
        {
            "type": "game",
            "format": "truclog/1",
            "players": ["Ana", "Marc"],
            "dealer": "Marc",
            "rules": "classic",
            "date": written[0]["date"],
            "source": "tabletop",
            "_me": "Ana",
        },
        {"type": "deal", "dealer": "Marc", "cards": {"Ana": ["7h", "Q", "9s"]}, "hand": 1},
        {"type": "raise", "player": "Ana", "to": 2},
        {"type": "accept", "player": "Marc", "marks": ["bluff?"]},
        {"type": "play", "player": "Ana", "card": "7h"},
        {"type": "play", "player": "Marc", "card": "As"},
        {"type": "play", "player": "Ana", "card": "Q"},
        {"type": "play", "player": "Marc", "card": "Jd"},
        {"type": "result", "winner": "Ana", "points": 2, "score": {"Ana": 2, "Marc": 0}},
    ]
    (game,) = check_log(str(log))
    assert isinstance(game, CheckedGame)
    assert [d.message for d in game.diagnostics if d.severity == "error"] == []
