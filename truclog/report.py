"""Validation reports: what ``truclog validate`` prints, per file and in sum."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from truclog import quick as quick_core
from truclog.errors import TruclogError
from truclog.reader import rare_collections
from truclog.validate import (
    ERROR,
    WARNING,
    CheckedGame,
    Diagnostic,
    GameTally,
    check_log,
    duplicate_warning,
)


@dataclass(slots=True)
class GameSummary:
    """A checked game as a report keeps it: ``detail`` (players, score, winner,
    complete) only for the JSON document, so that text reports stay small."""

    line: int
    id: str
    hands: int
    fingerprint: str
    detail: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        detail = self.detail or {}
        return {
            "line": self.line,
            "id": self.id,
            "players": detail.get("players"),
            "score": detail.get("score"),
            "winner": detail.get("winner"),
            "hands": self.hands,
            "complete": detail.get("complete"),
        }


@dataclass(slots=True)
class FileReport:
    path: str
    games: list[GameSummary] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def hands(self) -> int:
        return sum(g.hands for g in self.games)

    def count(self, severity: str) -> int:
        return sum(d.severity == severity for d in self.diagnostics)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "games": [g.to_json() for g in self.games],
            "diagnostics": [_diagnostic_json(d) for d in self.diagnostics],
        }


def _diagnostic_json(diag: Diagnostic) -> dict[str, Any]:
    data: dict[str, Any] = {
        "line": diag.line,
        "code": diag.code,
        "severity": diag.severity,
        "message": diag.message,
        "game": diag.game,
        "hand": diag.hand,
    }
    if diag.legal:
        data["legal"] = list(diag.legal)
    return data


def report_file(
    path: str, on_game: Any = None, detail: bool = True, quick: bool = True
) -> FileReport:
    """Check one file and keep only what a report needs: per game, a small summary
    (with the players, score and winner when ``detail``). ``on_game`` is called with
    each game as it is checked; ``quick``: clear plain legal games with the quick core
    (:mod:`truclog.quick`) when it was built, for the same report sooner."""
    report = FileReport(path)
    items = quick_core.check_log(path) if quick and quick_core.AVAILABLE else check_log(path)
    with rare_collections():
        try:
            for item in items:
                if isinstance(item, Diagnostic):
                    report.diagnostics.append(item)
                    continue
                report.diagnostics.extend(item.diagnostics)
                report.games.append(_summary(item, detail))
                if on_game is not None:
                    on_game(item)
        except (OSError, EOFError, TruclogError) as exc:
            message = f"cannot read {path}: {exc}"
            report.diagnostics.append(Diagnostic(path, 0, "E000", ERROR, message))
    report.diagnostics.sort(key=lambda d: d.line)
    return report


def _summary(game: CheckedGame | GameTally, detail: bool) -> GameSummary:
    summary = GameSummary(game.line, game.id, game.hand_count, game.fingerprint)
    if detail:
        summary.detail = {
            "players": list(game.players),
            "score": game.score,
            "winner": game.winner,
            "complete": game.complete,
        }
    return summary


def mark_duplicates(reports: Iterable[FileReport]) -> Iterator[FileReport]:
    """Add a warning to every game already seen earlier in the run (files in order)."""
    first_seen: dict[str, tuple[str, int]] = {}
    for report in reports:
        for game in report.games:
            warning = duplicate_warning(
                first_seen, game.fingerprint, report.path, game.line, game.id
            )
            if warning is not None:
                report.diagnostics.append(warning)
        report.diagnostics.sort(key=lambda d: d.line)
        yield report


def summary_json(reports: list[FileReport]) -> dict[str, Any]:
    return {
        "files": len(reports),
        "games": sum(len(r.games) for r in reports),
        "hands": sum(r.hands for r in reports),
        "errors": sum(r.count(ERROR) for r in reports),
        "warnings": sum(r.count(WARNING) for r in reports),
    }


def report_json(reports: list[FileReport]) -> dict[str, Any]:
    """The ``--format json`` document."""
    return {"files": [r.to_json() for r in reports], "summary": summary_json(reports)}
