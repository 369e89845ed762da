"""Copies of a game: the same play logged twice, found by the game's fingerprint.

Two logs of the same play differ in what the validator ignores: key order and
spacing, notes and marks, ``_`` extension fields, and the claims (``result``, ``game_end``).
Each line is compared without them (:func:`comparable`, :func:`compared`), and a
game's :func:`fingerprint` is that of its lines so compared: a game whose fingerprint
was seen before in the run is a copy (:func:`duplicate_warning`), and statistics
count it once.

>>> seen = {}
>>> duplicate_warning(seen, "f00d", "a.jsonl", 1, "g1") is None
True
>>> print(duplicate_warning(seen, "f00d", "b.jsonl", 30, "g7"))
b.jsonl:30: W802 game g7 is a copy of the game at a.jsonl:1 (the same play); statistics count it once
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

try:  # what hashlib.blake2b is, without the start-up of hashlib (which loads OpenSSL)
    from _blake2 import blake2b
except ImportError:  # another Python than CPython
    from hashlib import blake2b

from truclog.codes import Check
from truclog.diagnostic import WARNING, Diagnostic

if TYPE_CHECKING:
    from truclog.format.reader import LogLine

_ANNOTATIONS = ("t", "note", "marks")
"""What a line says about the play without being the play: its time, note and marks."""

_CLAIM_TYPES = frozenset({"result", "game_end"})
"""Lines that claim what the play came to: left out when comparing games for duplicates."""


def comparable(data: Any) -> bytes:
    """A parsed line as duplicates compare it: sorted keys, without ``t``, ``note``,
    ``marks`` or ``_`` extension fields (what the validator ignores but for its checks).

    >>> comparable({"type": "fold", "t": "2026-11-29T20:14:03Z", "player": "Ana", "_ms": 5})
    b'{"player":"Ana","type":"fold"}'
    """
    if isinstance(data, dict):
        data = played(data)
    # orjson's bytes keep its 4 KiB buffer: a line kept for its game holds a tight copy
    return bytes(memoryview(orjson.dumps(data, option=orjson.OPT_SORT_KEYS)))


def played(data: dict[str, Any], but: str | None = None) -> dict[str, Any]:
    """The fields of a line that say what was played (less ``but``)."""
    return {k: v for k, v in data.items() if k not in _ANNOTATIONS and k != but and k[:1] != "_"}


def compared(line: LogLine) -> list[bytes]:
    """What a line adds to its game's fingerprint: the line as duplicates compare it and
    its time; nothing for a claim (``result``, ``game_end``)."""
    kind = line.type
    if kind is None:
        return [_comparable_raw(line.raw)]
    if kind in _CLAIM_TYPES:
        return []
    return [line.comparable] if line.t is None else [line.comparable, line.t.encode()]


def fingerprint(lines: bytes) -> str:
    """A game's fingerprint, from its lines as :func:`compared` gives them, joined by
    newlines: the same play gives the same fingerprint."""
    return fingerprinter(lines).hexdigest()


def fingerprinter(lines: bytes = b"") -> blake2b:
    """A fingerprint made as the lines come: ``update`` it with what :func:`fingerprint`
    joins, and its ``hexdigest()`` is the same."""
    return blake2b(lines, digest_size=16)


def duplicate_warning(
    first_seen: dict[str, tuple[str, int]], fingerprint: str, path: str, line: int, game: str
) -> Diagnostic | None:
    """A warning when a game with this fingerprint was already seen in the run."""
    first = first_seen.setdefault(fingerprint, (path, line))
    if first == (path, line):
        return None
    return Diagnostic(
        path,
        line,
        Check.DUPLICATE,
        WARNING,
        f"game {game} is a copy of the game at {first[0]}:{first[1]} (the same play); "
        "statistics count it once",
        game,
    )


def _comparable_raw(raw: bytes) -> bytes:
    """A line that is not an event as duplicates compare it: key order and spacing aside."""
    try:
        return comparable(orjson.loads(raw))
    except (orjson.JSONDecodeError, orjson.JSONEncodeError):
        return raw.strip()
