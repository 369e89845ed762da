"""Both apps' help pages: their text over the app, closed with escape, q or the app's help key."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Markdown

from truclog.tui.browse.screens.help import BrowseHelpScreen as BrowseHelp
from truclog.tui.record.screens.help import RecordHelpScreen as RecordHelp


@asynccontextmanager
async def showing(help_screen: type[ModalScreen[None]]) -> AsyncIterator[Pilot[None]]:
    """An app with ``help_screen`` open over it."""
    app: App[None] = App()
    async with app.run_test() as pilot:
        app.push_screen(help_screen())
        await pilot.pause()
        yield pilot


@pytest.mark.parametrize(
    ("help_screen", "key"),
    [
        (BrowseHelp, "escape"),
        (BrowseHelp, "q"),
        (BrowseHelp, "question_mark"),
        (RecordHelp, "escape"),
        (RecordHelp, "q"),
        (RecordHelp, "f1"),
    ],
)
async def test_help_closes_with_escape_q_or_the_apps_help_key(
    help_screen: type[ModalScreen[None]], key: str
) -> None:
    async with showing(help_screen) as pilot:
        assert isinstance(pilot.app.screen, help_screen)
        await pilot.press(key)
        await pilot.pause()
        assert not isinstance(pilot.app.screen, help_screen)


@pytest.mark.parametrize(
    ("help_screen", "heading"),
    [(BrowseHelp, "truclog browse"), (RecordHelp, "Recording a game")],
)
async def test_help_shows_the_apps_own_text(
    help_screen: type[ModalScreen[None]], heading: str
) -> None:
    async with showing(help_screen) as pilot:
        assert heading in pilot.app.screen.query_one(Markdown).source
