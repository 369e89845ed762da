"""Widgets shared by the Textual apps: they draw an engine ``State`` and know nothing else.

>>> from truclog.tui.widgets import TableView, card_text
"""

from truclog.tui.widgets.cards import card_text, cards_text
from truclog.tui.widgets.table import TableView, held_cards, table_renderable

__all__ = ["TableView", "card_text", "cards_text", "held_cards", "table_renderable"]
