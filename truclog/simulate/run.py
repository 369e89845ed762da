"""Many simulated games, or rubbers, streamed out as truclog/1 lines.

>>> sim = Simulation(games=2, seed=7, rules="francais")
>>> lines = [dumps(event) for event in simulate(sim)]
>>> first = orjson.loads(lines[0])
>>> first["type"], first["id"], first["rules"], first["source"]
('game', 'sim7-000001', 'francais', 'simulated')
>>> sum(line.startswith(b'{"type":"game_end"') for line in lines)
2
"""

from __future__ import annotations

import gzip
import random
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from truclog.engine.rules import Rules, get_rules
from truclog.engine.state import Rubber
from truclog.errors import TruclogError, reason
from truclog.format.events import Event, GameEvent, ResultEvent
from truclog.format.scorekeeper import next_game
from truclog.format.writer import dumps
from truclog.simulate.bots import STYLES, Style
from truclog.simulate.table import (
    SimulatedClock,
    SimulatedGame,
    SimulatedTable,
    cards_needed,
    first_game,
)

DEFAULT_START = datetime.fromisoformat("2026-01-02T20:00:00+01:00")
TWO_PLAYERS = ("Ana", "Marc")
GZIP_LEVEL = 3


@dataclass(frozen=True, slots=True)
class Simulation:
    """What to simulate. ``games`` counts rubbers when ``match`` is set; with
    ``hands``, games (or rubbers) go on until that many hands have been played.

    ``rules`` is a preset name or ``{"preset": ..., overrides}`` (a JSON string of
    that object is accepted too); ``styles`` gives some players a style, the
    others play ``default_style``. ``teams`` names the teams of a four-player
    game: seats 1 and 3 first, then seats 2 and 4 (default ``"A+C"`` names).
    """

    games: int = 1
    hands: int | None = None
    seed: int = 0
    rules: str | Mapping[str, Any] = "classic"
    players: tuple[str, ...] = TWO_PLAYERS
    styles: Mapping[str, Style] = field(default_factory=dict)
    default_style: Style = STYLES["balanced"]
    hidden: float = 0.0
    timestamps: bool = False
    start: datetime = DEFAULT_START
    notes: float = 0.0
    annotate: bool = False
    match: bool = False
    teams: tuple[str, ...] | None = None

    def table(self) -> SimulatedTable:
        """The table every game is played at, after checking the settings."""
        rules, label = _rules(self.rules)
        players = tuple(self.players)
        if len(players) not in (2, 4) or len(set(players)) != len(players):
            raise TruclogError(f"a game needs two or four distinct players, not {players}")
        unknown = sorted(set(self.styles) - set(players))
        if unknown:
            raise TruclogError(
                f"a style is given for {', '.join(unknown)}, who is not a player "
                f"({', '.join(players)})"
            )
        for name, value in (("hidden", self.hidden), ("notes", self.notes)):
            if not 0.0 <= value <= 1.0:
                raise TruclogError(f"{name} is a fraction between 0 and 1, not {value}")
        if self.games < 0 or (self.hands or 0) < 0:
            raise TruclogError("the number of games or hands cannot be negative")
        needed, deck = cards_needed(rules, len(players)), 4 * len(rules.order)
        if needed > deck:
            raise TruclogError(
                f"a deck of {deck} cards (ranks {rules.order}) is too small for {len(players)} "
                f"players: a deal{' and a redeal from the rest' * (rules.redeal == 'rest')} "
                f"take {needed}"
            )
        styles = {p: self.styles.get(p, self.default_style) for p in players}
        return SimulatedTable(
            rules,
            players,
            styles,
            label,
            self.hidden,
            self.timestamps,
            self.notes,
            self.annotate,
            self._teams(players),
        )

    def _teams(self, players: tuple[str, ...]) -> tuple[str, str] | None:
        if self.teams is None:
            return None
        teams = tuple(self.teams)
        if len(players) != 4:
            raise TruclogError("teams are named only in a four-player game")
        if len(teams) != 2 or teams[0] == teams[1] or not all(teams):
            raise TruclogError(f"name two different teams, not {', '.join(teams) or 'none'}")
        return teams[0], teams[1]


def _rules(spec: str | Mapping[str, Any]) -> tuple[Rules, str | dict[str, Any]]:
    if isinstance(spec, str) and spec.lstrip().startswith("{"):
        try:
            spec = orjson.loads(spec)
        except orjson.JSONDecodeError as exc:
            raise TruclogError(f"rules given as JSON do not parse: {exc}") from None
        if not isinstance(spec, dict):
            raise TruclogError("rules given as JSON must be an object")
    rules = get_rules(spec)
    if isinstance(spec, str):
        return rules, spec
    return rules, {
        name: value if name == "preset" else getattr(rules, name) for name, value in spec.items()
    }


def simulate(sim: Simulation) -> Iterator[Event]:
    """Every line of the simulation, in order, game after game."""
    table = sim.table()
    play = _random("play", sim.seed, table.rules)
    realism = _random("realism", sim.seed, table.rules)
    clock = SimulatedClock(sim.start, _random("clock", sim.seed, table.rules))
    dealer = table.players[play.randrange(len(table.players))]
    games = hands = rubbers = 0
    while rubbers < sim.games if sim.hands is None else hands < sim.hands:
        rubbers += 1
        match = f"sim{sim.seed}-r{rubbers:05d}" if sim.match else None
        rubber = Rubber()
        header: GameEvent | None = first_game(
            table, clock, f"sim{sim.seed}-{games + 1:06d}", dealer, match
        )
        while header is not None:
            game = SimulatedGame(table, play, realism, clock, header)
            for event in game.events():
                hands += isinstance(event, ResultEvent)
                yield event
            games += 1
            rubber.record(game.state)
            dealer = game.state.next_game_dealer
            clock.take_a_break()
            date = clock.now.date().isoformat()
            header = next_game(header, game.state, rubber, date=date, **clock.common(table))


def _random(purpose: str, seed: int, rules: Rules) -> random.Random:
    """The random stream for one ``purpose``, from the seed mixed with the rules, so that
    each preset (and each override) gets games of its own from the same seed."""
    return random.Random(f"truclog {purpose} {seed} {rules.as_json()}")


@dataclass(slots=True)
class SimulationTally:
    """What a simulation wrote."""

    games: int = 0
    hands: int = 0
    lines: int = 0
    bytes: int = 0


def write_simulation(
    sim: Simulation, out: BinaryIO, progress: Callable[[SimulationTally], None] | None = None
) -> SimulationTally:
    """Write the simulation's lines to a binary stream as they are played.

    ``progress`` is called with the running tally after each game.
    """
    tally = SimulationTally()
    for event in simulate(sim):
        line = dumps(event)
        out.write(line)
        tally.lines += 1
        tally.bytes += len(line)
        if isinstance(event, ResultEvent):
            tally.hands += 1
        elif event.type == "game":
            tally.games += 1
        elif progress is not None and event.type == "game_end":
            progress(tally)
    return tally


def simulate_to(
    sim: Simulation, path: str | Path, progress: Callable[[SimulationTally], None] | None = None
) -> SimulationTally:
    """Write the simulation to a file (``"-"`` for standard output), streaming.

    A name ending in ``.gz`` is written gzip-compressed (fast level), as the
    reader and the validator read it.
    """
    sim.table()
    if str(path) == "-":
        tally = write_simulation(sim, sys.stdout.buffer, progress)
        sys.stdout.buffer.flush()
        return tally
    try:
        if str(path).endswith(".gz"):
            with gzip.open(path, "wb", compresslevel=GZIP_LEVEL) as packed:
                return write_simulation(sim, packed, progress)  # type: ignore[arg-type]
        with open(path, "wb", buffering=1 << 20) as out:
            return write_simulation(sim, out, progress)
    except OSError as exc:
        raise TruclogError(f"cannot write {path}: {reason(exc)}") from None
