"""The start screen: who plays, under which rules, who deals first, the score, the rubber."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Select, Static, Switch

from truclog.diagnostic import score_words
from truclog.engine.rules import PRESETS, get_rules
from truclog.engine.sides import partners
from truclog.errors import TruclogError
from truclog.record.recorder import DiskError, Recorder, RecordError, cut_for_deal, local_now


@dataclass(frozen=True, slots=True)
class Setup:
    """What the start screen shows first (from the command line, or the game before)."""

    path: str = ""
    players: tuple[str, ...] = ()
    rules: str = "classic"
    overrides: str = ""
    dealer: str = ""
    score: str = ""
    teams: str = ""
    match: bool = False
    match_id: str = ""
    game_id: str = ""
    me: str = ""
    date: str = ""
    """The game's date when no clock stamps the lines (``--no-time``)."""
    fixed_path: bool = False
    """The log file is the one given (a served recorder: the page may not choose a file)."""


def setup_after(recorder: Recorder, me: str | None) -> Setup:
    """The start screen for the game after the current one: same table, the next first dealer."""
    header, state = recorder.header, recorder.state
    if header is None or state is None:
        return Setup(path=str(recorder.path))
    spec = header.rules
    overrides = ""
    preset = spec if isinstance(spec, str) else "classic"
    if spec is not None and not isinstance(spec, str):
        data = spec.model_dump(exclude_none=True)
        preset = data.pop("preset", "classic")
        overrides = " ".join(f"{k}={_show_value(v)}" for k, v in data.items())
    teams = ", ".join(header.teams) if header.teams else ""
    return Setup(
        path=str(recorder.path),
        players=tuple(state.players),
        rules=preset,
        overrides=overrides,
        dealer=state.next_game_dealer,
        teams=teams,
        me=me or "",
        date=header.date or "" if recorder.clock is None else "",
    )


def _show_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def parse_overrides(text: str) -> dict[str, Any]:
    """Rule overrides typed as ``key=value`` words.

    >>> parse_overrides("target=8 fold_anytime=true max_value=null order=78AKQJT9")
    {'target': 8, 'fold_anytime': True, 'max_value': None, 'order': '78AKQJT9'}
    """
    overrides: dict[str, Any] = {}
    for word in text.replace(",", " ").split():
        key, sep, value = word.partition("=")
        if not sep or not key or not value:
            raise RecordError(f"rule override {word!r}: write it as key=value, e.g. target=8")
        lowered = value.lower()
        if lowered in ("true", "yes", "false", "no"):
            overrides[key] = lowered in ("true", "yes")
        elif lowered in ("null", "none"):
            overrides[key] = None
        elif value.isdigit():
            overrides[key] = int(value)
        else:
            overrides[key] = value
    return overrides


def default_path(now: datetime) -> str:
    """The log's file name for a game started at ``now``."""
    return f"truclog-{now:%Y-%m-%d-%H%M}.truclog.jsonl"


class StartScreen(Screen[tuple[Recorder, str | None] | None]):
    """A form for a new game; Enter (or Start) writes its ``game`` line."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="start.cancel"),
        Binding("ctrl+s", "start", "Start", id="start.start", priority=True),
        Binding("ctrl+r", "resume", "Resume", id="start.resume", priority=True),
    ]

    def __init__(
        self,
        setup: Setup,
        recorder: Recorder | None = None,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__()
        self.setup = setup
        self.recorder = recorder
        self.rng = rng or random.Random()

    def compose(self) -> ComposeResult:
        s = self.setup
        names = [*s.players, "", "", "", ""][:4]
        yield Header()
        with VerticalScroll(id="start-form"):
            yield Label("New game", classes="dialog-title")
            yield Label("Log file (new lines are appended to it)")
            fixed = self.recorder is not None or s.fixed_path
            yield Input(s.path, id="path", disabled=fixed, compact=True)
            with Horizontal(id="unfinished", classes="row"):
                yield Static("", id="unfinished-text")
                yield Button("Resume it", id="resume", variant="warning", compact=True)
            yield Label("Players in seating order (four for two teams: 1 and 3 against 2 and 4)")
            with Horizontal(classes="row"):
                for i, name in enumerate(names):
                    yield Input(name, placeholder=f"player {i + 1}", id=f"player-{i}", compact=True)
            yield Label("Team names, four players (optional): e.g. nous, eux")
            yield Input(s.teams, placeholder="default: Ana+Lu, Marc+Zoé", id="teams", compact=True)
            yield Label("Rules preset, and overrides as key=value (e.g. target=8)")
            with Horizontal(classes="row"):
                options = [(name, name) for name in PRESETS]
                yield Select(options, value=s.rules, allow_blank=False, id="preset", compact=True)
                yield Input(s.overrides, placeholder="no overrides", id="overrides", compact=True)
            yield Label(
                "Who deals first: a player's name, or cut (each draws a card, highest deals)"
            )
            yield Input(s.dealer, placeholder="cut", id="dealer", compact=True)
            yield Label("Starting score, in seating order of the sides (blank: 0 0)")
            yield Input(s.score, placeholder="0 0", id="score", compact=True)
            yield Label("Your name, to enter only your cards (blank: you keep score for all)")
            yield Input(s.me, placeholder="scorer", id="me", compact=True)
            yield Label("Rubber: the first to win two games (the next game starts by itself)")
            with Horizontal(classes="row"):
                yield Switch(s.match, id="match")
                yield Input(
                    s.match_id,
                    placeholder="rubber id (default from the date)",
                    id="match-id",
                    compact=True,
                )
            yield Label("Game id (optional)")
            yield Input(s.game_id, placeholder="e.g. cafe-2026-11-29-1", id="game-id", compact=True)
            yield Static("", id="start-error", classes="refused")
            yield Button("Start", id="start", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        """Focuses the first field to fill, and offers to resume if the log ends in a game in
        progress."""
        self.sub_title = "start a game"
        first = "#player-0" if not self.setup.players else "#dealer"
        self.query_one(first, Input).focus()
        self.look_for_unfinished()

    def look_for_unfinished(self) -> bool:
        """Offer to resume when the chosen log ends with a game in progress."""
        state = None
        if self.recorder is None and self.value("path"):
            state = Recorder.unfinished(self.path())
        offer = self.query_one("#unfinished", Horizontal)
        offer.display = state is not None
        if state is not None:
            score = score_words(state.score)
            self.query_one("#unfinished-text", Static).update(
                f"This log ends with a game in progress ({' · '.join(state.players)}, "
                f"hand {state.hand_no}, {score}): resume it (ctrl+r), or choose another file."
            )
        return state is not None

    def value(self, name: str) -> str:
        """The text of field ``name``, stripped."""
        return self.query_one(f"#{name}", Input).value.strip()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in any field starts the game."""
        event.stop()
        self.action_start()

    def on_input_blurred(self, event: Input.Blurred) -> None:
        """Leaving the log's path looks for a game in progress there."""
        if event.input.id == "path":
            self.look_for_unfinished()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Starts the game, or resumes the one in progress."""
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "resume":
            self.action_resume()

    def action_resume(self) -> None:
        if self.recorder is not None or not self.look_for_unfinished():
            return
        try:
            recorder = Recorder.resume(self.path(), clock=_clock(self), me=self.value("me") or None)
        except TruclogError as exc:
            self.refuse(exc)
            return
        self.dismiss((recorder, self.value("me") or recorder.me))

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_start(self) -> None:
        try:
            started = self.start_game()
        except TruclogError as exc:
            self.refuse(exc)
            return
        self.dismiss(started)

    def refuse(self, exc: TruclogError) -> None:
        """Say why; a disk that failed is also kept for the exit status."""
        if isinstance(exc, DiskError):
            failures = getattr(self.app, "failures", None)
            if failures is not None:
                failures.append(exc.message)
        self.query_one("#start-error", Static).update(exc.message)
        self.app.bell()

    def start_game(self) -> tuple[Recorder, str | None]:
        """The recorder of the game the form describes, and the user's name; raises a RecordError
        saying which field is wrong."""
        players = [self.value(f"player-{i}") for i in range(4)]
        players = [p for p in players if p]
        if len(players) not in (2, 4):
            raise RecordError(f"a game has two or four players, not {len(players)}")
        preset = str(self.query_one("#preset", Select).value)
        overrides = parse_overrides(self.value("overrides"))
        spec: str | dict[str, Any] = {"preset": preset, **overrides} if overrides else preset
        rules = get_rules(spec)
        teams = self.teams(players)
        dealer, note = self.dealer(players, rules.order)
        me = self.value("me") or None
        if me is not None and me not in players:
            raise RecordError(f"your name {me!r} is not one of the players")
        match = None
        if self.query_one("#match", Switch).value:
            match = self.value("match-id") or f"rubber-{datetime.now():%Y-%m-%d-%H%M}"
        recorder = self.recorder or self.open_log()
        sides = list(teams) if teams else players
        try:
            recorder.new_game(
                players,
                dealer,
                spec,
                score=self.score(sides),
                match=match,
                teams=teams,
                id=self.value("game-id") or None,
                note=note,
                date=self.setup.date or None,
                me=me,
            )
        except BaseException:
            if self.recorder is None:
                recorder.close()
            raise
        return recorder, me

    def open_log(self) -> Recorder:
        """The log to record the new game into; refused while it ends with a game in progress."""
        path = self.path()
        recorder = Recorder(path, clock=_clock(self))
        if not recorder.over:
            recorder.close()
            self.look_for_unfinished()
            raise RecordError(
                f"{path} ends with a game in progress: resume it (ctrl+r, or "
                f"truclog record --resume {path}), or choose another file"
            )
        return recorder

    def path(self) -> Path:
        """The log's path typed (``~`` expanded); it must be given."""
        text = self.value("path")
        if not text:
            raise RecordError("name the log file to record to")
        return Path(text).expanduser()

    def teams(self, players: list[str]) -> dict[str, list[str]] | None:
        """The two teams named for four players (partners sit opposite), or None for a two-player
        game or none named."""
        text = self.value("teams")
        if not text or len(players) != 4:
            return None
        names = [n.strip() for n in text.split(",") if n.strip()]
        if len(names) != 2 or names[0] == names[1]:
            raise RecordError("name the two teams, separated by a comma: nous, eux")
        return {name: list(pair) for name, pair in zip(names, partners(players), strict=True)}

    def dealer(self, players: list[str], order: str) -> tuple[str, str | None]:
        """The first dealer typed, or one cut for (with what was drawn) when blank or ``cut``."""
        text = self.value("dealer")
        if not text or text.lower() == "cut":
            return cut_for_deal(players, order, self.rng)
        for player in players:
            if player.lower() == text.lower():
                return player, None
        raise RecordError(f"the first dealer {text!r} is not one of the players (or type cut)")

    def score(self, sides: list[str]) -> dict[str, int] | None:
        """The starting score typed, side by side, or None when none or 0 0."""
        words = self.value("score").replace(",", " ").split()
        if not words:
            return None
        if len(words) != 2 or not all(w.isdigit() for w in words):
            raise RecordError("the starting score is two whole numbers, e.g. 3 5")
        points = [int(w) for w in words]
        return dict(zip(sides, points, strict=True)) if any(points) else None


def _clock(screen: Screen[Any]) -> Any:
    return getattr(screen.app, "clock", local_now)
