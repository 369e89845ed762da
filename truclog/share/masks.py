"""What a shared page must not say: the players' names (``--mask-names``), and the
cards a seat never saw, wherever free text (a note, a diagnostic) names them.

Names become seats: ``Seat 1`` to ``Seat 4`` in seating order, and in a game of four
the teams ``Seats 1+3`` and ``Seats 2+4``. In free text (the game's id, notes,
diagnostics) every player's and team's name is replaced wherever it stands as a
whole word, in any case, with or without its accents; a nickname or a misspelling
is not recognised.

>>> names = NameMask(("Zoé", "Marc"), ("Zoé", "Marc"))
>>> names.player("Marc"), names.text("zoe-v-marc: Marc bluffs, ZOÉ!")
('Seat 2', 'Seat 1-v-Seat 2: Seat 2 bluffs, Seat 1!')
>>> from truclog.engine.cards import Card
>>> hide_cards("Marc had As and 10h, not Ad; as usual", [Card("A", "s"), Card("T", "h")])
'Marc had ?? and ??, not Ad; as usual'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from truclog.engine.cards import SUITS, Card

SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
HIDDEN = "??"


class NameMask:
    """Player and team names to seats (or kept as they are, when not masking)."""

    __slots__ = ("_folded", "_pattern", "_seats", "masking")

    def __init__(self, players: Sequence[str], teams: Sequence[str], masking: bool = True) -> None:
        self.masking = masking
        seats = {name: f"Seat {i + 1}" for i, name in enumerate(players)}
        if len(players) == 4:
            seats.update({teams[0]: "Seats 1+3", teams[1]: "Seats 2+4"})
        self._seats = seats if masking else {}
        self._folded = {
            form.casefold(): seat for name, seat in self._seats.items() for form in _forms(name)
        }
        words = sorted({f for name in self._seats for f in _forms(name)}, key=len, reverse=True)
        self._pattern = (
            re.compile("|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in words), re.IGNORECASE)
            if words
            else None
        )

    def player(self, name: str) -> str:
        """A player's or team's name as the page shows it."""
        return self._seats.get(name, name)

    def text(self, text: str) -> str:
        """Free text with every name, as a whole word in any case, replaced by its seat."""
        if self._pattern is None:
            return text
        return self._pattern.sub(lambda m: self._folded.get(m.group(0).casefold(), HIDDEN), text)


def _forms(name: str) -> set[str]:
    """A name as written and without its accents (``Zoé``, ``Zoe``)."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return {name, bare}


def _card_words(card: Card) -> list[str]:
    """The ways free text may write ``card``: ``As``, ``AS``, ``A♠``, ``10h`` for ``Th``;
    a card known by rank only stands for every suit, and for its rank alone."""
    ranks = ["10", "T"] if card.rank == "T" else [card.rank]
    suits = [card.suit] if card.suit else list(SUITS)
    words = [r + form for r in ranks for s in suits for form in (s, s.upper(), SUIT_SYMBOLS[s])]
    return words if card.suit else [*words, *ranks]


def hide_cards(text: str, cards: Iterable[Card]) -> str:
    """``text`` with each mention of one of ``cards`` (as a whole word) made ``??``."""
    words = sorted({w for card in cards for w in _card_words(card)}, key=len, reverse=True)
    if not words or not text:
        return text
    pattern = "|".join(re.escape(w) for w in words)
    return re.sub(rf"(?<![\w♣♦♥♠])(?:{pattern})(?![\w♣♦♥♠])", HIDDEN, text)
