"""A rubber's result card: the image a group posts in its chat once the rubber is played.

The games that share a ``match`` id form a rubber (won by the first side to win two
games, as :class:`truclog.engine.Rubber` counts). The card shows the rubber, who won
it and by how many games, each game's score line (date, score, winner, hands), and
the score sheet: each game's score after every hand, as the engine kept it. It is
drawn with matplotlib (``pip install 'truclog[plot]'``) as PNG or SVG; the PNG
carries the same lines as text (its ``Title`` and ``Description``), and the SVG
keeps its words as text.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from truclog.engine import Rubber
from truclog.errors import IllegalActionError
from truclog.replay import Game, Paths, read_games
from truclog.share import ShareError
from truclog.share.masks import NameMask

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FORMATS = ("png", "svg")
WIDTH = 8.0
"""Inches; at :data:`DPI`, 1200 pixels wide (the size chat apps show whole)."""
DPI = 150
SIDE_COLOURS = ("#1f5c9e", "#c0392b")
WON_COLOUR = "#1e8449"


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game of the rubber as the card shows it."""

    number: int
    date: str
    score: tuple[int, int]
    winner: str
    hands: int
    sheet: tuple[tuple[int, ...], tuple[int, ...]]
    """Each side's score before the first hand and after each hand."""

    def words(self, sides: tuple[str, str]) -> str:
        """The game's score line as the card prints it."""
        score = f"{sides[0]} {self.score[0]} – {self.score[1]} {sides[1]}"
        return f"Game {self.number} · {self.date} · {score} · {self.winner} · {self.hands} hands"


@dataclass(frozen=True, slots=True)
class RubberResult:
    """A rubber: its id, sides, rules, games, wins and winner (``None`` while in play)."""

    id: str
    sides: tuple[str, str]
    rules: str
    target: int
    games: tuple[GameLine, ...]
    wins: tuple[int, int]
    winner: str | None

    def headline(self) -> str:
        """Who won the rubber and how, or where it stands while in play."""
        wins = f"{max(self.wins)}–{min(self.wins)}"
        if self.winner is not None:
            return f"{self.winner} wins the rubber {wins}"
        return f"Rubber in play: {self.sides[0]} {self.wins[0]} – {self.wins[1]} {self.sides[1]}"

    def lines(self) -> list[str]:
        """The card's words, line by line: headline, then each game's score line."""
        return [self.headline(), *(game.words(self.sides) for game in self.games)]


def _game_line(number: int, game: Game, names: NameMask) -> GameLine:
    sides = game.teams
    sheet: tuple[list[int], list[int]] = ([], [])
    start = game.hands[0].start.score if game.hands else game.score
    for i, side in enumerate(sides):
        sheet[i].append(start[side])
    for hand in game.hands:
        for i, side in enumerate(sides):
            sheet[i].append(hand.score[side])
    winner = "not finished" if game.winner is None else f"{names.player(game.winner)} won"
    day = game.date
    return GameLine(
        number=number,
        date="—" if day is None else day.isoformat(),
        score=(game.score[sides[0]], game.score[sides[1]]),
        winner=winner,
        hands=len(game.hands),
        sheet=(tuple(sheet[0]), tuple(sheet[1])),
    )


def rubber_result(games: Iterable[Game], match: str, mask_names: bool = False) -> RubberResult:
    """The rubber ``match`` from the games that share that ``match`` id, in log order."""
    played = [game for game in games if game.header.match == match and game.duplicate_of is None]
    if not played:
        raise ShareError(f"no game of rubber {match!r}")
    first = played[0]
    names = NameMask(first.players, first.teams, mask_names)
    rubber = Rubber()
    for game in played:
        if game.winner is not None and rubber.winner is None:
            try:
                rubber.record(game.winner)
            except IllegalActionError:  # the validator reports such a game (E222)
                continue
    sides = (first.teams[0], first.teams[1])
    return RubberResult(
        id=names.text(match),
        sides=(names.player(sides[0]), names.player(sides[1])),
        rules=first.rules.describe(),
        target=first.rules.target,
        games=tuple(_game_line(i, game, names) for i, game in enumerate(played, 1)),
        wins=(rubber.wins.get(sides[0], 0), rubber.wins.get(sides[1], 0)),
        winner=None if rubber.winner is None else names.player(rubber.winner),
    )


def read_rubber(paths: Paths, match: str, mask_names: bool = False) -> RubberResult:
    """The rubber ``match`` as the logs at ``paths`` hold it."""
    try:
        return rubber_result(read_games(paths), match, mask_names)
    except ShareError:
        raise ShareError(f"no game of rubber {match!r} in {paths}") from None


def _figure(result: RubberResult) -> Figure:
    from matplotlib.figure import Figure

    count = len(result.games)
    height = 3.2 + 0.45 * count + 2.4
    figure = Figure(figsize=(WIDTH, height), dpi=DPI, facecolor="#f7f5ef")
    top = 1 - 0.35 / height
    figure.text(0.05, top, f"Rubber {result.id}", fontsize=17, weight="bold", va="top")
    figure.text(
        0.05,
        top - 0.45 / height,
        f"{result.sides[0]} v {result.sides[1]} · {result.rules} to {result.target}",
        fontsize=11,
        color="#555555",
        va="top",
    )
    colour = WON_COLOUR if result.winner is not None else "#7d6608"
    figure.text(
        0.05, top - 1.1 / height, result.headline(), fontsize=21, weight="bold", color=colour
    )
    row = top - 1.75 / height
    for game in result.games:
        figure.text(0.05, row, game.words(result.sides), fontsize=12)
        row -= 0.45 / height
    _sheet(figure, result, bottom=0.6 / height, top=row - 0.2 / height)
    return figure


def _sheet(figure: Figure, result: RubberResult, bottom: float, top: float) -> None:
    """Each game's score after every hand, one small chart a game, the target dashed."""
    count = len(result.games)
    gap = 0.04
    width = (0.9 - gap * (count - 1)) / count
    for i, game in enumerate(result.games):
        axes = figure.add_axes((0.07 + i * (width + gap), bottom, width - 0.02, top - bottom))
        for side, points, colour in zip(result.sides, game.sheet, SIDE_COLOURS, strict=True):
            axes.step(range(len(points)), points, where="post", color=colour, label=side)
        axes.axhline(result.target, color="#888888", linestyle="--", linewidth=0.8)
        axes.set_title(f"game {game.number}", fontsize=9)
        axes.set_xlabel("hand", fontsize=8)
        axes.tick_params(labelsize=7)
        axes.set_ylim(0, max(result.target, *game.sheet[0], *game.sheet[1]) + 1)
        if i == 0:
            axes.legend(fontsize=7, loc="upper left", frameon=False)


def result_card(result: RubberResult, form: str = "png") -> bytes:
    """The card as PNG or SVG bytes."""
    if form not in FORMATS:
        raise ShareError(f"a result card is {' or '.join(FORMATS)}, not {form!r}")
    try:
        import matplotlib
    except ImportError:
        raise ShareError("a result card needs matplotlib: pip install 'truclog[plot]'") from None
    figure = _figure(result)
    out = io.BytesIO()
    lines = result.lines()
    if form == "svg":
        with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": result.id}):
            figure.savefig(out, format="svg", metadata={"Title": lines[0], "Date": None})
    else:
        metadata = {"Title": lines[0], "Description": "\n".join(lines), "Software": "truclog"}
        figure.savefig(out, format="png", metadata=metadata)
    return out.getvalue()
