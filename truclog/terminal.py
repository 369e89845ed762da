"""Text from logs and file names made safe to print: shown, never obeyed.

A player's name, a note or a file name may hold escape sequences that would move
the cursor, recolour or wipe a terminal, newlines that would split an output line,
or bytes that are not UTF-8 (a file name read through ``surrogateescape``). Each
such character is written out as an escape instead:

>>> printable("Ana\\x1b[2K\\rMarc")
'Ana\\\\x1b[2K\\\\rMarc'
>>> printable("caf\\udce9.jsonl")
'caf\\\\xe9.jsonl'
>>> unicode("caf\\udce9.jsonl")
'caf\\\\xe9.jsonl'
"""

from __future__ import annotations

import re
from typing import Any

_UNSAFE = "[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]"
"""Control characters (C0, DEL, C1), line and paragraph separators, the marks and
overrides that reorder text, and unpaired surrogates: a pattern compiled when a
first text is not plainly printable ASCII (compiling it at start-up cost more than
the rest of this module)."""

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, in a file name
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every character that a terminal would obey written as an escape."""
    if text.isascii() and text.isprintable():  # no control character: nothing to escape
        return text
    return re.sub(_UNSAFE, _escape, text)


def printable_lines(text: str) -> str:
    """``text`` kept in its lines, each made :func:`printable` (a text of several lines
    read from a log: a transcript, a score sheet).

    >>> printable_lines("Ana\\x1b]52;c;aGk=\\x07 wins\\nMarc\\x1b[2J\\n")
    'Ana\\\\x1b]52;c;aGk=\\\\x07 wins\\nMarc\\\\x1b[2J\\n'
    """
    return "\n".join(printable(line) for line in text.split("\n"))


def unicode(text: str) -> str:
    """``text`` as valid Unicode, for JSON: each byte of a file name that was not
    UTF-8 (an unpaired surrogate) written as ``\\xNN``."""
    return re.sub("[\ud800-\udfff]", _escape, text)


def unicode_values(value: Any) -> Any:
    """``value`` (JSON data) with every string made valid Unicode (see :func:`unicode`)."""
    if isinstance(value, str):
        return unicode(value)
    if isinstance(value, dict):
        return {unicode_values(k): unicode_values(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [unicode_values(item) for item in value]
    return value
