"""What a run of statistics keeps and what it left out, without polars.

:class:`GameFilter` says which games a run keeps (by rules preset, date range, source,
and marked hands); :class:`Tally` counts what it read and what it left out. Both are
used by every run over logs (statistics, export, review, ratings), including a run
whose games the quick core all clears, which never needs polars (see
:mod:`truclog.stats.counts`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from typing import TYPE_CHECKING

from truclog.validate.tally import GameTally

if TYPE_CHECKING:  # the replay and the line-by-line validator: imported when used
    from truclog.record.annotations import Notes
    from truclog.validate.checker import CheckedGame


@dataclass(slots=True)
class Tally:
    """What a run read and what it left out."""

    files: int = 0
    games: int = 0
    duplicates: int = 0
    hands: int = 0
    hands_left_out: int = 0
    filtered_out: int = 0
    problems: int = 0
    not_logs: int = 0
    """Files that turned out to be binary data (E009), read no further."""

    def add(self, other: Tally) -> None:
        """Add another tally's counts to this one."""
        for name in self.__slots__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_dict(self) -> dict[str, int]:
        """The counts as plain values, as JSON reports write them."""
        return {
            "files": self.files,
            "games": self.games,
            "duplicate_games": self.duplicates,
            "games_filtered_out": self.filtered_out,
            "hands": self.hands,
            "hands_left_out": self.hands_left_out,
            "lines_outside_games": self.problems,
        }


@dataclass(slots=True)
class GameFilter:
    """Which games a run keeps: by rules preset, date range and source; and of them,
    with ``marks``, only the hands with one of these marks (see :meth:`marked`)."""

    rules: tuple[str, ...] = ()
    since: date | None = None
    until: date | None = None
    sources: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()

    def marked(self, game: CheckedGame, notes: Notes | None) -> CheckedGame | None:
        """The game with only its hands that have one of :attr:`marks`, on a line of the
        log or in the log's ``notes`` file; ``None`` when it has none."""
        from truclog.replay import Game

        wanted = set(self.marks)
        hands = [h.checked for h in Game(game, notes).hands if wanted.intersection(h.marks)]
        return replace(game, hands=hands) if hands else None

    def keeps(self, game: CheckedGame | GameTally) -> bool:
        """Whether the filter keeps ``game`` (by its rules, source and date)."""
        if not self.rules and not self.sources and self.since is None and self.until is None:
            return True
        if isinstance(game, GameTally):
            assert game.facts is not None and game.header is not None
            rules, header = game.facts.rules, game.header
        else:
            rules, header = game.rules, game.header
        if self.rules and rules.name not in self.rules:
            return False
        if self.sources and header.source not in self.sources:
            return False
        if self.since is None and self.until is None:
            return True
        from truclog.replay import game_day, tally_day

        day = tally_day(game) if isinstance(game, GameTally) else game_day(game)
        if day is None:
            return False
        return (self.since is None or day >= self.since) and (
            self.until is None or day <= self.until
        )


__all__ = ["GameFilter", "Tally"]
