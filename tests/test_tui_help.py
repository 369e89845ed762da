"""Both apps' help pages: their text over the app, closed with escape, q or the app's help key."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.screen import ModalScreen
from textual.widgets import Markdown

from truclog.tui.browse.screens.help import HelpScreen as BrowseHelp
from truclog.tui.record.screens.help import HelpScreen as RecordHelp


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
    app: App[None] = App()
    async with app.run_test() as pilot:
        app.push_screen(help_screen())
        await pilot.pause()
        assert isinstance(app.screen, help_screen)
        await pilot.press(key)
        await pilot.pause()
        assert not isinstance(app.screen, help_screen)


@pytest.mark.parametrize(
    ("help_screen", "heading"),
    [(BrowseHelp, "truclog browse"), (RecordHelp, "Recording a game")],
)
async def test_help_shows_the_apps_own_text(
    help_screen: type[ModalScreen[None]], heading: str
) -> None:
    app: App[None] = App()
    async with app.run_test() as pilot:
        app.push_screen(help_screen())
        await pilot.pause()
        assert heading in app.screen.query_one(Markdown).source
