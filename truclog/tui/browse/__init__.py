"""``truclog browse``: games, hands, a step-by-step replay and player statistics.

>>> from truclog.tui.browse import BrowseApp
"""

from truclog.tui.browse.app import BrowseApp

__all__ = ["BrowseApp"]
