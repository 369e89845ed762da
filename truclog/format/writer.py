"""Writing truclog/1: canonical lines, durable appends, and repairing a torn last line.

A canonical line is compact JSON, UTF-8, with ``type`` first, then the event's
fields in the order of the format contract, then ``t``, ``note``, ``marks`` and the
``_`` extensions, and only the fields that were given:

>>> from truclog.format.events import parse_event
>>> dumps(parse_event('{"note": "bold", "card": "10S", "player": "Zoé", "type": "play"}'))
b'{"type":"play","player":"Zo\\xc3\\xa9","card":"Ts","note":"bold"}\\n'
>>> dumps(parse_event('{"type":"result","winner":null,"points":0,"score":{"Ana":3,"Marc":5}}'))
b'{"type":"result","winner":null,"points":0,"score":{"Ana":3,"Marc":5}}\\n'
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import TracebackType
from typing import Any

import orjson
from pydantic import ValidationError

from truclog.errors import TruclogError
from truclog.format.atomic import fsync_dir
from truclog.format.events import Event, parse_event

_COMMON = ("t", "note", "marks")


def as_dict(event: Event) -> dict[str, Any]:
    """The given fields of an event as a plain dict, in canonical order."""
    given = event.model_dump(exclude_unset=True)
    line: dict[str, Any] = {"type": event.type}
    for name in event.field_order:
        if name in given:
            line[name] = given[name]
    for name in _COMMON:
        if name in given:
            line[name] = given[name]
    if event.__pydantic_extra__:
        line.update(event.__pydantic_extra__)
    return line


def dumps(event: Event) -> bytes:
    """The canonical line of an event, with its trailing newline."""
    line = as_dict(event)
    try:
        return orjson.dumps(line, option=orjson.OPT_APPEND_NEWLINE)
    except orjson.JSONEncodeError:  # integers past 64 bits, which orjson does not write
        text = json.dumps(line, ensure_ascii=False, separators=(",", ":"))
        return text.encode() + b"\n"


class LogWriter:
    """Appends events to a log; each one is on disk (written, flushed, fsynced) when
    :meth:`write` returns, so a crash loses nothing that was acknowledged.

    A file whose last line is cut short is refused: call :func:`repair_torn_tail` first.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if _tail_is_torn(self.path):
            raise TruclogError(
                f"{self.path}: the last line is cut short (a crash?); "
                "repair it first (truclog.format.writer.repair_torn_tail) "
                "so nothing is appended to it"
            )
        new = not self.path.exists()
        self._fd: int | None = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        if new:
            fsync_dir(self.path.parent)

    def write(self, event: Event) -> None:
        """Append one event as a whole line, on disk before returning."""
        self.write_line(dumps(event))

    def write_line(self, line: bytes) -> None:
        """Append one already-encoded line (it must end with a newline).

        A write or sync that fails (a full disk, an I/O error) is cut back at once to
        the end of the line before, so the log never ends in a torn line (cutting
        needs no free space), and the ``OSError`` is raised: nothing was written.
        """
        if self._fd is None:
            raise TruclogError(f"{self.path}: the log writer is closed")
        if not line.endswith(b"\n"):
            raise TruclogError("a log line must end with a newline")
        end = os.fstat(self._fd).st_size
        try:
            view = memoryview(line)
            while view:
                view = view[os.write(self._fd, view) :]
            os.fsync(self._fd)
        except OSError:
            os.ftruncate(self._fd, end)
            os.fsync(self._fd)
            raise

    def close(self) -> None:
        """Close the log's file (each line was synced as it was written)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def _tail_is_torn(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            if f.seek(0, os.SEEK_END) == 0:
                return False
            f.seek(-1, os.SEEK_END)
            return f.read(1) != b"\n"
    except FileNotFoundError:
        return False


def _last_line_start(f: Any, end: int) -> int:
    """Offset just after the last newline before ``end`` (0 if there is none)."""
    chunk = 1 << 16
    pos = end
    while pos > 0:
        start = max(0, pos - chunk)
        f.seek(start)
        found: int = f.read(pos - start).rfind(b"\n")
        if found >= 0:
            return start + found + 1
        pos = start
    return 0


def torn_tail(path: str | Path) -> tuple[int, bytes] | None:
    """Where a last line without its newline starts, and its bytes; ``None`` if the
    file ends with a newline, is empty or is missing. Nothing is changed."""
    try:
        f = open(path, "rb")  # noqa: SIM115 - closed below
    except FileNotFoundError:
        return None
    with f:
        end = f.seek(0, os.SEEK_END)
        if end == 0:
            return None
        f.seek(end - 1)
        if f.read(1) == b"\n":
            return None
        start = _last_line_start(f, end)
        f.seek(start)
        return start, f.read(end - start)


def repair_torn_tail(path: str | Path) -> bytes | None:
    """Cut off a last line that a crash left without its newline; ``None`` if intact.

    The removed bytes are appended to ``<path>.torn`` (and fsynced) before the log
    is truncated, so nothing is lost. A last line that only lacks its newline but
    is a whole, valid event (a file edited by hand) is kept: the newline is added
    and ``None`` is returned. A missing file has nothing to repair: ``None``.
    """
    found = torn_tail(path)
    if found is None:
        return None
    start, tail = found
    with open(path, "r+b") as f:
        if _is_event(tail):
            f.seek(0, os.SEEK_END)
            f.write(b"\n")
            f.flush()
            os.fsync(f.fileno())
            return None
        with open(f"{path}.torn", "ab") as torn:
            torn.write(tail if tail.endswith(b"\n") else tail + b"\n")
            torn.flush()
            os.fsync(torn.fileno())
        f.truncate(start)
        f.flush()
        os.fsync(f.fileno())
    return tail


def _is_event(line: bytes) -> bool:
    body = line.rstrip(b"\r")
    if body.startswith(b"\xef\xbb\xbf"):
        body = body[3:]
    if not body.strip():
        return False
    try:
        parse_event(body)
    except ValidationError:
        return False
    return True
