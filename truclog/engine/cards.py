"""Cards: ranks, parsing and printing, decks.

Suits never matter in play; they only make a card unique. A card may be noted
without its suit, and a dealt card may be unseen (``"??"``, parsed as ``None``).

>>> parse_card("10h")
Card('T', 'h')
>>> str(parse_card("qS"))
'Qs'
>>> parse_card("7")
Card('7', None)
>>> parse_dealt("??") is None
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from truclog.errors import CardError

RANKS = "6789TJQKA"
SUITS = "cdhs"
UNSEEN = "??"


class Card(NamedTuple):
    """A card: an upper-case rank from ``RANKS`` and a lower-case suit or ``None``.

    A named tuple, so that hashing and comparing cards, the engine's most frequent
    operations, run at C speed.
    """

    rank: str
    suit: str | None = None

    def __str__(self) -> str:
        return self.rank + (self.suit or "")

    def __repr__(self) -> str:
        return f"Card({self.rank!r}, {self.suit!r})"

    def matches(self, other: Card) -> bool:
        """True when both could be the same physical card.

        >>> Card("Q").matches(Card("Q", "s")), Card("Q", "h").matches(Card("Q", "s"))
        (True, False)
        """
        if self.rank != other.rank:
            return False
        return self.suit is None or other.suit is None or self.suit == other.suit


@lru_cache(maxsize=512)
def parse_card(text: str) -> Card:
    """Parse a known card: a rank (``10`` for ``T`` accepted) and an optional suit.

    >>> parse_card("Ts") == parse_card("10S")
    True
    >>> parse_card("1s")
    Traceback (most recent call last):
    ...
    truclog.errors.CardError: '1s' is not a card: expected a rank of 6789TJQKA and an optional suit of cdhs
    """
    body = text.strip()
    if body.startswith("10"):
        body = "T" + body[2:]
    rank = body[:1].upper()
    suit = body[1:].lower() or None
    if len(body) not in (1, 2) or rank not in RANKS or (suit is not None and suit not in SUITS):
        if body == UNSEEN:
            raise CardError(f"'{text}' is an unseen card; a known card is needed here")
        raise CardError(
            f"'{text}' is not a card: expected a rank of {RANKS} and an optional suit of {SUITS}"
        )
    return Card(rank, suit)


@lru_cache(maxsize=512)
def parse_dealt(text: str) -> Card | None:
    """Parse a dealt card, where ``"??"`` (unseen) gives ``None``."""
    return None if text.strip() == UNSEEN else parse_card(text)


def format_card(card: Card | None) -> str:
    """Print a card as writers emit it; ``None`` is the unseen card ``"??"``."""
    return UNSEEN if card is None else str(card)


def deck(order: str) -> list[Card]:
    """Every card of a deck whose ranks are ``order``: four suits of each rank.

    >>> len(deck("78AKQJT9")), len(deck("76AKQJT98"))
    (32, 36)
    """
    return [Card(rank, suit) for rank in order for suit in SUITS]
