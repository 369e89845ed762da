"""Simulated logs of every kind a log holds, for the differential tests of statistics.

:func:`mixed_log` writes one log of games of a preset as the simulator writes them
in four ways one after another: plain; with hidden deals, timestamps and the styles
of a bluffer and a calling station; all deals hidden, notes, and teams with four
players; and random play with marks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from truclog.simulate.bots import STYLES
from truclog.simulate.run import Simulation, simulate_to


def mixed_log(
    folder: Path,
    preset: str | dict[str, object],
    players: tuple[str, ...],
    games: tuple[int, int, int, int] = (4, 4, 3, 3),
) -> Path:
    """``folder``/simulated.truclog.jsonl: ``games`` games of ``preset`` each way."""
    teams = ("nous", "eux") if len(players) == 4 else None
    styles = {players[0]: STYLES["bluffer"], players[1]: STYLES["calling-station"]}
    ways: list[dict[str, Any]] = [
        {},
        {"hidden": 0.3, "timestamps": True, "styles": styles},
        {"hidden": 1.0, "notes": 0.3, "teams": teams},
        {"hidden": 0.2, "default_style": STYLES["random"], "annotate": True},
    ]
    path = folder / "simulated.truclog.jsonl"
    with path.open("wb") as out:
        for n, (way, count) in enumerate(zip(ways, games, strict=True)):
            part = folder / f"part-{n}.truclog.jsonl"
            simulate_to(
                Simulation(games=count, seed=7 + n, rules=preset, players=players, **way), part
            )
            out.write(part.read_bytes())
    return path
