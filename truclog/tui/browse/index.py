"""What the browser knows about its logs: checked games, loaded in the background.

The validator streams :class:`~truclog.validate.CheckedGame` objects; the
:class:`LogIndex` keeps them in reading order, with the diagnostics found
outside any game. A hand is replayed only within itself, from the state copy
its :class:`~truclog.validate.CheckedHand` starts from, so jumping to any hand
costs the same wherever it is in the log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from truclog.actions import Deal, Fold, Play, Raise, Redeal, Show
from truclog.cards import Card
from truclog.codes import Read
from truclog.engine import Outcome, State
from truclog.errors import TruclogError
from truclog.game import Game, Hand
from truclog.reader import log_files
from truclog.tui.widgets.table import take_matching
from truclog.validate import CheckedGame, CheckedHand, Diagnostic, Step, check_logs

SAMPLE_DIR = "sample_logs"


def default_sources(cwd: Path | None = None) -> list[str]:
    """The bundled sample logs: ``sample_logs/`` in the current directory or beside the package."""
    here = (cwd or Path.cwd()) / SAMPLE_DIR
    bundled = Path(__file__).resolve().parents[3] / SAMPLE_DIR
    for place in (here, bundled):
        if place.is_dir():
            return [str(place)]
    raise TruclogError(
        f"no path given and no bundled '{SAMPLE_DIR}/' found (looked in {here} and {bundled})"
    )


def path_problem(path: str, message: str) -> Diagnostic:
    """A diagnostic for a path that cannot be read at all."""
    return Diagnostic(path, 0, Read.UNREADABLE, "error", message, None, None)


def count_lines(path: str) -> int:
    """Lines in a plain file, to measure reading progress (0 for gzip or stdin)."""
    if path == "-" or path.endswith(".gz"):
        return 0
    lines = 0
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                lines += chunk.count(b"\n")
    except OSError:
        return 0
    return lines


@dataclass(slots=True)
class LoadProgress:
    """How far loading has got: lines of the known files, games and hands seen."""

    total_lines: int = 0
    lines_before: dict[str, int] = field(default_factory=dict)
    lines: int = 0
    games: int = 0
    hands: int = 0
    done: bool = False

    def advance(self, game: CheckedGame) -> None:
        self.games += 1
        self.hands += len(game.hands)
        last = game.hands[-1].steps[-1].line if game.hands and game.hands[-1].steps else game.line
        self.lines = max(self.lines, self.lines_before.get(game.path, 0) + last)

    @property
    def fraction(self) -> float | None:
        if self.done:
            return 1.0
        return min(self.lines / self.total_lines, 1.0) if self.total_lines else None


def expand_sources(sources: Sequence[str]) -> tuple[list[str], list[Diagnostic]]:
    """The log files of some paths, and a diagnostic for each path that cannot be read."""
    files: list[str] = []
    problems: list[Diagnostic] = []
    for source in sources:
        try:
            found = log_files([source])
        except (TruclogError, OSError) as exc:
            problems.append(path_problem(str(source), str(exc)))
            continue
        if not found:
            problems.append(path_problem(str(source), "no *.jsonl or *.jsonl.gz log file here"))
        files.extend(str(f) for f in found)
    return files, problems


def load(
    sources: Sequence[str],
    progress: LoadProgress,
    stop: Callable[[], bool] = lambda: False,
) -> Iterator[CheckedGame | Diagnostic]:
    """Check the logs of ``sources`` game by game, updating ``progress``; never raises."""
    files, problems = expand_sources(sources)
    yield from problems
    before = 0
    for path in files:
        progress.lines_before[path] = before
        before += count_lines(path)
    progress.total_lines = before
    try:
        for item in check_logs(files):
            if stop():
                return
            if isinstance(item, CheckedGame):
                progress.advance(item)
            yield item
    except Exception as exc:  # a bug or an I/O error must not take the browser down
        yield path_problem(", ".join(files), f"reading stopped: {exc}")
    finally:
        progress.done = True


@dataclass(slots=True)
class LogIndex:
    """Every game loaded so far, in reading order, and the diagnostics outside games."""

    games: list[CheckedGame] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)

    def add(self, items: Iterable[CheckedGame | Diagnostic]) -> list[CheckedGame]:
        """Take a batch from the loader; return the games it held."""
        games = []
        for item in items:
            if isinstance(item, CheckedGame):
                games.append(item)
            else:
                self.problems.append(item)
        self.games.extend(games)
        return games

    def diagnostics(self) -> list[Diagnostic]:
        """Every diagnostic, those outside games first."""
        return [*self.problems, *(d for g in self.games for d in g.diagnostics)]

    def players(self) -> list[str]:
        return sorted({p for g in self.games for p in g.players})


@dataclass(slots=True)
class Frame:
    """The table just after one step of a hand, with the cards the log reveals later."""

    step: Step
    state: State
    later: dict[str, list[Card]]
    diagnostics: list[Diagnostic]


def _later_cards(state: State, coming: Sequence[Step]) -> dict[str, list[Card]]:
    """Per player, cards still in hand now that a later play or show of this deal reveals."""
    later: dict[str, list[Card]] = {p: [] for p in state.players}
    known = {p: state.known_cards(p)[0] for p in state.players}
    for step in coming:
        action = step.action
        if isinstance(action, Deal):
            break
        if not step.applied or not isinstance(action, Play | Show):
            continue
        cards = [action.card] if isinstance(action, Play) else list(action.cards)
        for card in cards:
            if not take_matching(known[action.player], card):
                later[action.player].append(card)
    return later


def hand_frames(game: CheckedGame, hand: CheckedHand) -> list[Frame]:
    """The table after each step of a hand, with what the log reveals later."""
    by_line: dict[int, list[Diagnostic]] = {}
    for diagnostic in game.diagnostics:
        by_line.setdefault(diagnostic.line, []).append(diagnostic)
    return [
        Frame(step, now, _later_cards(now, hand.steps[i + 1 :]), by_line.get(step.line, []))
        for i, (step, now) in enumerate((step, state.copy()) for step, state in Hand(hand).replay())
    ]


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One row of the hands screen."""

    number: int
    dealer: str
    value: int
    winner: str | None
    points: int
    ending: str
    marks: str
    score: dict[str, int]


def hand_marks(hand: CheckedHand) -> str:
    """``R`` raise, ``F`` fold, ``!`` reste, ``D`` redeal asked, ``E`` error or skipped lines."""
    actions = [s.action for s in hand.steps if s.action is not None]
    marks = ""
    if any(isinstance(a, Raise) for a in actions):
        marks += "R"
    if any(isinstance(a, Fold) for a in actions):
        marks += "F"
    if any(isinstance(a, Raise) and a.reste for a in actions):
        marks += "!"
    if any(isinstance(a, Redeal) for a in actions):
        marks += "D"
    if hand.errors or not hand.ok:
        marks += "E"
    return marks


def hand_outcome(hand: CheckedHand) -> Outcome | None:
    """The outcome of this very hand, ``None`` while it is undecided."""
    return Hand(hand).outcome


def summarize_hand(hand: CheckedHand) -> HandSummary:
    """Who dealt, what the hand was worth at the end, who won what and how."""
    played = Hand(hand)
    end = played.final
    outcome = played.outcome
    return HandSummary(
        number=played.number,
        dealer=played.dealer,
        value=end.value,
        winner=played.winner,
        points=played.points,
        ending=(outcome.ending + (" (reste)" if outcome.reste else "")) if outcome else "undecided",
        marks=hand_marks(hand),
        score=played.score if outcome else end.score,
    )


def score_series(game: CheckedGame) -> dict[str, list[int]]:
    """Each side's score at the start and after every hand (an undecided hand changes none)."""
    first = game.hands[0].start.score if game.hands else game.final.score
    series = {team: [points] for team, points in first.items()}
    for hand in Game(game).hands:
        for team in series:
            series[team].append(hand.score[team] if hand.outcome else series[team][-1])
    return series
