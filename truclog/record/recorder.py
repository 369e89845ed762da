"""Recording a game as it is played: every event checked by the engine, then written durably.

A :class:`Recorder` owns one log file. Each call (``deal``, ``raise_``, ``play``...)
checks the action with the engine (:meth:`State.check <truclog.engine.State.check>`);
an illegal one raises :class:`~truclog.errors.IllegalActionError` and writes
nothing. A legal one is appended as a canonical truclog/1 line, flushed and
fsynced before the call returns. The recorder then writes what follows from it
by itself: the ``result`` line of a decided hand, ``game_end`` when someone
reaches the target, and the next ``game`` of a rubber.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "cafe.truclog.jsonl"
>>> rec = Recorder.start(path, ["Ana", "Marc"], dealer="Marc", clock=None)
>>> _ = rec.deal({"Ana": ["7h", "Q", "9s"]})
>>> _ = rec.raise_("Ana", 2); _ = rec.accept("Marc")
>>> for player, card in [("Ana", "7h"), ("Marc", "As"), ("Ana", "Q"), ("Marc", "Jd")]:
...     _ = rec.play(player, card)
>>> print(path.read_text().splitlines()[-1])
{"type":"result","winner":"Ana","points":2,"score":{"Ana":2,"Marc":0}}
>>> rec.fold("Marc")
Traceback (most recent call last):
...
truclog.errors.IllegalActionError: hand 1 is already decided: no fold may follow
>>> [str(e.type) for e in rec.undo()]
['play', 'result']
>>> rec.close()

Undo, edits, notes and marks rewrite the file atomically (a temporary file in the same
directory, fsynced, then renamed over the log), and every line they remove or
replace is appended to ``<log>.undone`` first, so nothing recorded is lost and
the log on disk always validates.

One log has one recorder at a time, across processes (:mod:`truclog.record.lock`). A
write that fails (a full disk, a read-only folder) is cut back to the last whole
line and raises :class:`DiskError`: nothing half-written stays, and recording goes
on when the disk allows it again.
"""

from __future__ import annotations

import glob
import os
import random
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
from pydantic import ValidationError

from truclog.codes import Tool
from truclog.engine.actions import Accept, Action, Deal, Fold, Play, Raise, Redeal, Show
from truclog.engine.cards import Card, deck, parse_card, parse_dealt
from truclog.engine.state import Phase, Rubber, State
from truclog.errors import IllegalActionError, TruclogError, reason
from truclog.format.atomic import fsync_dir
from truclog.format.events import (
    Event,
    GameEndEvent,
    GameEvent,
    ResultEvent,
    action_to_event,
    event_to_action,
    reasons,
)
from truclog.format.header import FORMAT
from truclog.format.reader import read_log
from truclog.format.scorekeeper import game_end, next_game, result
from truclog.format.writer import LogWriter, as_dict, dumps, repair_torn_tail, torn_tail
from truclog.record.lock import LogLock, LogLockedError

Clock = Callable[[], datetime]
CardSpec = Card | str | None


class RecordError(TruclogError):
    """The recorder cannot do what was asked (not an illegal move: see IllegalActionError)."""

    code = Tool.RECORDER


class DiskError(RecordError):
    """The disk refused a read or a write (full, read-only, failing): nothing half-done stays."""


class EditError(RecordError):
    """An edit that would make a later line of the log illegal; nothing was changed."""


COMMON_MARKS = ("bluff?", "review", "misdeal", "dispute", "misplay")
"""Marks the recorder offers as buttons: a raise that may have been a bluff, a hand to
look at again, a deal that went wrong at the table, a line the players disagreed on,
a card or answer that looked wrong."""

ME = "_me"
"""The ``game`` line's extension field naming whose cards the scorer enters (``--me``)."""


def local_now() -> datetime:
    """The local time to the second, with its UTC offset (the default clock)."""
    return datetime.now().astimezone().replace(microsecond=0)


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the log: its bytes, its event, and whether the recorder wrote it by itself."""

    raw: bytes
    event: Event
    auto: bool = False


class Recorder:
    """The checked, durable way to log games to one file; see the module docstring.

    ``Recorder(path)`` opens a log (a new one, or an existing one to continue);
    :meth:`start` opens it and starts a game, :meth:`resume` continues the game at
    its end. ``clock`` gives each line's ``t``; ``None`` writes no timestamps.
    All methods may be called from several threads; each recorder has its own lock.
    """

    repaired: bytes | None
    """The bytes of a torn last line cut off when the log was opened (kept in ``.torn``)."""
    completed: list[Event]
    """The lines written on opening, that a crash had left unwritten."""

    def __init__(
        self,
        path: str | Path,
        *,
        clock: Clock | None = local_now,
        me: str | None = None,
        resuming: bool = False,
    ) -> None:
        self._prepare(path, clock)
        self._claim()
        try:
            self._tidy()
            self._load()
            if resuming:
                self._check_resumable(me)
            with self._disk("could not open the log to record"):
                self.repaired = repair_torn_tail(self.path) if self._torn else None
                self._writer = LogWriter(self.path)
                if self._held is not None:
                    self._held.take_log(self.path)
            with self._disk("could not write the lines still due"):
                self.completed = self._complete()
        except BaseException:
            self._release()
            raise

    def _prepare(self, path: str | Path, clock: Clock | None) -> None:
        self.path = Path(os.path.realpath(path))  # a link's file: its rewrites keep the link
        self.clock = clock
        self._lock = threading.RLock()
        self._entries: list[Entry] = []
        self._held: LogLock | None = None
        self._dry = False
        self._torn = False
        self.repaired = None
        self.completed = []
        self.state: State | None = None
        self.header: GameEvent | None = None
        self._closed = False
        _refuse_compressed(self.path)

    # --- opening and closing ------------------------------------------------

    @classmethod
    def start(
        cls,
        path: str | Path,
        players: Sequence[str],
        dealer: str,
        rules: str | Mapping[str, Any] = "classic",
        score: Mapping[str, int] | None = None,
        match: str | None = None,
        teams: Mapping[str, Sequence[str]] | None = None,
        id: str | None = None,
        source: str = "tabletop",
        *,
        clock: Clock | None = local_now,
        note: str | None = None,
        me: str | None = None,
    ) -> Recorder:
        """Open ``path`` (created if needed) and start a game in it."""
        recorder = cls(path, clock=clock)
        try:
            recorder.new_game(
                players, dealer, rules, score, match, teams, id, source, note=note, me=me
            )
        except BaseException:
            recorder.close()
            raise
        return recorder

    @classmethod
    def resume(
        cls, path: str | Path, *, clock: Clock | None = local_now, me: str | None = None
    ) -> Recorder:
        """Continue the last game of an existing log, repairing a line torn by a crash.

        ``me`` (whose cards the scorer enters) must be a player of that game. A log
        that cannot be resumed is refused before anything on disk is changed.
        """
        if not Path(path).exists():
            raise RecordError(f"{path}: no such log to resume")
        return cls(path, clock=clock, me=me, resuming=True)

    @classmethod
    def unfinished(cls, path: str | Path) -> State | None:
        """The game in progress at the end of a log (``None``: none, or the log does not
        read); the log is only read, not locked or changed."""
        peek = cls.__new__(cls)
        try:
            peek._prepare(path, None)
            if not peek.path.is_file():
                return None
            peek._load()
        except (TruclogError, OSError):
            return None
        return None if peek.over else peek.state

    def _check_resumable(self, me: str | None) -> None:
        if self.state is None:
            raise RecordError(f"{self.path}: the log holds no game to resume")
        if me is not None and me not in self.state.players:
            raise RecordError(
                f"--me {me!r} is not a player of this game ({', '.join(self.state.players)})"
            )

    def close(self) -> None:
        """Close the log and give up its lock; closing again does nothing."""
        with self._lock:
            if not self._closed:
                self._closed = True
                try:
                    self._writer.close()
                finally:
                    self._release()

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _claim(self) -> None:
        try:
            with self._disk("could not lock the log"):
                self._held = LogLock.acquire(self.path)
        except LogLockedError as exc:
            raise RecordError(exc.message) from None

    def _tidy(self) -> None:
        """Undo what rewrites killed before their rename left: their new log
        (``.<log>.<pid>.<size>.tmp``) goes, and the lines they had set aside leave
        ``.undone`` again (cut back to ``size``). The lock is held, so no rewrite of
        this log is under way."""
        start = f".{self.path.name}."
        for temp in self.path.parent.glob(f"{glob.escape(start)}*.tmp"):
            numbers = temp.name[len(start) : -len(".tmp")].split(".")
            with suppress(OSError):
                if len(numbers) == 2 and all(n.isdigit() for n in numbers):
                    _cut_back(self._aside, int(numbers[1]))
                temp.unlink()

    def _release(self) -> None:
        if self._held is not None:
            self._held.release()
            self._held = None

    @contextmanager
    def _disk(self, doing: str) -> Iterator[None]:
        """Turn an ``OSError`` into a :class:`DiskError` that says what failed, where."""
        try:
            yield
        except OSError as exc:
            where = exc.filename or self.path
            raise DiskError(f"{where}: {doing}: {reason(exc)}") from exc

    # --- what can be read ---------------------------------------------------

    @property
    def entries(self) -> tuple[Entry, ...]:
        """Every line of the log, in order."""
        return tuple(self._entries)

    @property
    def game_entries(self) -> tuple[Entry, ...]:
        """The lines of the current game, its ``game`` line first."""
        return tuple(self._entries[self._game_start :])

    @property
    def last_entered(self) -> int | None:
        """The index in :attr:`entries` of the last line entered (not one the recorder
        wrote by itself), ``None`` for none."""
        return next(
            (i for i in reversed(range(len(self._entries))) if not self._entries[i].auto), None
        )

    @property
    def over(self) -> bool:
        """True when the current game has ended (won or abandoned) or there is none."""
        return self.state is None or self._ended

    @property
    def me(self) -> str | None:
        """Whose cards the scorer enters in the current game (its ``game`` line's ``_me``)."""
        if self.header is None or self.state is None:
            return None
        me = self.header.extensions.get(ME)
        return me if isinstance(me, str) and me in self.state.players else None

    @property
    def rubber(self) -> dict[str, int]:
        """Games won by each side in the current game's match (empty without a match)."""
        if self.header is None or self.header.match is None:
            return {}
        assert self.state is not None
        wins = self._rubbers.get(self.header.match, Rubber()).wins
        return {team: wins.get(team, 0) for team in self.state.teams}

    @property
    def next_dealer(self) -> str | None:
        """Who deals the next deal (the current dealer again after a granted redeal)."""
        state = self.state
        if state is None or state.phase is Phase.GAME_OVER or self._ended:
            return None
        return state.next_deal.dealer

    # --- starting a game ----------------------------------------------------

    def new_game(
        self,
        players: Sequence[str],
        dealer: str,
        rules: str | Mapping[str, Any] = "classic",
        score: Mapping[str, int] | None = None,
        match: str | None = None,
        teams: Mapping[str, Sequence[str]] | None = None,
        id: str | None = None,
        source: str = "tabletop",
        *,
        date: str | None = None,
        tags: Mapping[str, str] | None = None,
        note: str | None = None,
        me: str | None = None,
    ) -> GameEvent:
        """Write a ``game`` line and make it the current game; ``me`` (a player) is kept
        in its ``_me`` field, whose cards the scorer enters."""
        with self._lock:
            self._usable()
            if not self.over:
                raise RecordError("the current game is still in progress: abandon it first")
            State.new(players, dealer, rules, score, teams)
            if me is not None and me not in players:
                raise RecordError(f"{me!r} is not one of the players")
            fields: dict[str, Any] = {
                "format": FORMAT,
                "players": list(players),
                "dealer": dealer,
                "rules": rules if isinstance(rules, str) else dict(rules),
                "source": source,
            }
            date = date or self._today()
            optional = {
                "id": id or self._new_id(date),
                "date": date,
                "score": dict(score) if score else None,
                "match": match,
                "teams": {k: list(v) for k, v in teams.items()} if teams else None,
                "tags": dict(tags) if tags else None,
                ME: me,
            }
            fields.update({k: v for k, v in optional.items() if v is not None})
            try:
                event = GameEvent(**fields, **self._common(note))
            except ValidationError as exc:
                raise RecordError(f"the game line: {reasons(exc, tagged=False)}") from None
            with self._disk("the game line was not written"):
                self._append(event)
            return event

    # --- the actions of a hand ----------------------------------------------

    def deal(
        self,
        cards: Mapping[str, Iterable[CardSpec] | str] | None = None,
        dealer: str | None = None,
        *,
        note: str | None = None,
    ) -> Event:
        """Record a deal (or the new deal of a granted redeal).

        ``cards`` maps a player to three cards (``"7h"``, ``"Q"``, ``"??"`` or ``None``
        for an unseen one); players left out were dealt cards nobody noted. The
        dealer defaults to whoever must deal.
        """
        with self._lock:
            state = self._game()
            due = state.next_deal
            held = {
                player: [_dealt(c) for c in (given.split() if isinstance(given, str) else given)]
                for player, given in (cards or {}).items()
            }
            held = {p: c for p, c in held.items() if any(x is not None for x in c)}
            return self._record(Deal.of(dealer or due.dealer, held, hand=due.hand), note)

    def redeal(self, player: str, accepted: bool, *, note: str | None = None) -> Event:
        """The non-dealer asked for a redeal; ``accepted`` is the dealer's answer."""
        return self._record(Redeal(player, accepted), note)

    def raise_(self, player: str, to: int, *, note: str | None = None) -> Event:
        """A raise to ``to``."""
        return self._record(Raise(player, to=to), note)

    def reste(self, player: str, *, note: str | None = None) -> Event:
        """A raise to the player's remainder ("mon reste")."""
        return self._record(Raise(player, reste=True), note)

    def accept(self, player: str, *, note: str | None = None) -> Event:
        """``player`` accepts the pending raise."""
        return self._record(Accept(player), note)

    def fold(self, player: str, *, note: str | None = None) -> Event:
        """``player`` folds: to the pending raise, or gives up the hand where the rules allow."""
        return self._record(Fold(player), note)

    def play(self, player: str, card: Card | str, *, note: str | None = None) -> Event:
        """A card played to the trick (a rank alone when the suit was not noted)."""
        return self._record(Play(player, _card(card)), note)

    def show(self, player: str, cards: Iterable[Card | str], *, note: str | None = None) -> Event:
        """Cards a player still held, shown after the hand."""
        return self._record(Show(player, tuple(_card(c) for c in cards)), note)

    def record(
        self, action: Action, *, note: str | None = None, marks: Sequence[str] = ()
    ) -> Event:
        """Record any engine action (what the methods above build), with a note and
        marks if given."""
        return self._record(action, note, marks)

    def abandon(self, *, note: str | None = None) -> Event:
        """End the current game before anyone reached the target."""
        with self._lock:
            self._catch_up()
            state = self._game()
            if self._ended or state.phase is Phase.GAME_OVER:
                raise RecordError("the game is already over: there is nothing to abandon")
            event = game_end(state, **self._common(note))
            with self._disk("the game was not abandoned"):
                self._append(event)
            return event

    # --- corrections --------------------------------------------------------

    def undo(self) -> list[Event]:
        """Take back the last event entered, with the lines the recorder wrote after it.

        Undoing the play that decided a hand removes its ``result`` (and ``game_end``,
        and the next game of a rubber) too. Returns the removed events, which are
        also appended to ``<log>.undone``.
        """
        with self._lock:
            self._usable()
            cut = len(self._entries)
            while cut and self._entries[cut - 1].auto:
                cut -= 1
            if cut == 0:
                raise RecordError("there is nothing to undo")
            removed = self._entries[cut - 1 :]
            with self._disk("nothing was undone"):
                self._rewrite(self._entries[: cut - 1], removed)
            return [entry.event for entry in removed]

    def edit(self, at: int, action: Action) -> list[Event]:
        """Replace the entry at index ``at`` of :attr:`entries` by ``action`` (keeping its
        ``t``, note and marks), and check every later line again.

        The lines the recorder wrote by itself (``result``, ``game_end``, a rubber's
        next game) are written again from the new play, keeping the time and note of
        the ones they replace. If a later entry would no longer be legal, nothing
        changes and :class:`EditError` names its line. Otherwise the log is rewritten
        atomically and the lines that changed are first appended to
        ``<log>.undone``; they are returned.
        """
        with self._lock:
            self._usable()
            index = at if at >= 0 else len(self._entries) + at
            if not 0 <= index < len(self._entries):
                raise RecordError(f"there is no line {at} to edit")
            old = self._entries[index]
            if old.auto or event_to_action(old.event) is None:
                raise RecordError(
                    f"line {index + 1} ({old.event.type}) is not an entry that can be edited: "
                    "edit the deal, raise, answer, redeal, card or show it follows from"
                )
            event = action_to_event(action, **_time_and_notes(old))
            entries = self._checked_rewrite(index, Entry(dumps(event), event))
            first = next(
                (
                    i
                    for i, (a, b) in enumerate(zip(self._entries, entries, strict=False))
                    if a.raw != b.raw
                ),
                min(len(entries), len(self._entries)),
            )
            changed = self._entries[first:]
            if not changed and len(entries) == len(self._entries):
                return []
            with self._disk("nothing was edited"):
                self._rewrite(entries, changed)
            return [entry.event for entry in changed]

    def state_at(self, at: int) -> State:
        """The state of play just before the line at index ``at`` of :attr:`entries`
        (within its game): what an edit of that line is checked against."""
        with self._lock:
            start = max(
                (i for i in range(at + 1) if isinstance(self._entries[i].event, GameEvent)),
                default=None,
            )
            if start is None or start == at:
                raise RecordError(f"line {at + 1} is not within a game")
            return self._played(start, at)

    @classmethod
    def games(cls, path: str | Path) -> list[State]:
        """The state at the end of each game of a log (read only: not locked or changed)."""
        peek = cls.__new__(cls)
        peek._prepare(path, None)
        if not peek.path.is_file():
            raise RecordError(f"{path}: no such log")
        peek._load()
        starts = [i for i, e in enumerate(peek._entries) if isinstance(e.event, GameEvent)]
        ends = [*starts[1:], len(peek._entries)]
        return [peek._played(start, end) for start, end in zip(starts, ends, strict=True)]

    def _played(self, start: int, end: int) -> State:
        """The game whose ``game`` line is at ``start``, played up to ``end`` (excluded)."""
        header = self._entries[start].event
        assert isinstance(header, GameEvent)
        state = State.new(
            header.players, header.dealer, header.rules_obj, header.score, header.teams
        )
        for entry in self._entries[start + 1 : end]:
            action = event_to_action(entry.event)
            if action is not None:
                state.push(action)
        return state

    def _checked_rewrite(self, index: int, entry: Entry) -> list[Entry]:
        """The log with ``entry`` at ``index`` and every later entry replayed after it
        (the recorder's own lines written again); nothing is written."""
        saved = self._entries
        later = [entry, *saved[index + 1 :]]
        self._dry = True
        try:
            self._entries = list(saved[:index])
            self._replay()
            number = index + 1  # of each entry in the log as it is
            for mine, autos in _with_autos(later):
                self._redo(mine, number)
                number += 1 + len(autos)
                done = len(self._entries)
                self._complete()
                for i, old in enumerate(autos[: len(self._entries) - done]):
                    self._entries[done + i] = _carry(self._entries[done + i], old)
            return self._entries
        finally:
            self._dry = False
            self._entries = saved
            self._replay()

    def _redo(self, entry: Entry, number: int) -> None:
        event = entry.event
        action = event_to_action(event)
        try:
            if action is not None:
                self._game(action).check(action)
            elif isinstance(event, GameEvent) and not self.over:
                raise RecordError("a game line while the game before is still in progress")
            elif isinstance(event, GameEndEvent) and self.over:
                raise RecordError("the game is already over: nothing to abandon")
            elif isinstance(event, GameEndEvent):  # an abandon: at the score the edit leaves
                event = game_end(self._game(), **_time_and_notes(entry))
        except TruclogError as exc:
            raise EditError(f"the edit would break line {number} ({event.type}): {exc}") from None
        self._append(event)

    def note(self, text: str, at: int | None = None) -> Event:
        """Attach a note to a line of the log: ``at`` indexes :attr:`entries`; by default
        the last line entered (not one the recorder wrote by itself). A note it replaces
        is kept in ``<log>.undone``."""
        return self._annotate(at, "note", lambda event: {"note": text or None})

    def mark(self, mark: str, at: int | None = None, *, on: bool = True) -> Event:
        """Put a mark on a line of the log (``on=False``: take it off); ``at`` as for
        :meth:`note`. A mark is a short tag of 1 to 40 characters (``"bluff?"``)."""

        def marked(event: Event) -> dict[str, Any]:
            marks = [m for m in event.marks or () if m != mark]
            return {"marks": [*marks, mark] if on else marks or None}

        return self._annotate(at, "mark", marked)

    def _annotate(
        self, at: int | None, what: str, change: Callable[[Event], dict[str, Any]]
    ) -> Event:
        """Rewrite one line with its note or marks changed; the line it replaces is kept
        in ``<log>.undone`` when it had a note or marks."""
        with self._lock:
            self._usable()
            if at is None:
                at = self.last_entered
                if at is None:
                    raise RecordError(f"there is no event to attach a {what} to")
            index = at if at >= 0 else len(self._entries) + at
            if not 0 <= index < len(self._entries):
                raise RecordError(f"there is no line {at} to attach a {what} to")
            old = self._entries[index]
            fields = {**old.event.model_dump(exclude_unset=True), **change(old.event)}
            try:
                event = type(old.event).model_validate(
                    {k: v for k, v in fields.items() if v is not None or k not in _KEPT}
                )
            except ValidationError as exc:
                raise RecordError(f"the {what}: {reasons(exc, tagged=False)}") from None
            entries = list(self._entries)
            entries[index] = Entry(dumps(event), event, old.auto)
            with self._disk(f"the {what} was not written"):
                self._rewrite(entries, [old] if old.event.note or old.event.marks else [])
            return event

    # --- inside -------------------------------------------------------------

    def _usable(self) -> None:
        if self._closed:
            raise RecordError(f"the recorder of {self.path} is closed")

    def _game(self, action: Action | None = None) -> State:
        """The current game, if ``action`` may still be recorded in it (after its end,
        only cards shown)."""
        self._usable()
        if self.state is None:
            raise RecordError("no game has been started in this log")
        if self._ended and not isinstance(action, Show):
            raise RecordError("the game is over: start a new game to record more")
        return self.state

    def _catch_up(self) -> None:
        """Write the lines a failed write left due (a result, game_end), now the disk allows."""
        self._usable()
        with self._disk("the lines still due from the last entry could not be written"):
            self._complete()

    def _record(self, action: Action, note: str | None, marks: Sequence[str] = ()) -> Event:
        with self._lock:
            self._catch_up()
            state = self._game(action)
            state.check(action)
            try:
                event = action_to_event(action, **self._common(note, marks))
            except ValidationError as exc:
                raise RecordError(f"nothing was recorded: {reasons(exc)}") from None
            with self._disk("nothing was recorded"):
                self._append(event)
            with self._disk(
                f"{event.type} recorded, but not the lines that follow from it "
                "(they are written with the next entry, or on resuming)"
            ):
                self._complete()
            return event

    def _common(self, note: str | None, marks: Sequence[str] = ()) -> dict[str, Any]:
        common: dict[str, Any] = {}
        if self.clock is not None:
            common["t"] = self.clock().isoformat(timespec="seconds")
        if note:
            common["note"] = note
        if marks:
            common["marks"] = list(marks)
        return common

    def _new_id(self, date: str | None) -> str:
        """The id of a game started without one: the log's name (where it is played),
        its date and its number in the log, ``cafe-du-port-2026-11-29-2``; never one
        the log holds already."""
        name = self.path.name.removesuffix(".jsonl").removesuffix(".truclog")
        place = name.replace(date, "").replace("--", "-").strip("-") if date else name
        headers = [e.event for e in self._entries if isinstance(e.event, GameEvent)]
        used = {header.id for header in headers}
        number = len(headers) + 1
        stem = "-".join(part for part in (place, date) if part)
        while f"{stem}-{number}" in used:
            number += 1
        return f"{stem}-{number}"

    def _today(self) -> str | None:
        return None if self.clock is None else self.clock().date().isoformat()

    def _append(self, event: Event, auto: bool = False) -> None:
        entry = Entry(dumps(event), event, auto)
        if not self._dry:
            self._writer.write_line(entry.raw)  # a failed write is cut back by the writer
        self._entries.append(entry)
        self._follow(entry, len(self._entries))

    def _complete(self) -> list[Event]:
        """Write the lines that follow from the last action: result, game_end, next game."""
        written: list[Event] = []
        state = self.state
        if state is None:
            return written
        if self._result_due and state.outcome is not None:
            written.append(self._auto(result(state, **self._common(None))))
        if state.phase is Phase.GAME_OVER and not self._ended:
            written.append(self._auto(game_end(state, **self._common(None))))
        following = self._next_game() if self._ended and not self._abandoned else None
        if following is not None:
            written.append(self._auto(following))
        return written

    def _auto(self, event: Event) -> Event:
        self._append(event, auto=True)
        return event

    def _next_game(self) -> GameEvent | None:
        """The next game of the rubber, if the game that ended is part of one still on."""
        header, state = self.header, self.state
        rubber = self._rubbers.get(header.match or "") if header is not None else None
        if header is None or state is None or rubber is None:
            return None
        me = {ME: self.me} if self.me is not None else {}
        return next_game(header, state, rubber, date=self._today(), **self._common(None), **me)

    @property
    def _aside(self) -> Path:
        return self.path.with_name(self.path.name + ".undone")

    def _set_aside(self, entries: Sequence[Entry]) -> int:
        """Append lines about to leave the log to ``<log>.undone`` (its torn tail
        repaired already), durably; the size the file had before them."""
        aside = self._aside
        size = aside.stat().st_size if aside.exists() else 0
        if entries:
            with LogWriter(aside) as out:
                out.write_line(b"".join(entry.raw for entry in entries))
        return size

    def _rewrite(self, entries: list[Entry], leaving: Sequence[Entry] = ()) -> None:
        """Replace the log by ``entries``, atomically, and replay it; ``leaving`` (the
        lines that leave it) are first set aside in ``<log>.undone``. The new log is
        written under a temporary name that holds the size ``.undone`` had before: a
        rewrite killed before its rename leaves that file, and the next start cuts
        ``.undone`` back to that size (:meth:`_tidy`)."""
        self._writer.close()
        aside = self._aside
        if torn_tail(aside) is not None:
            repair_torn_tail(aside)  # an older file cut by a crash
        size = aside.stat().st_size if aside.exists() else 0
        temp = self.path.with_name(f".{self.path.name}.{os.getpid()}.{size}.tmp")
        try:
            with open(temp, "wb") as out:
                out.write(b"".join(entry.raw for entry in entries))
                out.flush()
                os.fsync(out.fileno())
            self._set_aside(leaving)
            os.replace(temp, self.path)
        except BaseException:  # not replaced: the lines set aside leave .undone again
            with suppress(OSError):
                _cut_back(aside, size)
                temp.unlink(missing_ok=True)
            raise
        finally:
            self._writer = LogWriter(self.path)
        fsync_dir(self.path.parent)
        self._entries = entries
        self._replay()

    def _load(self) -> None:
        """Read the log back and replay it; nothing on disk is changed (a torn last line
        is left out here, and repaired once the log is known to be good)."""
        with self._disk("could not read the log"):
            torn = torn_tail(self.path)
            self._load_lines(torn)
        self._replay()

    def _load_lines(self, torn: tuple[int, bytes] | None) -> None:
        if not self.path.exists():
            return
        lines = list(read_log(self.path))
        self._torn = torn is not None
        if self._torn and lines and lines[-1].problem is not None:
            lines.pop()  # the torn line: moved to <log>.torn when the log is opened to write
        for line in lines:
            if line.problem is not None or line.event is None:
                why = line.problem.message if line.problem else "not an event"
                raise RecordError(
                    f"{self.path}:{line.line}: {why} (fix the log, or check it with "
                    "`truclog validate`, before recording more)"
                )
            raw = line.raw.removeprefix(b"\xef\xbb\xbf").rstrip(b"\r\n") + b"\n"
            self._entries.append(Entry(raw, line.event, self._is_auto(line.event)))

    def _is_auto(self, event: Event) -> bool:
        """Whether a line read back is one the recorder writes by itself."""
        if isinstance(event, ResultEvent):
            return True
        if isinstance(event, GameEndEvent):
            return not event.abandoned
        if isinstance(event, GameEvent) and self._entries:
            last = self._entries[-1].event
            return (
                isinstance(last, GameEndEvent)
                and not last.abandoned
                and event.match is not None
                and event.match == self._last_match()
            )
        return False

    def _last_match(self) -> str | None:
        for entry in reversed(self._entries):
            if isinstance(entry.event, GameEvent):
                return entry.event.match
        return None

    def _replay(self) -> None:
        self.state = None
        self.header = None
        self._game_start = len(self._entries)
        self._rubbers: dict[str, Rubber] = {}
        self._ended = False
        self._abandoned = False
        self._result_due = False
        for number, entry in enumerate(self._entries, start=1):
            self._follow(entry, number)

    def _follow(self, entry: Entry, number: int) -> None:
        """Bring the recorder's view up to date with one more line of the log."""
        event = entry.event
        if isinstance(event, GameEvent):
            self.state = State.new(
                event.players, event.dealer, event.rules_obj, event.score, event.teams
            )
            self.header = event
            self._game_start = number - 1
            self._ended = self._abandoned = self._result_due = False
            return
        if self.state is None:
            raise RecordError(f"{self.path}:{number}: a {event.type} line before any game line")
        if isinstance(event, ResultEvent):
            self._result_due = False
        elif isinstance(event, GameEndEvent):
            self._ended = True
            self._abandoned = bool(event.abandoned)
            match = self.header.match if self.header is not None else None
            if not self._abandoned and self.state.winner is not None and match is not None:
                rubber = self._rubbers.setdefault(match, Rubber())
                if rubber.winner is None:
                    rubber.record(self.state)
        else:
            self._push(event, number)

    def _push(self, event: Event, number: int) -> None:
        assert self.state is not None
        action = event_to_action(event)
        if action is None:
            return
        decided = len(self.state.outcomes)
        try:
            self.state.push(action)
        except IllegalActionError as exc:
            raise IllegalActionError(f"{self.path}:{number}: {exc.message}", exc.code) from None
        if isinstance(action, Deal):
            self._result_due = False
        if len(self.state.outcomes) > decided:
            self._result_due = True


def _with_autos(entries: Sequence[Entry]) -> Iterator[tuple[Entry, list[Entry]]]:
    """Each entry that was entered, with the recorder's own lines that followed it."""
    group: tuple[Entry, list[Entry]] | None = None
    for entry in entries:
        if entry.auto and group is not None:
            group[1].append(entry)
            continue
        if group is not None:
            yield group
        group = (entry, [])
    if group is not None:
        yield group


def _carry(new: Entry, old: Entry) -> Entry:
    """A line the recorder wrote again, with the time, note and marks of the one it replaces."""
    if new.event.type != old.event.type:
        return new
    fields = {k: v for k, v in as_dict(new.event).items() if k not in ("type", *_KEPT)}
    event = type(new.event)(**fields, **_time_and_notes(old))
    return Entry(dumps(event), event, new.auto)


_KEPT = ("t", "note", "marks")
"""What an edit keeps of the line it replaces."""


def _cut_back(path: Path, size: int) -> None:
    """Cut the file at ``path`` back to ``size`` bytes, if it is longer."""
    if path.exists() and path.stat().st_size > size:
        os.truncate(path, size)


def _time_and_notes(entry: Entry) -> dict[str, Any]:
    """The ``t``, ``note`` and ``marks`` of a line, as written."""
    line = orjson.loads(entry.raw)
    return {k: line[k] for k in _KEPT if isinstance(line.get(k), str | list)}


def _refuse_compressed(path: Path) -> None:
    """A ``.gz`` log is read by every other command, but cannot be appended to line by line."""
    compressed = path.suffix == ".gz"
    if not compressed and path.is_file():
        try:
            with open(path, "rb") as f:
                compressed = f.read(2) == b"\x1f\x8b"
        except OSError:
            return  # said when the log is read
    if compressed:
        raise RecordError(
            f"{path}: a compressed (gzip) log cannot be recorded to: record to a plain "
            ".jsonl file (gunzip this one first to go on with it)"
        )


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else parse_card(card)


def _dealt(card: CardSpec) -> Card | None:
    if card is None or isinstance(card, Card):
        return card
    return parse_dealt(card)


def cut_for_deal(players: Sequence[str], order: str, rng: random.Random) -> tuple[str, str]:
    """Cut for the deal: each player draws a card, the highest rank deals; ties draw again.

    Returns the dealer and what was drawn, for the ``game`` line's note.

    >>> cut_for_deal(["Ana", "Marc"], "78AKQJT9", random.Random(3))
    ('Ana', 'cut for the deal: Ana Ks, Marc Qh')
    """
    cards = deck(order)
    rng.shuffle(cards)
    drawn = [(player, cards.pop()) for player in players]
    cut = ", ".join(f"{player} {card}" for player, card in drawn)
    while True:
        best = min(order.index(card.rank) for _, card in drawn)
        top = [player for player, card in drawn if order.index(card.rank) == best]
        if len(top) == 1:
            return top[0], f"cut for the deal: {cut}"
        if len(cards) < len(top):
            cards = deck(order)
            rng.shuffle(cards)
        drawn = [(player, cards.pop()) for player in top]
        cut += "; again " + ", ".join(f"{player} {card}" for player, card in drawn)
