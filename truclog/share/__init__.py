"""A game shown to someone who has no truclog: a replay page, a rubber's result card.

:mod:`truclog.share.moments` turns a hand's replay into what each step shows (from a
seat, only what that seat saw), :mod:`truclog.share.masks` hides names and unseen
cards, :mod:`truclog.share.page` writes one self-contained HTML file, and
:mod:`truclog.share.result` draws a rubber's result card (with matplotlib).
"""

from __future__ import annotations

from truclog.codes import Tool
from truclog.errors import TruclogError


class ShareError(TruclogError):
    """A share of something the logs do not hold: no such game, hand, seat or rubber."""

    code = Tool.SHARE


__all__ = ["ShareError"]
