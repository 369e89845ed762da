"""Helpers of the recorder's TUI tests: type an entry, read the message line."""

from __future__ import annotations

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, Static


async def enter(pilot: Pilot, text: str) -> None:
    """Put an entry in the focused input line and press Enter."""
    focused = pilot.app.focused
    assert isinstance(focused, Input)
    focused.value = text
    await pilot.press("enter")
    await pilot.pause()


def message(app: App) -> str:
    """The record screen's message line."""
    return str(app.screen.query_one("#message", Static).render())


async def steady(pilot: Pilot) -> None:
    """No blinking cursor, so that a snapshot does not depend on when it is taken."""
    await pilot.pause()
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()
