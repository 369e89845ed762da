"""Each player's fold and bluff rates over the hands before this one, with their sample
sizes: beside the browser's replay, and the recorder's table (its HUD)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

if TYPE_CHECKING:
    from truclog.stats.asof import Before


def _rate(count: int, total: int) -> Text:
    if not total:
        return Text("—  0/0", style="dim")
    return Text(f"{100 * count / total:.0f}% {count}/{total}")


def as_of_table(counts: Sequence[Before], heading: str) -> RenderableType:
    """Each player's fold rate (folds / raises faced) and bluff rate (bluffs / raises
    with a known hand) under ``heading``."""
    table = Table(box=None, padding=(0, 1), show_edge=False, expand=False)
    table.add_column("before", no_wrap=True, style="bold")
    table.add_column("fold", justify="right", no_wrap=True)
    table.add_column("bluff", justify="right", no_wrap=True)
    for before in counts:
        table.add_row(
            Text(before.player),
            _rate(before.folds, before.faced),
            _rate(before.bluffs, before.known),
        )
    return Group(Text(heading, style="bold cyan"), table)


class AsOfPanel(Static):
    """The as-of statistics of the players at the table."""

    def waiting(self, hands: int = 0, total: int = 0) -> None:
        """Shows that the earlier hands are being counted, with how many so far when ``total`` is
        known."""
        said = f"counting earlier hands… {hands} of {total}" if total else "counting earlier hands…"
        self.update(Text(said, style="italic dim"))

    def show_counts(self, counts: Sequence[Before], heading: str) -> None:
        """Shows each player's statistics before this hand, under ``heading``."""
        self.update(as_of_table(counts, heading))
