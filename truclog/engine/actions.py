"""The actions of a hand, as frozen records.

An action says who did what; the engine decides whether it is legal. ``cards``
of a :class:`Deal` maps players to their three cards, ``None`` for an unseen
card; a player left out was dealt three unseen cards.

>>> str(Raise("Ana", to=2)), str(Raise("Ana", reste=True)), str(Play("Marc", Card("7", "h")))
('Ana raises to 2', 'Ana raises: reste', 'Marc plays 7h')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from truclog.engine.cards import Card, format_card
from truclog.engine.records import Reduced, rebuilt


@dataclass(frozen=True, slots=True)
class Deal:
    """A deal of a hand by ``dealer``: each player's cards as far as known (``None``
    unseen)."""

    dealer: str
    cards: tuple[tuple[str, tuple[Card | None, ...]], ...] = ()
    hand: int | None = None

    @classmethod
    def of(
        cls,
        dealer: str,
        cards: Mapping[str, Sequence[Card | None]] | None = None,
        hand: int | None = None,
    ) -> Deal:
        """Build a deal from a mapping of player -> cards."""
        held = tuple((p, tuple(c)) for p, c in (cards or {}).items())
        return cls(dealer, held, hand)

    def cards_of(self, player: str) -> tuple[Card | None, ...]:
        """The cards dealt to ``player`` (three unseen when the deal leaves the player out)."""
        for name, cards in self.cards:
            if name == player:
                return cards
        return (None, None, None)

    def __str__(self) -> str:
        shown = "; ".join(f"{p}: {' '.join(map(format_card, c))}" for p, c in self.cards)
        return f"{self.dealer} deals" + (f" ({shown})" if shown else "")

    def __reduce__(self) -> Reduced:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Redeal:
    """The non-dealer asks for a new deal; ``accepted`` is the dealer's answer."""

    player: str
    accepted: bool

    def __str__(self) -> str:
        return f"{self.player} asks for a redeal ({'granted' if self.accepted else 'refused'})"

    def __reduce__(self) -> Reduced:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Raise:
    """A raise to ``to``, or with ``reste=True`` to the raiser's remainder."""

    player: str
    to: int | None = None
    reste: bool = False

    def __str__(self) -> str:
        return (
            f"{self.player} raises: reste" if self.reste else f"{self.player} raises to {self.to}"
        )

    def __reduce__(self) -> Reduced:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Accept:
    """``player`` accepts the pending raise."""

    player: str

    def __str__(self) -> str:
        return f"{self.player} accepts"

    def __reduce__(self) -> Reduced:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Fold:
    """``player`` folds: the hand goes to the other side."""

    player: str

    def __str__(self) -> str:
        return f"{self.player} folds"

    def __reduce__(self) -> Reduced:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Play:
    """``player`` plays ``card`` to the trick."""

    player: str
    card: Card

    def __str__(self) -> str:
        return f"{self.player} plays {self.card}"

    def __reduce__(self) -> Reduced:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Show:
    """Cards a player still held, shown after the hand ended."""

    player: str
    cards: tuple[Card, ...] = field(default=())

    def __str__(self) -> str:
        return f"{self.player} shows {' '.join(map(str, self.cards))}"

    def __reduce__(self) -> Reduced:
        return rebuilt(self)


Action = Deal | Redeal | Raise | Accept | Fold | Play | Show


@dataclass(frozen=True, slots=True)
class RaiseRange:
    """The plain raises a player may make now: to any value from ``low`` to ``high``
    (``None``: no upper limit); one value under ``raises: double``.

    ``listed`` is the highest value :meth:`~truclog.engine.state.State.legal_actions`
    lists: ``high``, or with no limit the target when it is above ``low``.

    >>> span = RaiseRange("Ana", 2, None, 12)
    >>> str(span), 40 in span, 1 in span, [r.to for r in span.listed_raises()][-1]
    ('Ana raises to 2 or more', True, False, 12)
    >>> str(RaiseRange("Ana", 4, 4, 4))
    'Ana raises to 4'
    """

    player: str
    low: int
    high: int | None
    listed: int

    def __contains__(self, to: object) -> bool:
        return isinstance(to, int) and self.low <= to and (self.high is None or to <= self.high)

    def listed_raises(self) -> list[Raise]:
        """The raises from ``low`` to ``listed``, as legal actions."""
        return [Raise(self.player, to=to) for to in range(self.low, self.listed + 1)]

    def words(self, low: int | None = None) -> str:
        """The values from ``low`` (this range's lowest by default) as a player reads
        them at once: the one value, or the lowest then ``or more``, and the highest
        only when something limits the raise.

        >>> RaiseRange("Ana", 2, 6, 6).words(), RaiseRange("Ana", 2, None, 12).words(3)
        ('2 or more, up to 6', '3 or more')
        """
        low = self.low if low is None else low
        if self.high == low:
            return f"{low}"
        return f"{low} or more" if self.high is None else f"{low} or more, up to {self.high}"

    def __str__(self) -> str:
        return f"{self.player} raises to {self.words()}"

    def __reduce__(self) -> Reduced:
        return rebuilt(self)
