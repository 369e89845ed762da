"""A page of help over an app: its text in Markdown, in a box that scrolls."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen


class HelpPage(ModalScreen[None]):
    """Help over the app, closed with escape or q.

    An app's help names its ``TEXT``, the ``BOX_CLASSES`` its stylesheet gives
    the box (``#help-box``), and binds its own help key to close it too.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss", "Close", id="help.close")
    ]
    TEXT: ClassVar[str]
    BOX_CLASSES: ClassVar[str] = ""

    def compose(self) -> ComposeResult:
        from textual.widgets import Markdown  # with its parser, only once help is asked for

        with VerticalScroll(id="help-box", classes=self.BOX_CLASSES):
            yield Markdown(self.TEXT)
