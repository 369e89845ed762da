"""Validation reports: what ``truclog validate`` prints, per file and in sum."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

import orjson

from truclog.codes import Read
from truclog.diagnostic import ERROR, WARNING, Diagnostic
from truclog.errors import PathError, TruclogError
from truclog.format.copies import duplicate_warning
from truclog.format.parts import Part, Source, name_of
from truclog.format.reader import rare_collections
from truclog.terminal import unicode_values
from truclog.validate import quick as quick_core
from truclog.validate.rubbers import RubberGame, Rubbers, check_rubber, rubber_of
from truclog.validate.tally import GameTally

if TYPE_CHECKING:
    from truclog.validate.checker import CheckedGame


class GameSummary:
    """A checked game as a report keeps it: ``detail`` (players, score, winner,
    complete) only for the JSON document, so that text reports stay small. A plain
    class: a named tuple took many times as long to make at start-up."""

    __slots__ = ("detail", "fingerprint", "hands", "id", "line", "rubber")

    def __init__(
        self,
        line: int,
        id: str,
        hands: int,
        fingerprint: str,
        detail: dict[str, Any] | None = None,
        rubber: RubberGame | None = None,
    ) -> None:
        self.line = line
        self.id = id
        self.hands = hands
        self.fingerprint = fingerprint
        self.detail = detail
        self.rubber = rubber

    def to_json(self) -> dict[str, Any]:
        """The summary as the JSON report writes it."""
        detail = self.detail or {}
        return {
            "line": self.line,
            "id": self.id,
            "match": self.rubber.match if self.rubber is not None else None,
            "players": detail.get("players"),
            "score": detail.get("score"),
            "winner": detail.get("winner"),
            "hands": self.hands,
            "complete": detail.get("complete"),
        }


class FileReport:
    """What a report says of one file: its diagnostics, how many games and hands it
    holds, and a summary of each game unless they went to ``on_game`` alone (see
    :func:`report_file`). ``unreadable``: the file could not be read at all (its one
    diagnostic, at line 0, says why). ``left_out``: diagnostics not kept, by
    severity: past :data:`KEPT_PER_FILE`, or past
    :data:`~truclog.diagnostic.KEPT_PER_GAME` in a game. A plain class, not a
    dataclass, which would generate and compile its methods at start-up."""

    __slots__ = ("diagnostics", "game_count", "games", "hands", "left_out", "path", "unreadable")

    def __init__(
        self,
        path: str,
        games: list[GameSummary] | None = None,
        diagnostics: list[Diagnostic] | None = None,
        game_count: int = 0,
        hands: int = 0,
        unreadable: bool = False,
        left_out: dict[str, int] | None = None,
    ) -> None:
        self.path = path
        self.games = [] if games is None else games
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.game_count = game_count
        self.hands = hands
        self.unreadable = unreadable
        self.left_out = {} if left_out is None else left_out

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (sent back from a worker process) with its games as columns: a few
        lists pickle in a fraction of the time of an object a game."""
        games = self.games
        columns = (
            [g.line for g in games],
            [g.id for g in games],
            [g.hands for g in games],
            [g.fingerprint for g in games],
            [g.detail for g in games],
            [g.rubber for g in games],
        )
        kept = (self.diagnostics, self.game_count, self.hands, self.unreadable, self.left_out)
        return _file_report, (self.path, columns, *kept)

    def count(self, severity: str) -> int:
        """How many diagnostics of ``severity`` the file has, those not kept included."""
        kept = sum(d.severity == severity for d in self.diagnostics)
        return kept + self.left_out.get(severity, 0)

    def add(
        self, diagnostics: Iterable[Diagnostic], left_out: dict[str, int] | None = None
    ) -> None:
        """Keep diagnostics up to :data:`KEPT_PER_FILE`, and count the rest."""
        for severity, count in (left_out or {}).items():
            self.left_out[severity] = self.left_out.get(severity, 0) + count
        for diagnostic in diagnostics:
            if len(self.diagnostics) < KEPT_PER_FILE:
                self.diagnostics.append(diagnostic)
            else:
                self.left_out[diagnostic.severity] = self.left_out.get(diagnostic.severity, 0) + 1

    def to_json(self) -> dict[str, Any]:
        """The file's report as the JSON document writes it."""
        data: dict[str, Any] = {
            "path": self.path,
            "games": [g.to_json() for g in self.games],
            "diagnostics": [_diagnostic_json(d) for d in self.diagnostics],
        }
        if self.left_out:
            data["left_out"] = _left_out_json(self.left_out)
        return data


def _file_report(path: str, columns: tuple[list[Any], ...], *kept: Any) -> FileReport:
    """A file's report made again from :meth:`FileReport.__reduce__`."""
    return FileReport(path, [GameSummary(*game) for game in zip(*columns, strict=True)], *kept)


KEPT_PER_FILE = 10_000
"""Diagnostics a file's report keeps in memory and shows; the rest are counted."""


def _left_out_json(left_out: dict[str, int]) -> dict[str, int]:
    return {"errors": left_out.get(ERROR, 0), "warnings": left_out.get(WARNING, 0)}


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
    source: Source,
    on_game: Callable[[GameSummary], None] | None = None,
    detail: bool = True,
    quick: bool = True,
    seen: dict[str, tuple[str, int]] | None = None,
    rubbers: Rubbers | None = None,
) -> FileReport:
    """Check one file and keep only what a report needs: per game, a small summary
    (with the players, score and winner when ``detail``), given to ``on_game`` as it
    is checked. ``quick``: clear plain legal games with the quick core
    (:mod:`truclog.validate.quick`) when it was built, for the same report sooner.

    ``seen``: the games of the run so far, by fingerprint (see
    :func:`~truclog.format.copies.duplicate_warning`); copies are then marked as they come
    and the summaries are not kept (memory stays flat however many games). Without
    it, the report keeps them for :func:`mark_duplicates`. ``rubbers``: the rubbers
    of the run so far, checked as games come when ``seen`` is given.

    ``source`` may be a part of a file (see :mod:`truclog.format.parts`): its report
    keeps its diagnostics in the order they were found, for :func:`joined`."""
    path = name_of(source)
    report = FileReport(path)
    copies: list[Diagnostic] = []
    rubbers = Rubbers() if rubbers is None else rubbers
    if quick and quick_core.AVAILABLE:
        items = quick_core.check_log(source, keep_hands=False)
    else:
        items = _line_by_line(source)
    with rare_collections():
        try:
            for item in items:
                if isinstance(item, Diagnostic):
                    report.add((item,))
                    continue
                if not isinstance(item, GameTally):
                    report.add(item.diagnostics, item.left_out)
                elif item.diagnostics:  # most games the core clears have none
                    report.add(item.diagnostics)
                summary = _summary(item, detail)
                report.game_count += 1
                report.hands += summary.hands
                if seen is None:
                    report.games.append(summary)
                else:
                    copies.extend(_run_checks(seen, rubbers, path, summary))
                if on_game is not None:
                    on_game(summary)
        except PathError as exc:
            report.add((Diagnostic(path, 0, Read.UNREADABLE, ERROR, exc.reason),))
            report.unreadable = True
        except (OSError, EOFError, TruclogError) as exc:
            message = f"cannot read {path}: {exc}"
            report.add((Diagnostic(path, 0, Read.UNREADABLE, ERROR, message),))
    if not isinstance(source, Part):
        report.diagnostics.sort(key=_line)
    _add_copies(report, copies)
    return report


def _line_by_line(source: Source) -> Iterator[CheckedGame | Diagnostic]:
    from truclog.validate.games import check_log

    return check_log(source, keep_hands=False)


def joined(
    sources: Iterable[Source], reports: Iterable[FileReport], rubbers: Rubbers | None = None
) -> Iterator[FileReport]:
    """The report of each file, of the reports of its ``sources`` (files, or parts of
    a file in order, see :func:`report_file`): diagnostics kept and counted as one
    report of the whole file would keep and count them, its games in order, copies of
    games marked and rubbers checked as :func:`mark_duplicates` does. Each part's
    games are looked at as the part comes, while the parts after it are checked."""
    seen: dict[str, tuple[str, int]] = {}
    rubbers = Rubbers() if rubbers is None else rubbers
    whole: FileReport | None = None
    copies: list[Diagnostic] = []
    for source, report in zip(sources, reports, strict=True):
        for game in report.games:
            copies.extend(_run_checks(seen, rubbers, report.path, game))
        if not isinstance(source, Part):
            _add_copies(report, copies)
            copies = []
            yield report
            continue
        if whole is None:
            whole = FileReport(report.path)
        whole.add(report.diagnostics, report.left_out)
        whole.games.extend(report.games)
        whole.game_count += report.game_count
        whole.hands += report.hands
        whole.unreadable = whole.unreadable or report.unreadable
        if source.last:
            whole.diagnostics.sort(key=_line)
            _add_copies(whole, copies)
            copies = []
            yield whole
            whole = None


def unreadable_report(error: PathError) -> FileReport:
    """The report of a path that could not be read at all: one E000, at line 0."""
    diagnostic = Diagnostic(error.path, 0, Read.UNREADABLE, ERROR, error.reason)
    return FileReport(error.path, diagnostics=[diagnostic], unreadable=True)


def _line(diag: Diagnostic) -> int:
    return diag.line


def _run_checks(
    seen: dict[str, tuple[str, int]], rubbers: Rubbers, path: str, game: GameSummary
) -> list[Diagnostic]:
    """What the games of the run so far say of ``game``: a copy of one, or a game of a
    rubber that does not fit it."""
    copy = duplicate_warning(seen, game.fingerprint, path, game.line, game.id)
    found = [] if copy is None else [copy]
    if game.rubber is not None:
        unfit = check_rubber(rubbers, path, game.line, game.id, game.rubber)
        if unfit is not None:
            found.append(unfit)
    return found


def _add_copies(report: FileReport, copies: list[Diagnostic]) -> None:
    if copies:
        report.add(copies)
        report.diagnostics.sort(key=_line)


def _summary(game: CheckedGame | GameTally, detail: bool) -> GameSummary:
    about = None
    if detail:
        about = {
            "players": list(game.players),
            "score": game.score,
            "winner": game.winner,
            "complete": game.complete,
        }
    return GameSummary(
        game.line, game.id, game.hand_count, game.fingerprint, about, rubber_of(game)
    )


def mark_duplicates(
    reports: Iterable[FileReport], rubbers: Rubbers | None = None
) -> Iterator[FileReport]:
    """Add a warning to every game already seen earlier in the run (files in order), and
    check the rubbers the games belong to."""
    seen: dict[str, tuple[str, int]] = {}
    rubbers = Rubbers() if rubbers is None else rubbers
    for report in reports:
        for game in report.games:
            _add_copies(report, _run_checks(seen, rubbers, report.path, game))
        yield report


def summary_json(reports: list[FileReport]) -> dict[str, Any]:
    """The totals of a run, as the JSON document's summary."""
    return {
        "files": len(reports),
        "games": sum(r.game_count for r in reports),
        "hands": sum(r.hands for r in reports),
        "errors": sum(r.count(ERROR) for r in reports),
        "warnings": sum(r.count(WARNING) for r in reports),
    }


def report_json(reports: list[FileReport]) -> dict[str, Any]:
    """The ``--format json`` document, of reports that kept their games."""
    rubbers = Rubbers()
    for report in reports:
        for game in report.games:
            if game.rubber is not None:
                rubbers.see(report.path, game.id, game.rubber)
    summary = {**summary_json(reports), "rubbers": rubbers.summary()}
    return {"files": [r.to_json() for r in reports], "summary": summary}


class JsonReport:
    """The ``--format json`` document written as it is made: each game as it is
    checked, each file's diagnostics after its games, the summary last. The bytes
    are those of :func:`report_json` indented by two spaces.

    >>> import io
    >>> out = io.BytesIO()
    >>> with JsonReport(out) as doc:
    ...     doc.start_file("a.jsonl"); doc.end_file(FileReport("a.jsonl"))
    >>> json.loads(out.getvalue())["summary"]["files"]
    1
    """

    def __init__(self, out: IO[bytes]) -> None:
        self.out = out
        self.rubbers = Rubbers()
        """The rubbers of the run, for the summary (the checks of the run feed them)."""
        self.reports: list[FileReport] = []  # their games and diagnostics already written
        self.games = 0

    def __enter__(self) -> JsonReport:
        self.out.write(b'{\n  "files": [')
        return self

    def start_file(self, path: str) -> None:
        """Begin the entry of one more file in the document."""
        comma = b"," if self.reports else b""
        self.out.write(
            comma + b'\n    {\n      "path": ' + _dumps(path, 6) + b',\n      "games": ['
        )
        self.games = 0

    def game(self, game: GameSummary) -> None:
        """Write one game of the file (``on_game`` of :func:`report_file`)."""
        comma = b"," if self.games else b""
        self.out.write(comma + b"\n        " + _dumps(game.to_json(), 8))
        self.games += 1

    def end_file(self, report: FileReport) -> None:
        """Write the diagnostics of the file (its games written already)."""
        for game in report.games:
            self.game(game)
        close = b"\n      ]" if self.games else b"]"
        diagnostics = [_diagnostic_json(d) for d in report.diagnostics]
        self.out.write(close + b',\n      "diagnostics": ' + _dumps(diagnostics, 6))
        if report.left_out:
            self.out.write(b',\n      "left_out": ' + _dumps(_left_out_json(report.left_out), 6))
        self.out.write(b"\n    }")
        report.games = []
        self.reports.append(report)

    def __exit__(self, kind: object, *exc: object) -> None:
        if kind is not None:
            return
        close = b"\n  ]" if self.reports else b"]"
        summary = _dumps({**summary_json(self.reports), "rubbers": self.rubbers.summary()}, 2)
        self.out.write(close + b',\n  "summary": ' + summary + b"\n}\n")


def _dumps(value: Any, indent: int) -> bytes:
    """``value`` as indented JSON, nested ``indent`` spaces deep; numbers past 64 bits
    (orjson's limit) and file names that are not UTF-8 go through :mod:`json`, with
    each byte that is not UTF-8 written ``\\xNN``."""
    try:
        text = orjson.dumps(value, option=orjson.OPT_INDENT_2)
    except TypeError:
        text = json.dumps(unicode_values(value), indent=2, ensure_ascii=False).encode()
    return text.replace(b"\n", b"\n" + b" " * indent)
