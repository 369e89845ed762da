"""Notes and marks on the lines of a hand: in the log itself, or in a notes file beside it.

A line of a log may carry a ``note`` and ``marks`` (see ``docs/format.md``). A log
you do not write to (a server's, a read-only file) is annotated in its notes file
instead, ``LOG.notes.jsonl`` beside ``LOG``: one JSON line per annotated step,

``{"game":"cafe-1","hand":3,"step":2,"note":"too bold?","marks":["bluff?"],"t":"..."}``

where ``step`` counts the lines of the hand from its deal (step 1). The log itself
is never changed. :func:`annotate` edits the notes file under a lock, rewriting it
atomically, so that two writers (the browser and a script) lose nothing: each
edit reads the file as it is on disk, changes one step, and keeps every other line
(even one it cannot read) as it was. :func:`read_notes` reads it back;
:func:`truclog.replay.read_games` merges its annotations into each hand.

>>> import tempfile, pathlib
>>> log = pathlib.Path(tempfile.mkdtemp()) / "server.truclog.jsonl"
>>> annotate(log, "g1", 3, 2, note="too bold?", add=["bluff?"], clock=None)
Annotation(game='g1', hand=3, step=2, note='too bold?', marks=('bluff?',), t=None, source='notes')
>>> _ = annotate(log, "g1", 3, 2, add=["review"], clock=None)
>>> print(notes_path(log).read_text(), end="")
{"game":"g1","hand":3,"step":2,"note":"too bold?","marks":["bluff?","review"]}
>>> [a.marks for a in read_notes(log).annotations.values()]
[('bluff?', 'review')]
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import orjson
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from truclog.codes import Read
from truclog.diagnostic import ERROR, WARNING, Diagnostic
from truclog.errors import PathError, TruclogError, reason
from truclog.format.atomic import open_atomically
from truclog.format.events import LONGEST_MARK, Mark, Timestamp, reasons
from truclog.format.reader import LONGEST_LINE, has_notes, line_body, notes_path
from truclog.record.lock import LogLock, LogLockedError

LOG = "log"
"""The source of an annotation written in the log's own line."""
NOTES = "notes"
"""The source of an annotation of the log's notes file."""

KEPT = 1 << 16
"""Annotated steps of one notes file read into memory; the rest are counted (and kept on disk)."""

KEPT_PROBLEMS = 1000
"""Problems of one notes file kept; the rest are counted."""

WAIT = 5.0
"""Seconds an edit waits for another to finish with the notes file."""

Key = tuple[str, int, int]
"""Which step an annotation is about: its game's id, the hand's number, the step's."""


@dataclass(frozen=True, slots=True)
class Annotation:
    """A note and marks on one step of a hand (``step`` 1 is the hand's deal)."""

    game: str
    hand: int
    step: int
    note: str | None = None
    marks: tuple[str, ...] = ()
    t: str | None = None
    source: str = NOTES
    """``"log"``: written in the log's line; ``"notes"``: in the notes file beside it."""

    @property
    def key(self) -> Key:
        """The step it belongs to: (game id, hand number, step)."""
        return self.game, self.hand, self.step

    @property
    def empty(self) -> bool:
        """Whether it says nothing: no note and no marks."""
        return not self.note and not self.marks

    def line(self) -> bytes:
        """The annotation as a line of a notes file (with its newline)."""
        data: dict[str, Any] = {"game": self.game, "hand": self.hand, "step": self.step}
        if self.note:
            data["note"] = self.note
        if self.marks:
            data["marks"] = list(self.marks)
        if self.t:
            data["t"] = self.t
        return orjson.dumps(data, option=orjson.OPT_APPEND_NEWLINE)


class _NoteLine(BaseModel):
    """One line of a notes file, as the models check it (``_`` extensions allowed, as
    in a log)."""

    model_config = ConfigDict(frozen=True, extra="allow")

    game: Annotated[str, Field(min_length=1)]
    hand: Annotated[StrictInt, Field(ge=1)]
    step: Annotated[StrictInt, Field(ge=1)]
    note: str | None = None
    marks: list[Mark] | None = None
    t: Timestamp | None = None

    @model_validator(mode="after")
    def _only_extensions(self) -> _NoteLine:
        unknown = [name for name in self.__pydantic_extra__ or {} if not name.startswith("_")]
        if unknown:
            raise PydanticCustomError(
                "truclog",
                "unknown field '{name}' (an annotation has game, hand, step, note, marks, t)",
                {"name": unknown[0]},
            )
        return self


@dataclass(slots=True)
class Notes:
    """The notes file of the log ``log`` read: its annotations by step (the last line of
    a step wins), the problems of lines it could not read, and how many lines past
    :data:`KEPT` steps and :data:`KEPT_PROBLEMS` problems were left unread."""

    log: str
    annotations: dict[Key, Annotation] = field(default_factory=dict)
    problems: list[Diagnostic] = field(default_factory=list)
    left_out: int = 0

    def of_game(self, game: str) -> dict[tuple[int, int], Annotation]:
        """The annotations of one game, by hand and step."""
        return {(a.hand, a.step): a for k, a in self.annotations.items() if k[0] == game}


def read_notes(log: str | Path) -> Notes:
    """The notes file of ``log`` (none: no annotations). A line that is not an
    annotation is a problem (``E001``, ``E002``, ``E003``, ``E008`` for bad marks,
    ``E006`` past the longest line), said with the file and line, never raised. Past
    :data:`KEPT` steps (or :data:`KEPT_PROBLEMS` problems) lines are counted, not read,
    and a warning (``W008``) says how many."""
    path = notes_path(log)
    notes = Notes(str(log))
    first_left = 0
    with _opened(path) as stream:
        for number, body, problem in _lines(stream):
            found = problem or _annotation(body)
            if isinstance(found, Annotation) and _keep(notes, found):
                continue
            if not isinstance(found, Annotation) and len(notes.problems) < KEPT_PROBLEMS:
                notes.problems.append(Diagnostic(str(path), number, found[0], ERROR, found[1]))
                continue
            notes.left_out += 1
            first_left = first_left or number
    if notes.left_out:
        said = (
            f"{notes.left_out:,} line(s) from here on not read: a notes file is read up to "
            f"{KEPT:,} annotated steps and {KEPT_PROBLEMS:,} problems (the lines stay in the file)"
        )
        notes.problems.append(Diagnostic(str(path), first_left, Read.NOTES_LEFT_OUT, WARNING, said))
    return notes


@contextmanager
def _opened(path: Path) -> Iterator[Any]:
    """A notes file open to read (an empty stream when there is none)."""
    try:
        stream = open(path, "rb")  # noqa: SIM115 - closed below
    except FileNotFoundError:
        yield io.BytesIO()
        return
    except OSError as exc:
        raise PathError(str(path), f"cannot read: {exc.strerror or exc}") from None
    with stream:
        yield stream


def _keep(notes: Notes, annotation: Annotation) -> bool:
    """Keep an annotation, the edit of an earlier line of its step; False past :data:`KEPT`."""
    kept = notes.annotations
    if annotation.key not in kept and len(kept) >= KEPT:
        return False
    kept.pop(annotation.key, None)
    if not annotation.empty:
        kept[annotation.key] = annotation
    return True


def _current(path: Path, key: Key) -> Annotation | None:
    """The annotation of one step in a notes file as it is (the last line about it)."""
    found = None
    with _opened(path) as stream:
        for _, body, problem in _lines(stream):
            if problem is None and _key_of(body) == key:
                annotation = _annotation(body)
                if isinstance(annotation, Annotation):
                    found = None if annotation.empty else annotation
    return found


def _lines(stream: Any) -> Iterator[tuple[int, bytes, tuple[str, str] | None]]:
    """Each non-blank line (number, body), or why it is not read (past the longest line)."""
    limit = LONGEST_LINE + 1
    number = 0
    while raw := stream.readline(limit):
        number += 1
        if len(raw) == limit and raw[-1:] != b"\n":
            while (more := stream.readline(limit)) and more[-1:] != b"\n":
                pass
            yield number, b"", (Read.LINE_TOO_LONG, "the line is too long to be an annotation")
            continue
        body = line_body(raw, number)
        if body is not None:
            yield number, body[0], None


def _annotation(body: bytes) -> Annotation | tuple[str, str]:
    """The annotation of a line, or its problem's code and message."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        return Read.NOT_JSON, f"the line is not JSON: {exc}"
    if not isinstance(data, dict):
        return Read.NOT_OBJECT, "the line is not a JSON object"
    try:
        line = _NoteLine.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        code = Read.BAD_MARK if all(e["loc"][:1] == ("marks",) for e in errors) else Read.NOT_EVENT
        return code, f"not a valid annotation: {reasons(exc, tagged=False)}"
    return Annotation(
        line.game, line.hand, line.step, line.note or None, tuple(line.marks or ()), line.t
    )


def local_now() -> datetime:
    """The local time to the second, with its UTC offset."""
    return datetime.now().astimezone().replace(microsecond=0)


class AnnotationError(TruclogError):
    """An annotation that cannot be written: a bad mark, a notes file held too long."""

    code = Read.BAD_MARK


def annotate(
    log: str | Path,
    game: str,
    hand: int,
    step: int,
    *,
    note: str | None = None,
    add: Iterable[str] = (),
    remove: Iterable[str] = (),
    clock: Callable[[], datetime] | None = local_now,
) -> Annotation:
    """Change the annotation of one step in the notes file of ``log`` and return it.

    ``note``: the step's new note (``""`` removes it; ``None`` keeps it); ``add`` and
    ``remove``: marks to add (after those it has) and to take off. A step left with
    neither note nor marks leaves the file. The change is made to the file as it is
    on disk, under its lock, and written atomically: an edit made meanwhile by
    another program (or another window) is kept. ``clock`` times the annotation's ``t``
    (the local time by default; ``None``: no time).
    """
    added = [_checked_mark(mark) for mark in add]
    taken = set(remove)
    path = notes_path(log)
    try:
        lock = LogLock.acquire(path, wait=WAIT)
    except LogLockedError:
        raise AnnotationError(
            f"{path}: another program has held the notes file for {WAIT:.0f} s: try again",
            Read.UNREADABLE,
        ) from None
    except OSError as exc:
        why = reason(exc).lower()
        raise PathError(str(path), f"cannot write a notes file beside the log: {why}") from None
    try:
        old = _current(path, (game, hand, step))
        marks = [m for m in (old.marks if old else ()) if m not in taken]
        marks += [m for m in dict.fromkeys(added) if m not in marks and m not in taken]
        text = (old.note if old else None) if note is None else (note or None)
        when = None if clock is None else clock().isoformat(timespec="seconds")
        new = Annotation(game, hand, step, text, tuple(marks), when)
        _rewrite(path, new)
        return new
    finally:
        lock.release()


def _rewrite(path: Path, new: Annotation) -> None:
    """The notes file with every line of ``new``'s step replaced by ``new`` (at the end),
    each other line kept byte for byte."""
    with open_atomically(path) as out:
        try:
            stream = open(path, "rb")  # noqa: SIM115 - closed below
        except FileNotFoundError:
            stream = None
        if stream is not None:
            with stream:
                for raw in stream:
                    if _key_of(raw) != new.key:
                        out.write(raw if raw.endswith(b"\n") else raw + b"\n")
        if not new.empty:
            out.write(new.line())


def _key_of(raw: bytes) -> Key | None:
    """The step a line of a notes file is about, if it names one plainly."""
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    game, hand, step = data.get("game"), data.get("hand"), data.get("step")
    if type(game) is str and type(hand) is int and type(step) is int:
        return game, hand, step
    return None


def _checked_mark(mark: str) -> str:
    if not isinstance(mark, str) or not 1 <= len(mark) <= LONGEST_MARK:
        raise AnnotationError(
            f"{mark!r} is not a mark: a mark is a short tag of 1 to {LONGEST_MARK} characters"
        )
    return mark


def of_log(game: str, hand: int, steps: Iterable[Any]) -> dict[int, Annotation]:
    """The annotations written in a hand's own lines (``steps``: the validator's
    steps, each with its line's event), by step number."""
    found: dict[int, Annotation] = {}
    for number, step in enumerate(steps, start=1):
        event = step.source.parsed
        note, marks = getattr(event, "note", None), getattr(event, "marks", None)
        if note or marks:
            found[number] = Annotation(
                game, hand, number, note or None, tuple(marks or ()), step.t, LOG
            )
    return found


__all__ = [
    "LOG",
    "NOTES",
    "Annotation",
    "AnnotationError",
    "Notes",
    "annotate",
    "has_notes",
    "notes_path",
    "of_log",
    "read_notes",
]
