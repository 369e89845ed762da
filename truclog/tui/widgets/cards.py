"""Cards as coloured text: face up, face down, revealed later.

>>> from truclog.engine.cards import Card
>>> card_text(Card("7", "h")).plain, card_text(Card("Q")).plain, card_text(None).plain
('7♥', 'Q ', '▒▒')
>>> cards_text([Card("A", "s"), None]).plain
'A♠ ▒▒'
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from truclog.engine.cards import Card

SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
RED_SUITS = {"d", "h"}
FACE_DOWN = "▒▒"

CARD_STYLE = "bold black on #f4f1e6"
RED_STYLE = "bold #c0392b on #f4f1e6"
LATER_STYLE = "italic #5d4b8a on #e4def0"
DOWN_STYLE = "#3b5b7a on #1e3a55"


def card_label(card: Card) -> str:
    """Two characters: the rank and the suit symbol (a space for an unknown suit).

    >>> card_label(Card("T", "d"))
    'T♦'
    """
    return card.rank + (SUIT_SYMBOLS[card.suit] if card.suit else " ")


def card_text(card: Card | None, later: bool = False) -> Text:
    """A card face up, face down (``None``), or in the style of a card the log reveals later."""
    if card is None:
        return Text(FACE_DOWN, style=DOWN_STYLE)
    if later:
        return Text(card_label(card), style=LATER_STYLE)
    style = RED_STYLE if card.suit in RED_SUITS else CARD_STYLE
    return Text(card_label(card), style=style)


def cards_text(cards: Iterable[Card | None], later: Iterable[bool] = ()) -> Text:
    """Cards side by side, one space apart; ``later`` marks cards revealed later."""
    flags = list(later)
    pieces = [
        card_text(card, flags[i] if i < len(flags) else False) for i, card in enumerate(cards)
    ]
    return Text(" ").join(pieces)
