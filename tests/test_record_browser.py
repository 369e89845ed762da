"""``truclog record --serve`` in a real browser (the system's Chromium, driven by
Playwright) emulating a phone: only the printed address (with its token) gets the page,
another site's page cannot drive the app, and a hand is recorded by taps alone.

Skipped only where no Chromium is installed (CI installs it from the system's packages).
"""

from __future__ import annotations

import asyncio
import base64
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import orjson
import pytest
from chromium import launched, needs_chromium
from playwright.sync_api import Browser, Page
from served import start, stop
from textual.widget import Widget
from textual.widgets import Button

from truclog.record.recorder import Recorder
from truclog.tui.record.app import RecordApp
from truclog.tui.record.screens.menu import COMMANDS
from truclog.tui.record.screens.record import RecordScreen
from truclog.tui.record.screens.start import Setup
from truclog.validate import CheckedGame, check_log

PLAYERS = ["-p", "Ana", "-p", "Marc", "--dealer", "Marc", "--me", "Ana", "--no-time"]

pytestmark = needs_chromium


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``truclog record --serve`` on 127.0.0.1 and the address it printed."""
    log = tmp_path / "phone.truclog.jsonl"
    server = start(["record", str(log), *PLAYERS], tmp_path)
    try:
        yield str(server.url), log
    finally:
        stop(server.process)


@pytest.fixture
def browser() -> Iterator[Browser]:
    with launched() as browser:
        yield browser


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


Before = Callable[[RecordApp], object]


def cell_of(
    log: Path,
    size: tuple[int, int],
    find: Callable[[RecordApp], Widget],
    before: Before | None = None,
) -> tuple[int, int]:
    """The middle (column, row) of a widget at this terminal size: the same app, opened
    on a copy of the log (or on the start screen when there is none yet), laid out at
    the same size."""
    copy = log.with_name("twin.truclog.jsonl")
    if log.exists():
        copy.write_bytes(log.read_bytes())

    async def locate() -> tuple[int, int]:
        if copy.exists():
            app = RecordApp(Recorder.resume(copy, clock=None), clock=None)
        else:
            setup = Setup(path=str(copy), players=("Ana", "Marc"), dealer="Marc", me="Ana")
            app = RecordApp(None, setup, me="Ana", clock=None)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            if before is not None:
                before(app)
                await pilot.pause()
            region = find(app).region
            return region.x + region.width // 2, region.y + region.height // 2

    try:  # in a thread of its own: Playwright runs an event loop in this one
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, locate()).result()
    finally:
        copy.unlink(missing_ok=True)


def button(label: str) -> Callable[[RecordApp], Widget]:
    def find(app: RecordApp) -> Widget:
        found = [b for b in app.screen.query(Button) if str(b.label) == label and b.display]
        assert found, f"no button {label!r}: {[str(b.label) for b in app.screen.query(Button)]}"
        return found[0]

    return find


def phone(browser: Browser) -> Page:
    """A page on a phone of 412 x 915 CSS pixels at 2.625 device pixels each (the size
    of Playwright's Pixel 7 screen), touched by a finger."""
    context = browser.new_context(
        viewport={"width": 412, "height": 915},
        device_scale_factor=2.625,
        is_mobile=True,
        has_touch=True,
    )
    return context.new_page()


def open_deal(app: RecordApp) -> None:
    assert isinstance(app.screen, RecordScreen)
    app.screen.action_deal()


def open_menu(app: RecordApp) -> None:
    assert isinstance(app.screen, RecordScreen)
    app.screen.action_commands()


def tap(page: Page, cell: tuple[int, int], size: tuple[int, int]) -> None:
    """Tap, as a finger does, the middle of a character cell."""
    box = page.locator(".xterm-screen").bounding_box()
    assert box is not None
    width, height = box["width"] / size[0], box["height"] / size[1]
    page.touchscreen.tap(box["x"] + (cell[0] + 0.5) * width, box["y"] + (cell[1] + 0.5) * height)


def pixel(page: Page, png: bytes, x: float, y: float) -> tuple[int, int, int]:
    """The colour of the screenshot at (x, y) CSS pixels (the page decodes the picture)."""
    data = base64.b64encode(png).decode()
    rgba = page.evaluate(
        """async ([data, x, y]) => {
            const bytes = Uint8Array.from(atob(data), c => c.charCodeAt(0));
            const image = await createImageBitmap(new Blob([bytes], {type: "image/png"}));
            const canvas = new OffscreenCanvas(image.width, image.height);
            const context = canvas.getContext("2d");
            context.drawImage(image, 0, 0);
            const ratio = image.width / window.innerWidth;
            return Array.from(context.getImageData(x * ratio, y * ratio, 1, 1).data);
        }""",
        [data, x, y],
    )
    return rgba[0], rgba[1], rgba[2]


def test_a_page_without_the_token_gets_nothing(served: tuple[str, Path], browser: Browser) -> None:
    url, log = served
    page = phone(browser)
    bare = url.split("?")[0]
    response = page.goto(bare)
    assert response is not None and response.status == 403
    assert "token" in page.inner_text("body") and page.query_selector(".xterm") is None
    # another site's page, even knowing the token, cannot open the app's socket
    page.route("http://elsewhere.test/", lambda route: route.fulfill(body="<p>hi</p>"))
    page.goto("http://elsewhere.test/")
    opened = page.evaluate(
        """(url) => new Promise(done => {
            const socket = new WebSocket(url);
            socket.onopen = () => done("opened");
            socket.onerror = () => done("refused");
        })""",
        url.replace("http://", "ws://").replace("/?token=", "/ws?token="),
    )
    assert opened == "refused"
    assert not log.exists()  # no app ever ran


def test_a_hand_recorded_by_taps_on_a_phone(served: tuple[str, Path], browser: Browser) -> None:
    url, log = served
    page = phone(browser)
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
    deadline = time.monotonic() + 30
    while not sizes:
        assert time.monotonic() < deadline, "the page never told the app its size"
        time.sleep(0.2)
    size = sizes[-1]
    assert size[0] < 70, f"not the phone layout's width: {size}"
    time.sleep(2)  # the start screen drawn
    wait_for(log, 1, nudge=lambda: tap(page, cell_of(log, size, button("Start")), size))
    # the deal: Ana's cards (--me) by the buttons of ranks, then OK
    tap(page, cell_of(log, size, button("Marc deals hand 1")), size)
    time.sleep(1)
    for rank in ("7", "Q", "9", "OK"):
        tap(page, cell_of(log, size, button(rank), open_deal), size)
        time.sleep(0.5)
    wait_for(log, 2)
    for count, label in enumerate(
        ["Ana raises to 2", "Marc accepts", "Ana plays 7", "Marc plays A", "Ana plays Q"],
        start=3,
    ):
        tap(page, cell_of(log, size, button(label)), size)
        wait_for(log, count)
    tap(page, cell_of(log, size, button("Marc plays J")), size)
    written = wait_for(log, 9)
    check_phone_page(page, log, size)
    assert written == [
        {
            "type": "game",
            "format": "truclog/1",
            "players": ["Ana", "Marc"],
            "dealer": "Marc",
            "rules": "classic",
            "date": written[0]["date"],
            "id": f"phone-{written[0]['date']}-1",  # the file's name, the day and a number
            "source": "tabletop",
            "_me": "Ana",
        },
        {"type": "deal", "dealer": "Marc", "cards": {"Ana": ["7", "Q", "9"]}, "hand": 1},
        {"type": "raise", "player": "Ana", "to": 2},
        {"type": "accept", "player": "Marc"},
        {"type": "play", "player": "Ana", "card": "7"},
        {"type": "play", "player": "Marc", "card": "A"},
        {"type": "play", "player": "Ana", "card": "Q"},
        {"type": "play", "player": "Marc", "card": "J"},
        {"type": "result", "winner": "Ana", "points": 2, "score": {"Ana": 2, "Marc": 0}},
    ]
    (game,) = check_log(str(log))
    assert isinstance(game, CheckedGame)
    assert [d.message for d in game.diagnostics if d.severity == "error"] == []
    # the footer's commands are in the menu, by taps: Quit ends the session
    tap(page, cell_of(log, size, button("Menu")), size)
    time.sleep(1)
    commands = cell_of(log, size, lambda app: app.screen.query_one("#commands"), open_menu)
    quit_row = (commands[0], commands[1] - len(COMMANDS) // 2 + len(COMMANDS) - 1)
    tap(page, quit_row, size)
    page.wait_for_selector("body.-closed", timeout=30_000)


def check_phone_page(page: Page, log: Path, size: tuple[int, int]) -> None:
    """The screenshot: text of at least 14 CSS pixels, drawn at the phone's pixel ratio
    and not cut: the stacked layout's bottom bar (the Menu button) is where it belongs."""
    metrics = page.evaluate(
        """() => {
            const screen = document.querySelector(".xterm-screen").getBoundingClientRect();
            const canvas = document.querySelector(".xterm-screen canvas");
            return {width: screen.width, height: screen.height, canvas: canvas.width,
                    ratio: window.devicePixelRatio, inner: window.innerWidth};
        }"""
    )
    assert metrics["ratio"] == 2.625 and metrics["inner"] == 412  # the viewport is the phone's
    assert metrics["height"] / size[1] >= 14, metrics  # a row of text: 14 CSS pixels or more
    assert metrics["width"] <= 412
    assert abs(metrics["canvas"] - metrics["width"] * 2.625) <= 3, metrics  # drawn at the ratio
    png = page.screenshot()
    menu = cell_of(log, size, button("Menu"))
    undo = cell_of(log, size, button("Undo"))
    cell_w, cell_h = metrics["width"] / size[0], metrics["height"] / size[1]
    red, green, blue = pixel(page, png, (menu[0] - 5.5) * cell_w, (menu[1] + 0.5) * cell_h)
    assert blue > 150 and blue > red + 60, (red, green, blue)  # the Menu button's own blue
    assert undo[1] == menu[1] and undo[0] < menu[0]  # side by side, at the bottom
