"""Widgets shared by the Textual apps: they draw an engine ``State`` and know nothing else;
and the page of help both apps open over themselves.

Each is imported when asked for: a widget that draws no ``State`` (the browser's
list of rows) comes without the engine.

>>> from truclog.tui.widgets import HelpPage, TableView, card_text
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from truclog.tui.widgets.cards import card_text, cards_text
    from truclog.tui.widgets.help import HelpPage
    from truclog.tui.widgets.table import TableView, held_cards, table_renderable

MODULES = {
    "HelpPage": "help",
    "TableView": "table",
    "card_text": "cards",
    "cards_text": "cards",
    "held_cards": "table",
    "table_renderable": "table",
}
"""The module of each name."""

__all__ = ["HelpPage", "TableView", "card_text", "cards_text", "held_cards", "table_renderable"]


def __getattr__(name: str) -> Any:
    if name not in MODULES:
        raise AttributeError(name)
    return getattr(importlib.import_module(f"{__name__}.{MODULES[name]}"), name)
