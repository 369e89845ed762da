"""What each player holds in a deal, when some cards are unseen or noted without a suit.

A player is dealt three cards, each known (``"7h"``), known by rank only (``"7"``)
or unseen (``None``). Cards are revealed later, played or shown, again with or
without a suit. Which dealt card a revealed card is may be open: a rank-only ``T``
played from ``[Td, ??, ??]`` is the ``Td`` or one of the unseen cards. A
:class:`Holding` keeps the revealed cards and one way of placing them on the dealt
cards; placing a new card re-examines every way, cheapest first (fewest cards
taken from the unseen ones), and keeps the first the deal allows (no card twice,
at most four of a rank).

>>> from truclog.engine.cards import Card
>>> held = Holding((Card("T", "d"), None, None))
>>> held.reveal(Card("T"), True, held.place(Card("T")))
>>> held.slot_of, held.known, held.unseen
([0], [], 2)
>>> no_second_td = lambda cards: "twice" if cards.count(Card("T", "d")) > 1 else None
>>> held.place(Card("T", "d"), check=no_second_td)
[1, 0]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import permutations
from typing import Any

from truclog.engine.cards import Card

DealCheck = Callable[[list[Card]], str | None]
"""Checks the known cards of one holding against the rest of the deal: a problem or None."""


def merged(dealt: Card | None, revealed: Card | None) -> Card | None:
    """What is known of one physical card from its dealt and revealed notes."""
    if revealed is None or (dealt is not None and revealed.suit is None):
        return dealt
    return revealed


def fits(revealed: Card, dealt: Card | None) -> bool:
    """Whether a revealed card can be the dealt one."""
    return dealt is None or dealt.matches(revealed)


class Holding:
    """One player's three dealt cards and the cards revealed from them, in order."""

    __slots__ = ("dealt", "played", "revealed", "slot_of")

    def __init__(self, dealt: Sequence[Card | None] = ()) -> None:
        self.dealt: tuple[Card | None, ...] = tuple(dealt)
        self.revealed: list[Card] = []
        self.played: list[bool] = []
        self.slot_of: list[int] = []

    def __reduce__(self) -> tuple[Callable[..., Holding], tuple[Any, ...]]:
        return _holding_from, (self.dealt, self.revealed, self.played, self.slot_of)

    def copy(self) -> Holding:
        """A copy that can be changed without touching this holding."""
        new = Holding.__new__(Holding)
        new.dealt = self.dealt
        new.revealed = list(self.revealed)
        new.played = list(self.played)
        new.slot_of = list(self.slot_of)
        return new

    # --- what is in hand -------------------------------------------------------

    def cards(self, slot_of: Sequence[int] | None = None) -> list[Card | None]:
        """Each dealt card as far as it is known (dealt and revealed notes merged)."""
        slots = self.slot_of if slot_of is None else slot_of
        cards = list(self.dealt)
        for card, slot in zip(self.revealed, slots, strict=False):
            cards[slot] = merged(cards[slot], card)
        return cards

    def in_hand(self) -> list[Card | None]:
        """The cards still in hand as far as they are known (``None`` for an unseen card)."""
        played = {slot for slot, gone in zip(self.slot_of, self.played, strict=True) if gone}
        return [card for slot, card in enumerate(self.cards()) if slot not in played]

    @property
    def known(self) -> list[Card]:
        """The cards still held that are known (at least by rank)."""
        return [card for card in self.in_hand() if card is not None]

    @property
    def unseen(self) -> int:
        """How many cards still held are unseen."""
        return sum(card is None for card in self.in_hand())

    def __len__(self) -> int:
        return len(self.dealt) - sum(self.played)

    # --- revealing -------------------------------------------------------------

    def ways(self, card: Card) -> Iterator[list[int]]:
        """Every placement of the revealed cards plus ``card``, cheapest first."""
        cards = [*self.revealed, card]
        options: list[tuple[int, list[int]]] = []
        for slots in permutations(range(len(self.dealt)), len(cards)):
            if all(fits(c, self.dealt[s]) for c, s in zip(cards, slots, strict=True)):
                cost = sum(self.dealt[s] is None for s in slots)
                options.append((cost, list(slots)))
        options.sort(key=lambda option: option[0])
        return (slots for _, slots in options)

    def place_dealt(self, card: Card) -> list[int] | None:
        """The placement with ``card`` as the very card dealt, if it was dealt and is still held.

        Such a card takes no unseen card and adds none to the deal, so no check is needed.
        """
        for index, dealt in enumerate(self.dealt):
            if dealt == card and index not in self.slot_of:
                return [*self.slot_of, index]
        return None

    def place(self, card: Card, check: DealCheck | None = None) -> list[int] | None:
        """A placement with ``card`` revealed that ``check`` allows, or None if there is none.

        Does not change the holding: :meth:`reveal` does, with the placement found.
        """
        exact = self.place_dealt(card)
        if exact is not None:
            return exact
        if not any(self.dealt):
            free = [i for i in range(len(self.dealt)) if i not in self.slot_of]
            options: Iterable[list[int]] = [[*self.slot_of, free[0]]] if free else []
        else:
            options = self.ways(card)
        for slots in options:
            if check is None or check(self._known_after(card, slots)) is None:
                return slots
        return None

    def problem(self, card: Card, check: DealCheck) -> str | None:
        """Why no placement works: the deal's objection to the cheapest one."""
        for slots in self.ways(card):
            return check(self._known_after(card, slots))
        return None

    def reveal(self, card: Card, played: bool, slots: list[int]) -> None:
        """Mark ``card`` revealed in ``slots`` (found by :meth:`place`), played or shown."""
        self.revealed.append(card)
        self.played.append(played)
        self.slot_of = slots

    def shown_already(self, card: Card) -> bool:
        """Whether ``card`` was shown before, as the same note: a second show of it."""
        return any(c == card and not p for c, p in zip(self.revealed, self.played, strict=True))

    def physical(self) -> list[Card]:
        """Every dealt card known so far, held or played."""
        return [card for card in self.cards() if card is not None]

    def _known_after(self, card: Card, slots: list[int]) -> list[Card]:
        cards = list(self.dealt)
        for revealed, slot in zip([*self.revealed, card], slots, strict=True):
            cards[slot] = merged(cards[slot], revealed)
        return [c for c in cards if c is not None]


def _holding_from(
    dealt: tuple[Card | None, ...], revealed: list[Card], played: list[bool], slot_of: list[int]
) -> Holding:
    """A holding made again from its parts (see :meth:`Holding.__reduce__`)."""
    holding = Holding(dealt)
    holding.revealed, holding.played, holding.slot_of = revealed, played, slot_of
    return holding


class DealCount:
    """The cards of one deal counted as they come: no card twice, at most four of a rank.

    >>> counted = DealCount("78AKQJT9")
    >>> counted.add(Card("7", "h")), counted.add(Card("7", "h")), counted.add(Card("6"))
    (None, 'twice:7h', 'deck:6')
    """

    __slots__ = ("counts", "seen")

    def __init__(self, order: str, cards: Iterable[Card] = ()) -> None:
        self.seen: set[Card] = set()
        self.counts = dict.fromkeys(order, 0)
        for card in cards:
            self.add(card)

    def add(self, card: Card) -> str | None:
        """Count one more card; what is wrong with it, or None."""
        rank, counts = card.rank, self.counts
        if rank not in counts:
            return f"deck:{card}"
        if card.suit is not None:
            if card in self.seen:
                return f"twice:{card}"
            self.seen.add(card)
        counts[rank] += 1
        return f"fifth:{rank}" if counts[rank] > 4 else None


def deal_problem(cards: Iterable[Card], order: str) -> str | None:
    """What is wrong with these physical cards of one deal, or None.

    >>> deal_problem([Card("7", "h"), Card("7", "h")], "78AKQJT9")
    'twice:7h'
    >>> deal_problem([Card("7")] * 5, "78AKQJT9")
    'fifth:7'
    """
    counted = DealCount(order)
    for card in cards:
        problem = counted.add(card)
        if problem is not None:
            return problem
    return None
