"""Logs checked by the validator, for tests that expect them to be clean."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from truclog.validate import CheckedGame, Diagnostic, check_logs


def checked(paths: Sequence[Path]) -> tuple[list[CheckedGame], list[Diagnostic]]:
    """The games of ``paths``, and every diagnostic in the order the validator gave them."""
    games: list[CheckedGame] = []
    diagnostics: list[Diagnostic] = []
    for item in check_logs([str(p) for p in paths]):
        if isinstance(item, CheckedGame):
            games.append(item)
            diagnostics.extend(item.diagnostics)
        else:
            diagnostics.append(item)
    return games, diagnostics
