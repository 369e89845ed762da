"""truclog/1 action lines as dicts, for tests that write logs by hand."""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]


def play(player: str, card: str) -> Event:
    return {"type": "play", "player": player, "card": card}


def raise_(player: str, to: int) -> Event:
    return {"type": "raise", "player": player, "to": to}


def reste(player: str) -> Event:
    return {"type": "raise", "player": player, "reste": True}


def accept(player: str) -> Event:
    return {"type": "accept", "player": player}


def fold(player: str) -> Event:
    return {"type": "fold", "player": player}
