"""Widgets shared by the Textual apps: they draw an engine ``State`` and know nothing else;
and the page of help both apps open over themselves.

>>> from truclog.tui.widgets import HelpPage, TableView, card_text
"""

from truclog.tui.widgets.cards import card_text, cards_text
from truclog.tui.widgets.help import HelpPage
from truclog.tui.widgets.table import TableView, held_cards, table_renderable

__all__ = ["HelpPage", "TableView", "card_text", "cards_text", "held_cards", "table_renderable"]
