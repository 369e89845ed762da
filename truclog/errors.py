"""The errors truclog raises: a small hierarchy under :class:`ValueError`.

Every error carries a stable ``code`` (listed in ``docs/validation.md``) so that
the validator, the recorder and scripts can tell mistakes apart without parsing
messages.

>>> from truclog.errors import CardError
>>> issubclass(CardError, ValueError)
True
"""

from __future__ import annotations

from truclog.codes import Code, Read
from truclog.terminal import printable


def reason(exc: BaseException) -> str:
    """Why an operation failed, never empty: an ``OSError``'s own words (``No space left
    on device``), else what the error says, else its kind.

    >>> reason(OSError(28, "No space left on device")), reason(OSError()), reason(ValueError("bad"))
    ('No space left on device', 'OSError', 'bad')
    """
    text = getattr(exc, "strerror", None) or str(exc)
    return text or type(exc).__name__


class TruclogError(ValueError):
    """Base class of every error truclog raises on bad input."""

    code: str = Read.UNREADABLE

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        """The message, without the code."""
        return str(self.args[0]) if self.args else ""


class CardError(TruclogError):
    """A card string that does not name a card (``"1x"``, ``"Z"``)."""

    code = Code.CARD_NOT_IN_DECK


class RulesError(TruclogError):
    """An unknown preset name or a rule override that makes no sense."""

    code = Code.BAD_RULES


class IllegalActionError(TruclogError):
    """An action the rules do not allow in the current state.

    ``code`` says which rule was broken; the message names it in the game's terms.
    """

    code = Code.ILLEGAL


class PathError(TruclogError):
    """A path that cannot be read as a log (missing, unreadable, a loop of links, not a
    regular file) or written (a full disk, a read-only folder). ``path`` is the path,
    ``reason`` why (the message without the path)."""

    code = Read.UNREADABLE

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{printable(path)}: {reason}")
        self.path = path
        self.reason = reason
