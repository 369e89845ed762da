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

Undo and notes rewrite the file atomically (a temporary file in the same
directory, fsynced, then renamed over the log), and every line they remove or
replace is appended to ``<log>.undone`` first, so nothing recorded is lost and
the log on disk always validates.
"""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from truclog.actions import Accept, Action, Deal, Fold, Play, Raise, Redeal, Show
from truclog.cards import Card, deck, parse_card, parse_dealt
from truclog.codes import Tool
from truclog.engine import Phase, Rubber, State
from truclog.errors import IllegalActionError, TruclogError
from truclog.events import (
    Event,
    GameEndEvent,
    GameEvent,
    ResultEvent,
    action_to_event,
    event_to_action,
    reasons,
)
from truclog.reader import read_log
from truclog.scorekeeper import game_end, next_game, result
from truclog.writer import LogWriter, dumps, fsync_dir, repair_torn_tail

Clock = Callable[[], datetime]
CardSpec = Card | str | None


class RecordError(TruclogError):
    """The recorder cannot do what was asked (not an illegal move: see IllegalActionError)."""

    code = Tool.RECORDER


def local_now() -> datetime:
    """The local time to the second, with its UTC offset (the default clock)."""
    return datetime.now().astimezone().replace(microsecond=0)


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the log: its bytes, its event, and whether the recorder wrote it by itself."""

    raw: bytes
    event: Event
    auto: bool = False


_OPEN: set[Path] = set()
_OPEN_LOCK = threading.Lock()


class Recorder:
    """The checked, durable way to log games to one file; see the module docstring.

    ``Recorder(path)`` opens a log (a new one, or an existing one to continue);
    :meth:`start` opens it and starts a game, :meth:`resume` continues the game at
    its end. ``clock`` gives each line's ``t``; ``None`` writes no timestamps.
    All methods may be called from several threads; each recorder has its own lock.
    """

    def __init__(self, path: str | Path, *, clock: Clock | None = local_now) -> None:
        self.path = Path(path).absolute()
        self.clock = clock
        self._lock = threading.RLock()
        self._entries: list[Entry] = []
        self.repaired: bytes | None = None
        self.completed: list[Event] = []
        self.state: State | None = None
        self.header: GameEvent | None = None
        self._closed = False
        self._claim()
        try:
            self._load()
            self._writer = LogWriter(self.path)
            self.completed = self._complete()
        except BaseException:
            self._release()
            raise

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
    ) -> Recorder:
        """Open ``path`` (created if needed) and start a game in it."""
        recorder = cls(path, clock=clock)
        try:
            recorder.new_game(players, dealer, rules, score, match, teams, id, source, note=note)
        except BaseException:
            recorder.close()
            raise
        return recorder

    @classmethod
    def resume(cls, path: str | Path, *, clock: Clock | None = local_now) -> Recorder:
        """Continue the last game of an existing log, repairing a line torn by a crash."""
        if not Path(path).exists():
            raise RecordError(f"{path}: no such log to resume")
        recorder = cls(path, clock=clock)
        if recorder.state is None:
            recorder.close()
            raise RecordError(f"{path}: the log holds no game to resume")
        return recorder

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._writer.close()
                self._release()

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _claim(self) -> None:
        with _OPEN_LOCK:
            if self.path in _OPEN:
                raise RecordError(f"{self.path} is already being recorded by another recorder")
            _OPEN.add(self.path)

    def _release(self) -> None:
        with _OPEN_LOCK:
            _OPEN.discard(self.path)

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
    def over(self) -> bool:
        """True when the current game has ended (won or abandoned) or there is none."""
        return self.state is None or self._ended

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
    ) -> GameEvent:
        """Write a ``game`` line and make it the current game."""
        with self._lock:
            self._usable()
            if not self.over:
                raise RecordError("the current game is still in progress: abandon it first")
            State.new(players, dealer, rules, score, teams)
            fields: dict[str, Any] = {
                "format": "truclog/1",
                "players": list(players),
                "dealer": dealer,
                "rules": rules if isinstance(rules, str) else dict(rules),
                "source": source,
            }
            optional = {
                "id": id,
                "date": date or self._today(),
                "score": dict(score) if score else None,
                "match": match,
                "teams": {k: list(v) for k, v in teams.items()} if teams else None,
                "tags": dict(tags) if tags else None,
            }
            fields.update({k: v for k, v in optional.items() if v is not None})
            try:
                event = GameEvent(**fields, **self._common(note))
            except ValidationError as exc:
                raise RecordError(f"the game line: {reasons(exc, tagged=False)}") from None
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
        return self._record(Accept(player), note)

    def fold(self, player: str, *, note: str | None = None) -> Event:
        return self._record(Fold(player), note)

    def play(self, player: str, card: Card | str, *, note: str | None = None) -> Event:
        """A card played to the trick (a rank alone when the suit was not noted)."""
        return self._record(Play(player, _card(card)), note)

    def show(self, player: str, cards: Iterable[Card | str], *, note: str | None = None) -> Event:
        """Cards a player still held, shown after the hand."""
        return self._record(Show(player, tuple(_card(c) for c in cards)), note)

    def record(self, action: Action, *, note: str | None = None) -> Event:
        """Record any engine action (what the methods above build)."""
        return self._record(action, note)

    def abandon(self, *, note: str | None = None) -> Event:
        """End the current game before anyone reached the target."""
        with self._lock:
            state = self._game()
            if self._ended or state.phase is Phase.GAME_OVER:
                raise RecordError("the game is already over: there is nothing to abandon")
            event = game_end(state, **self._common(note))
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
            self._set_aside(removed)
            self._rewrite(self._entries[: cut - 1])
            return [entry.event for entry in removed]

    def note(self, text: str, at: int | None = None) -> Event:
        """Attach a note to a line of the log: ``at`` indexes :attr:`entries`; by default
        the last line entered (not one the recorder wrote by itself). A note it replaces
        is kept in ``<log>.undone``."""
        with self._lock:
            self._usable()
            if at is None:
                users = [i for i, e in enumerate(self._entries) if not e.auto]
                if not users:
                    raise RecordError("there is no event to attach a note to")
                at = users[-1]
            index = at if at >= 0 else len(self._entries) + at
            if not 0 <= index < len(self._entries):
                raise RecordError(f"there is no line {at} to attach a note to")
            old = self._entries[index]
            event = old.event.model_copy(update={"note": text or None})
            if getattr(old.event, "note", None):
                self._set_aside([old])
            entries = list(self._entries)
            entries[index] = Entry(dumps(event), event, old.auto)
            self._rewrite(entries)
            return event

    # --- inside -------------------------------------------------------------

    def _usable(self) -> None:
        if self._closed:
            raise RecordError(f"the recorder of {self.path} is closed")

    def _game(self) -> State:
        self._usable()
        if self.state is None:
            raise RecordError("no game has been started in this log")
        if self._ended:
            raise RecordError("the game is over: start a new game to record more")
        return self.state

    def _record(self, action: Action, note: str | None) -> Event:
        with self._lock:
            state = self._game()
            state.check(action)
            event = action_to_event(action, **self._common(note))
            self._append(event)
            self._complete()
            return event

    def _common(self, note: str | None) -> dict[str, str]:
        common = {}
        if self.clock is not None:
            common["t"] = self.clock().isoformat(timespec="seconds")
        if note:
            common["note"] = note
        return common

    def _today(self) -> str | None:
        return None if self.clock is None else self.clock().date().isoformat()

    def _append(self, event: Event, auto: bool = False) -> None:
        try:
            self._writer.write(event)
        except OSError:
            repair_torn_tail(self.path)  # a line cut by a failed write goes to <log>.torn
            raise
        entry = Entry(dumps(event), event, auto)
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
        return next_game(header, state, rubber, date=self._today(), **self._common(None))

    def _set_aside(self, entries: Sequence[Entry]) -> None:
        """Append lines about to leave the log to ``<log>.undone``, durably."""
        aside = self.path.with_name(self.path.name + ".undone")
        with open(aside, "ab") as out:
            out.write(b"".join(entry.raw for entry in entries))
            out.flush()
            os.fsync(out.fileno())

    def _rewrite(self, entries: list[Entry]) -> None:
        """Replace the log by ``entries``, atomically, and replay it."""
        self._writer.close()
        temp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            with open(temp, "wb") as out:
                out.write(b"".join(entry.raw for entry in entries))
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, self.path)
            fsync_dir(self.path.parent)
        finally:
            temp.unlink(missing_ok=True)
            self._writer = LogWriter(self.path)
        self._entries = entries
        self._replay()

    def _load(self) -> None:
        if self.path.exists():
            self.repaired = repair_torn_tail(self.path)
            for line in read_log(self.path):
                if line.problem is not None or line.event is None:
                    why = line.problem.message if line.problem else "not an event"
                    raise RecordError(
                        f"{self.path}:{line.line}: {why} (fix the log, or check it with "
                        "`truclog validate`, before recording more)"
                    )
                raw = line.raw.removeprefix(b"\xef\xbb\xbf").rstrip(b"\r\n") + b"\n"
                self._entries.append(Entry(raw, line.event, self._is_auto(line.event)))
        self._replay()

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
