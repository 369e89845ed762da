"""A shared replay page in a real browser (the system's Chromium, driven by Playwright),
opened from disk with the network blocked: it asks for nothing, steps through the hand
with keys (or taps on a phone), and shows at each step what the engine's replay says.

Skipped only where no Chromium is installed (CI installs it from the system's packages).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chromium import PHONE, launched, needs_chromium
from playwright.sync_api import Browser, BrowserContext, Page
from test_share_page import HOSTILE, hostile_log

from truclog.replay import Game, read_games
from truclog.share.page import page_data, share_file

pytestmark = needs_chromium

CAFE = (
    Path(__file__).resolve().parent.parent
    / "sample_logs"
    / ("2026-11-29-cafe-du-port-classic.truclog.jsonl")
)
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
PHONE_CONTEXT: dict[str, Any] = {
    "viewport": PHONE,
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2.625,
}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as browser:
        yield browser


class Offline:
    """A page opened from a file with every request the page makes blocked and counted."""

    def __init__(self, context: BrowserContext, path: Path) -> None:
        self.url = path.resolve().as_uri()
        self.blocked: list[str] = []
        self.problems: list[str] = []
        self.dialogs: list[str] = []
        context.route("**/*", self._block)
        self.page = context.new_page()
        self.page.on("request", self._request)
        self.page.on("pageerror", lambda error: self.problems.append(str(error)))
        self.page.on("console", self._console)
        self.page.on("dialog", self._dialog)
        self.page.goto(self.url)

    def _block(self, route: Any) -> None:
        if route.request.url == self.url:
            route.continue_()
            return
        self.blocked.append(route.request.url)
        route.abort()

    def _request(self, request: Any) -> None:
        if request.url != self.url:
            self.blocked.append(request.url)

    def _console(self, message: Any) -> None:
        if message.type in ("error", "warning"):
            self.problems.append(message.text)

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()


def cafe() -> Game:
    return next(read_games(CAFE))


def shown(page: Page) -> dict[str, Any]:
    """What the page shows now: the event line, the cards on the table, every seat's
    cards, the tricks, the score and the ending."""
    return page.evaluate(
        """() => ({
        event: document.getElementById("event").textContent,
        trick: [...document.querySelectorAll("#trick .card")].map((c) => c.dataset.card),
        seats: [...document.querySelectorAll("#seats .seat")].map((s) => ({
            name: s.dataset.player,
            cards: [...s.querySelectorAll(".card")].map((c) => c.dataset.card || null),
        })),
        tricks: [...document.querySelectorAll("#tricks li")].map((li) => li.textContent),
        score: document.getElementById("score").textContent,
        ending: document.getElementById("ending").textContent,
        review: document.getElementById("review").textContent,
        badges: [...document.querySelectorAll("#events .badge")].map((b) => b.textContent),
        position: document.getElementById("position").textContent,
    })"""
    )


def expected(game: Game, number: int, seat: str | None) -> list[dict[str, Any]]:
    """The same facts from the hand's engine replay (from a seat: that player's view)."""
    hand = next(h for h in game.hands if h.number == number)
    moments = []
    for step, state in hand.replay():
        score = " · ".join(f"{team} {points}" for team, points in state.score.items())
        seats = []
        for player in game.players:
            view = state.view(player)
            if seat is None or player == seat:
                cards = [None if c is None else str(c) for c in view.cards]
            else:
                cards = [None] * state.view(seat).held[player]
            seats.append({"name": player, "cards": cards})
        moments.append(
            {
                "line": step.line,
                "trick": [str(card) for _, card in state.trick],
                "seats": seats,
                "score": f"Score {score} (target {game.rules.target})",
            }
        )
    return moments


def step_through(page: Page, moments: list[dict[str, Any]], tap: bool) -> list[dict[str, Any]]:
    """Every step from the first, by the right arrow key (or a tap on the step button)."""
    seen = []
    for i, moment in enumerate(moments):
        if i:
            if tap:
                page.tap("#forward")
            else:
                page.keyboard.press("ArrowRight")
        now = shown(page)
        assert now["position"] == f"step {i + 1} / {len(moments)}"
        assert now["event"].startswith(f"line {moment['line']}: ")
        assert now["trick"] == moment["trick"], now
        assert now["seats"] == moment["seats"], now
        assert now["score"] == moment["score"]
        seen.append(now)
    return seen


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_shared_hand_replays_offline_as_the_engine_does(
    browser: Browser, tmp_path: Path, device: str
) -> None:
    game = cafe()
    path = share_file(game, 2, output=tmp_path / "hand.html")
    context = browser.new_context(**(PHONE_CONTEXT if device == "phone" else DESKTOP))
    try:
        opened = Offline(context, path)
        page = opened.page
        seen = step_through(page, expected(game, 2, None), tap=device == "phone")
        # the hand as docs/api.md tells it: Marc leads Td, Ana takes it with As, raises, Marc folds
        events = [s["event"] for s in seen]
        assert events[3:7] == [
            "line 15: Marc plays Td",
            "line 16: Ana plays As",
            "line 17: Ana raises to 2",
            "line 18: Marc folds",
        ]
        assert seen[3]["trick"] == ["Td"] and seen[4]["trick"] == []
        assert seen[4]["tricks"] == ["10♦MarcA♠Ana→ Ana"]
        assert seen[2]["seats"][0]["cards"] == ["8s", "As", "Kh"]
        assert seen[-1]["score"] == "Score Ana 1 · Marc 2 (target 12)"
        assert seen[-1]["ending"] == "Ana wins 1 on a fold"
        reviews = [step["review"] for step in page_data(game, 2)["hands"][0]["steps"]]
        assert [s["review"] for s in seen] == [r["text"] if r else "" for r in reviews]
        assert seen[0]["badges"] == [r["grade"] for r in reviews if r]
        assert seen[4]["review"] == "unsound on what Ana could know"  # Ana's As, line 16
        page.keyboard.press("Home")
        assert shown(page)["position"] == "step 1 / 8"
        page.keyboard.press("End")
        assert shown(page)["position"] == "step 8 / 8"
        page.keyboard.press("ArrowRight")  # past the end: stays
        assert shown(page)["position"] == "step 8 / 8"
        if device == "phone":
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], "the page is wider than the phone"
            size = page.evaluate(
                "parseFloat(getComputedStyle(document.getElementById('event')).fontSize)"
            )
            assert size >= 14
            assert page.locator("meta[name=viewport]").count() == 1
        assert opened.blocked == [] and opened.problems == []
    finally:
        context.close()


def test_a_seats_page_shows_the_others_cards_face_down(browser: Browser, tmp_path: Path) -> None:
    game = cafe()
    path = share_file(game, 1, seat="Ana", output=tmp_path / "ana.html")
    context = browser.new_context(**DESKTOP)
    try:
        opened = Offline(context, path)
        seen = step_through(opened.page, expected(game, 1, "Ana"), tap=False)
        assert seen[0]["seats"] == [
            {"name": "Ana", "cards": ["7h", "Qs", "9s"]},
            {"name": "Marc", "cards": [None, None, None]},
        ]
        assert opened.blocked == [] and opened.problems == []
    finally:
        context.close()


def test_a_whole_game_moves_hand_by_hand(browser: Browser, tmp_path: Path) -> None:
    game = cafe()
    path = share_file(game, output=tmp_path / "game.html")
    context = browser.new_context(**DESKTOP)
    try:
        page = Offline(context, path).page
        label = page.locator("#hand-label")
        assert label.text_content() == "hand 1 (1 / 15)"
        page.keyboard.press("PageDown")
        assert label.text_content() == "hand 2 (2 / 15)"
        step_through(page, expected(game, 2, None), tap=False)
        page.click("#next-hand")
        page.click("#previous-hand")
        page.click("#previous-hand")
        assert label.text_content() == "hand 1 (1 / 15)"
        page.locator("#events li").nth(4).click()
        assert shown(page)["position"] == "step 5 / 10"
    finally:
        context.close()


def test_a_hostile_name_or_note_stays_text(browser: Browser, tmp_path: Path) -> None:
    game = next(read_games(hostile_log(tmp_path / "hostile.truclog.jsonl")))
    path = share_file(game, 1, output=tmp_path / "hostile.html")
    context = browser.new_context(**DESKTOP)
    try:
        opened = Offline(context, path)
        page = opened.page
        page.keyboard.press("ArrowRight")
        assert page.locator("#seats .seat .who").first.text_content().startswith(HOSTILE)
        assert page.locator("#game").text_content() == '"><svg onload=alert(3)>'
        assert page.locator("#note").text_content() == "✎ ]]></style>{{ 7*7 }}"
        assert page.locator("#marks .mark").all_text_contents() == ["<b onclick=alert(4)>x</b>"]
        assert page.locator("b").count() == 0
        assert page.locator("img, svg, iframe").count() == 0
        assert page.locator("script").count() == 2
        assert opened.dialogs == [] and opened.blocked == [] and opened.problems == []
    finally:
        context.close()
