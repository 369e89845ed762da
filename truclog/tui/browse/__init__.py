"""``truclog browse``: games, hands, a step-by-step replay and player statistics.

>>> from truclog.tui.browse import BrowseApp
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from truclog.solver.bluff import BLUFF_THRESHOLD

if TYPE_CHECKING:
    from truclog.tui.browse.app import BrowseApp

__all__ = ["BLUFF_THRESHOLD", "BrowseApp"]


def __getattr__(name: str) -> Any:
    """``BrowseApp`` is imported when asked for: the browser's index process and
    ``truclog show`` read logs with this package without starting Textual."""
    if name == "BrowseApp":
        from truclog.tui.browse.app import BrowseApp

        return BrowseApp
    raise AttributeError(name)
