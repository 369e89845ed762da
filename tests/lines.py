"""truclog/1 lines as dicts, for tests that write logs by hand: the game line, deals,
actions, results and the end of a game, and the log they make."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from truclog.format.header import FORMAT

Event = dict[str, Any]


def game(
    rules: Any = "classic",
    dealer: str = "Marc",
    players: Sequence[str] = ("Ana", "Marc"),
    **more: Any,
) -> Event:
    """A ``game`` line (``more``: its other fields, e.g. ``id``, ``score``, ``teams``);
    ``rules=None`` leaves the field out (the default rules)."""
    event: Event = {"type": "game", "format": FORMAT, "players": list(players), "dealer": dealer}
    if rules is not None:
        event["rules"] = rules
    return {**event, **more}


def deal(
    hand: int, dealer: str = "Marc", cards: dict[str, list[str]] | None = None, **more: Any
) -> Event:
    """A ``deal`` line; ``cards`` maps players to their cards (``??`` unseen)."""
    event: Event = {"type": "deal", "hand": hand, "dealer": dealer, **more}
    if cards is not None:
        event["cards"] = cards
    return event


def redeal(player: str, accepted: bool) -> Event:
    return {"type": "redeal", "player": player, "accepted": accepted}


def show(player: str, cards: list[str]) -> Event:
    return {"type": "show", "player": player, "cards": cards}


def result(winner: str | None, points: int, score: dict[str, int]) -> Event:
    return {"type": "result", "winner": winner, "points": points, "score": score}


def game_end(**fields: Any) -> Event:
    return {"type": "game_end", **fields}


def log_text(lines: Sequence[Event | str]) -> str:
    """The lines as a log's text: dicts as JSON, strings as they are (a broken line)."""
    return "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)


def write_log(path: Path, lines: Sequence[Event | str]) -> str:
    """Write the lines to ``path``; its name as a string."""
    path.write_text(log_text(lines), "utf-8")
    return str(path)


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


def dated_game(id_: str, players: list[str], dealer: str, day: str = "2026-11-29") -> Event:
    """A classic game's ``game`` line with its id and date."""
    return game("classic", dealer, players, id=id_, date=day)


def write_events(path: Path, events: list[Event]) -> str:
    """Write the events as a log; its path."""
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events), "utf-8")
    return str(path)
