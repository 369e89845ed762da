"""truclog/1 action lines as dicts, for tests that write logs by hand."""

from __future__ import annotations

import json
from pathlib import Path
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


def game(id_: str, players: list[str], dealer: str, day: str = "2026-11-29") -> Event:
    """A classic game's ``game`` line."""
    return {"type": "game", "format": "truclog/1", "id": id_, "date": day,
            "rules": "classic", "players": players, "dealer": dealer}  # fmt: skip


def deal(hand: int, dealer: str, cards: dict[str, list[str]]) -> Event:
    return {"type": "deal", "hand": hand, "dealer": dealer, "cards": cards}


def write_events(path: Path, events: list[Event]) -> str:
    """Write the events as a log; its path."""
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events), "utf-8")
    return str(path)
