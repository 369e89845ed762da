"""Quick validation: whole games checked by a C core, the rest line by line.

Most games of a log are legal and written in the plain shapes that writers emit.
The quick core (``truclog.validate._quick``, a C extension built with the package) checks
such a game whole, from the line after its ``game`` line to the next game line,
without making a Python object per line. At the first line it cannot read (a
number past 15 digits, a value nested deep) or that breaks a rule or a claim, it
gives the game back, and the Python validator checks it line by line and says what
is wrong: the quick core only ever clears a game that the Python validator would
clear, with the same score, hands and fingerprint (``tests/test_quick.py`` holds it
to that). Without the C extension, everything is checked line by line.

:func:`check_log` is :func:`truclog.validate.check_log` with quick games, which come
as :class:`~truclog.validate.tally.GameTally`. A log whose games the core clears is checked
without importing the engine, the models or the line-by-line validator: they are
imported when a first game goes line by line. It reads the log in blocks of
:data:`BLOCK` bytes and holds at most one block and one game (of at most
:data:`LONGEST_GAME` bytes); a line longer than
:data:`~truclog.format.reader.LONGEST_LINE` is passed a block at a time, never held whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import suppress
from typing import TYPE_CHECKING, Any, cast

import orjson

from truclog import build
from truclog.codes import Read
from truclog.diagnostic import Diagnostic, unfinished
from truclog.engine.rules import Rules
from truclog.format.copies import comparable, compared
from truclog.format.header import PlainHeader
from truclog.format.parts import Source, first_line, name_of, open_source
from truclog.format.reader import (
    LONGEST_LINE,
    READ_ERRORS,
    STDIN,
    STDIN_NAME,
    LogLine,
    line_body,
    not_text,
    read_line,
    too_long,
    unreadable,
)
from truclog.terminal import unicode
from truclog.validate.games import check_lines
from truclog.validate.quick_rules import core_rules
from truclog.validate.tally import GameTally

if TYPE_CHECKING:
    from truclog.format.events import GameEvent
    from truclog.validate.checker import CheckedGame
    from truclog.validate.facts import GameFacts

_quick = build.QUICK_CORE
STALE = build.STALE
"""The quick core was built from another ``_quick.c``: ``pip install -e .`` builds it again."""
AVAILABLE: bool = build.AVAILABLE
"""Whether the quick core was built (from this source)."""


def built_from_source() -> bool:
    """Whether the quick core was built from the ``_quick.c`` beside it, if there is one
    (a work tree): a core left from an older source is not used."""
    return build.built_from_source(__file__)


def facts_available() -> bool:
    """Whether the quick core can give statistics their facts: built, with the C solver
    it answers strengths and reviews with built from its source too."""
    return AVAILABLE and build.solver() is not None


BLOCK = 1 << 20
"""Bytes read at a time."""

LONGEST_GAME = 1 << 23
"""A game longer than this (in bytes) is checked line by line, so memory stays bounded."""

BLOCK_HANDS = 512
"""An export takes the rows of a game longer than a block read (:data:`BLOCK`) of more
hands than this a block of this many hands at a time, told again by the core as the
export goes: not the whole game's at once."""

_DONE, _MORE = 0, 1
_PLAY, _GAME_OVER = 2, 4  # the core's numbers of these phases (``truclog.engine.Phase``)
_LARGEST = 10**12  # scores and limits past this go line by line (the core counts in 64 bits)

Table = tuple[Any, ...]
Start = tuple[tuple[str, str], Table, Rules]
"""A game's sides, the table the quick core plays it on and its rules."""


STATS_FACTS, REVIEW_FACTS, ROWS_FACTS, EXPORT_FACTS, REVIEW_ROWS_FACTS = 1, 2, 3, 4, 5
"""What ``facts`` asks of the quick core: the facts statistics count, or those and what
the review of decisions needs more, as lists; or (``ROWS_FACTS``) the facts statistics
count as rows of C values (a ``_quick.Facts``), which a batch of statistics takes whole
and hands to polars without a Python object per value; or (``EXPORT_FACTS``) those and
the rows of an export (see :class:`~truclog.validate.facts.GameFacts`), as rows of C
values too; or (``REVIEW_ROWS_FACTS``) those of ``REVIEW_FACTS`` as rows of C values,
which ``_quick.decisions`` reads (and ``_quick.review_lists`` makes lists of)."""


def give_back() -> None:
    """Give the memory the C allocator holds free back to the system, in every thread's
    arena (glibc's ``malloc_trim``; nothing without the quick core or elsewhere): a
    thread that read a long game lets go of what it made in its own arena, which the
    other threads never reuse."""
    if _quick is not None:
        _quick.give_back()


def check_log(
    source: Source,
    facts: int = 0,
    meter: Callable[[int], None] | None = None,
    keep_hands: bool = True,
) -> Iterator[CheckedGame | GameTally | Diagnostic]:
    """Check one file (or ``-``, or a part of a file) as
    :func:`truclog.validate.check_log` does, clearing plain legal games with the quick
    core (with their :class:`~truclog.validate.facts.GameFacts` when ``facts``, one of
    :data:`STATS_FACTS`, :data:`REVIEW_FACTS`, :data:`ROWS_FACTS`, :data:`EXPORT_FACTS` and
    :data:`REVIEW_ROWS_FACTS`:
    with the last, a game with a note or marks on a line is checked line by line);
    ``meter`` hears of the bytes read (of the file itself for a ``.gz`` file) block by
    block; ``keep_hands`` as for :func:`~truclog.validate.games.check_lines`."""
    sweep = _Sweep(source, facts, meter, spool=keep_hands)
    yield from check_lines(name_of(source), sweep.items(), keep_hands)


def table(header: GameEvent | PlainHeader) -> tuple[tuple[str, ...], Table] | None:
    """The game's sides (its players or teams, see :func:`~truclog.engine.sides.sides_of`)
    and the table the quick core plays it on, or ``None`` when the game is for the
    Python validator alone. The header was checked when it was read: its players,
    dealer, teams and starting score fit."""
    players, sides, rules = header.players, header.sides, header.rules_obj
    try:
        names = tuple(name.encode() for name in players)
        teams = tuple(name.encode() for name in sides)
    except UnicodeEncodeError:
        return None
    given = header.score or {}
    score = [given.get(side, 0) for side in sides]
    if max(*score, rules.target, rules.max_value or 0) > _LARGEST:
        return None
    played = core_rules(rules)
    if played is None:  # a rule the core does not know
        return None
    dealer = players.index(header.dealer)
    return sides, (names, teams, dealer, score[0], score[1], *played, any(score))


_STARTS: dict[tuple[Any, ...], Start | None] = {}
"""The start of games whose plain ``game`` lines differ only by what the core is not
given (id, date, time...): a log's games are played by a few tables over and over."""


def start_of(header: GameEvent | PlainHeader) -> Start | None:
    """:func:`table` with the game's rules, remembered for plain headers."""
    if not isinstance(header, PlainHeader):
        return _start(header)
    score = header.score
    given = None if score is None else tuple(score.items())
    key: tuple[Any, ...] = (header.rules, header.dealer, given, *header.players)
    if key in _STARTS:
        return _STARTS[key]
    if len(_STARTS) >= 256:
        _STARTS.clear()
    found = _STARTS[key] = _start(header)
    return found


def _start(header: GameEvent | PlainHeader) -> Start | None:
    found = table(header)
    if found is None:
        return None
    sides, setup = found
    return (sides[0], sides[1]), setup, header.rules_obj


class _Sweep:
    """One log read in blocks: its lines one by one, or its games whole."""

    def __init__(
        self,
        source: Source,
        facts: int = 0,
        meter: Callable[[int], None] | None = None,
        spool: bool = False,
    ) -> None:
        self.source = source
        self.spool = spool
        """Standard input copied as it is read (see :mod:`truclog.format.spool`)."""
        self.path = path = name_of(source)
        self.facts = facts
        self.meter = meter
        self.told = 0  # bytes of the file told to the meter
        self.name = STDIN_NAME if path == STDIN else path
        self.data = b""
        self.pos = 0  # where the next line starts in data
        self.number = first_line(source)  # lines taken so far
        self.eof = False
        self.error: Exception | None = None
        self.made: type[GameFacts] | None = _facts() if facts else None

    def items(self) -> Iterator[LogLine | GameTally]:
        with open_source(self.source, self.spool) as stream:
            self.stream = stream
            while (line := self._line()) is not None:
                if line.problem is not None and line.problem.code == Read.NOT_TEXT:
                    yield line
                    return
                if _quick is not None and line.type == "game":
                    yield self._game(line)
                else:
                    yield line
        if self.error is not None:
            yield unreadable(self.name, self.number, self.error)

    def _more(self) -> bool:
        """Read a block, dropping what was taken; False at the end (or a read error)."""
        if self.eof:
            return False
        chunks, size = [], 0
        try:
            while size < BLOCK and (chunk := self.stream.read1(BLOCK - size)):
                chunks.append(chunk)
                size += len(chunk)
        except READ_ERRORS as exc:
            self.error = exc
        self.eof = size < BLOCK
        if self.meter is not None:
            self._tell()
        data = self.data[self.pos :] + b"".join(chunks)
        if self.error is not None:  # a torn last line is not read (as by lines)
            data = data[: data.rfind(b"\n") + 1]
        self.data, self.pos = data, 0
        return size > 0

    def _torn(self) -> bool:
        """Whether reading the log failed (asked again after each read: compiled, an
        attribute checked once is taken to stay as it was)."""
        return self.error is not None

    def _tell(self) -> None:
        raw = getattr(self.stream, "fileobj", self.stream)
        with suppress(OSError, ValueError):
            at = raw.tell()
            assert self.meter is not None
            self.meter(at - self.told)
            self.told = at

    def _line(self) -> LogLine | None:
        """The next non-blank line, read as :func:`truclog.format.reader.read_log` reads it."""
        while True:
            end = self.data.find(b"\n", self.pos)
            length = (len(self.data) if end < 0 else end) - self.pos
            if self.data.find(b"\0", self.pos, self.pos + length) >= 0:
                self.number += 1
                return not_text(self.name, self.number)
            if length > LONGEST_LINE:
                self.number += 1
                return too_long(self.name, self.number, self._skip(end))
            if end < 0 and self._more():
                continue
            if end < 0 and self.pos >= len(self.data):
                return None
            stop = len(self.data) if end < 0 else end + 1
            raw, self.pos = self.data[self.pos : stop], stop
            self.number += 1
            body = line_body(raw, self.number)
            if body is not None:
                core = _quick is not None
                return read_line(self.name, self.number, *body, headers=core, compare=not core)

    def _skip(self, end: int) -> int:
        """Pass a line too long to read (its newline at ``end``, or not read yet), a
        block at a time without keeping it; its length."""
        if end >= 0:
            length, self.pos = end - self.pos, end + 1
            return length
        length = len(self.data) - self.pos
        self.data, self.pos = b"", 0
        while not self.eof:
            try:
                chunk = self.stream.read1(BLOCK)
            except READ_ERRORS as exc:
                self.error, self.eof = exc, True
                break
            end = chunk.find(b"\n")
            if end >= 0:
                self.data = chunk[end + 1 :]
                return length + end
            self.eof = not chunk
            length += len(chunk)
        return length

    def _scan(
        self, setup: Table, head: bytes | None, start: bytes | None, facts: int
    ) -> tuple[Any, ...]:
        """The core's scan of the game from the data read so far, asking ``facts``; the
        game line ``head`` compared by the core, or ``start``, as compared already."""
        assert _quick is not None
        return cast(
            "tuple[Any, ...]",
            _quick.scan(
                self.data,
                self.pos,
                self.number + 1,
                self.eof,
                setup,
                LONGEST_LINE,
                facts,
                head,
                start,
            ),
        )

    def _blocks(self, setup: Table, end: int) -> Any:
        """The export's rows of the game the core cleared from the data read so far (its
        lines up to byte ``end``), a block of :data:`BLOCK_HANDS` hands at a time (a
        ``_quick.HandBlocks``), or ``None`` when the core cannot tell them all."""
        assert _quick is not None
        return _quick.hand_blocks(self.data, self.pos, self.number + 1, end, setup, BLOCK_HANDS)

    def _game(self, line: LogLine) -> LogLine | GameTally:
        """The game that ``line`` starts, checked whole; or the line itself, when the
        game is to be checked line by line (reading goes on after the line)."""
        header = cast("GameEvent | PlainHeader", line.parsed)
        assert _quick is not None
        start = start_of(header)
        if start is None or self._torn():
            return _read(line)
        sides, setup, rules = start
        head = None if line.comparable else line.raw  # a plain game line: compared by the core
        opening = None if head is not None else b"\n".join(compared(line))  # compared here
        asked = self.facts
        while True:
            found = self._scan(setup, head, opening, asked)
            if found[0] != _MORE:
                break
            # a game longer than a block is scanned on without its facts until its end
            # is read, then once with them (an export's of many hands, a block of hands
            # at a time): the facts of the blocks read so far, made again at each
            # block, came to 80 MB at a time for a game of 8 MiB
            asked = 0
            if len(self.data) - self.pos > LONGEST_GAME:
                return _read(line)
            self._more()  # more of the game, or the end of the log: then scanned to its end
            if self._torn():  # line by line, as the reader sees it
                return _read(line)
        blocks = None
        if asked != self.facts and found[0] == _DONE:
            if self.facts == EXPORT_FACTS and found[4] > BLOCK_HANDS:
                blocks = self._blocks(setup, found[1])
                if blocks is None:
                    return _read(line)
            else:
                found = self._scan(setup, head, opening, self.facts)
        status, pos, number, last, hands, hand_no, phase, score0, score1, ended = found[:10]
        if status != _DONE:
            return _read(line)
        self.pos, self.number = pos, number - 1
        score, won = {sides[0]: score0, sides[1]: score1}, found[-1]
        game_id = header.id or unicode(f"{self.path}:{line.line}")
        made = self.made
        facts = None
        if blocks is not None and made is not None:
            facts = made(rules, sides, (), (), blocks.first_day, None, True, blocks)
        elif made is not None:
            told = found[11]
            if told[1] is None:  # rows of C values, in a Facts
                wide = self.facts == EXPORT_FACTS
                facts = made(rules, sides, (), (), told[2], told[0], wide)  # (..., rows, wide)
            else:
                facts = made(rules, sides, *told)
        warnings = []
        if phase != _GAME_OVER and not ended:
            mid_hand = phase == _PLAY
            warnings.append(
                unfinished(self.path, last, game_id, score, rules.target, hand_no, mid_hand)
            )
        return GameTally(  # by position (path, line, id, ... facts): a game's named
            # fields made a dict of them for each game
            self.path,
            line.line,
            game_id,
            tuple(header.players),
            score,
            None if won < 0 else sides[won],
            phase == _GAME_OVER,
            hands,
            found[10],  # the fingerprint: the core's hash of the lines as compared
            warnings,
            header,
            bool(ended),
            facts,
        )


def _read(line: LogLine) -> LogLine:
    """A game line for the Python validator: its event made, and its ``comparable``,
    if it was read plainly."""
    if isinstance(line.parsed, PlainHeader):
        line.parsed = line.parsed.event()
        if not line.comparable:
            line.comparable = comparable(orjson.loads(line.raw))
    return line


def _facts() -> type[GameFacts]:
    """:class:`~truclog.validate.facts.GameFacts`, imported for statistics alone."""
    from truclog.validate.facts import GameFacts

    return GameFacts
