"""What a game leaves behind as it is played: its actions or its hands' outcomes, in order.

A :class:`Trail` is a sequence that grows at its end and that copies share: its
items are kept in frozen blocks of :data:`BLOCK`, linked to the block before, and
only the last, open block is a list of its own. Copying a trail copies that block
alone, so a state copied at each hand of a long game (the validator keeps one at
the start of every hand) costs the same at hand 100,000 as at hand 1, and the
copies share the earlier blocks instead of each holding the whole game.

>>> trail = Trail(range(5))
>>> other = trail.copy(); other.append(5)
>>> list(trail), list(other), other[-1], other[1:3], len(other)
([0, 1, 2, 3, 4], [0, 1, 2, 3, 4, 5], 5, [1, 2], 6)
>>> trail == [0, 1, 2, 3, 4], list(reversed(trail))[:2]
(True, [4, 3])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeVar, overload

T = TypeVar("T")

BLOCK = 32
"""Items an open block takes before it is frozen and shared."""


class _Block:
    """A frozen block of items and the block before it; ``end`` counts the items up to
    this block's last."""

    __slots__ = ("before", "end", "items")

    def __init__(self, before: _Block | None, items: tuple[Any, ...], end: int) -> None:
        self.before = before
        self.items = items
        self.end = end


class Trail(Sequence[T]):
    """A sequence that grows at its end, whose copies share all but the open block."""

    __slots__ = ("_frozen", "_open")

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._frozen: _Block | None = None
        self._open: list[T] = []
        for item in items:
            self.append(item)

    def append(self, item: T) -> None:
        """Add ``item`` at the end (a full block is frozen, to be shared by copies)."""
        opened = self._open
        opened.append(item)
        if len(opened) >= BLOCK:
            self._frozen = _Block(self._frozen, tuple(opened), len(self))
            self._open = []

    def copy(self) -> Trail[T]:
        """A trail with the same items that grows apart from this one."""
        new: Trail[T] = Trail()
        new._frozen = self._frozen
        new._open = list(self._open)
        return new

    def _blocks(self) -> list[tuple[Any, ...]]:
        """The frozen blocks, first to last."""
        found = []
        block = self._frozen
        while block is not None:
            found.append(block.items)
            block = block.before
        found.reverse()
        return found

    def __len__(self) -> int:
        frozen = self._frozen
        return (0 if frozen is None else frozen.end) + len(self._open)

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return list(self)[index]
        size = len(self)
        at = index + size if index < 0 else index
        if not 0 <= at < size:
            raise IndexError("trail index out of range")
        start = size - len(self._open)
        if at >= start:
            return self._open[at - start]
        block = self._frozen
        while block is not None:
            first = block.end - len(block.items)
            if at >= first:
                item: T = block.items[at - first]
                return item
            block = block.before
        raise IndexError("trail index out of range")  # pragma: no cover (sizes add up)

    def __iter__(self) -> Iterator[T]:
        for items in self._blocks():
            yield from items
        yield from list(self._open)

    def __reversed__(self) -> Iterator[T]:
        yield from reversed(list(self._open))
        block = self._frozen
        while block is not None:
            yield from reversed(block.items)
            block = block.before

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Trail | list | tuple):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Trail({list(self)!r})"
