"""A rubber's result card, read back: the SVG's words, the PNG's pixels and text.

The rubber is the games sharing a ``match`` id, won by the first side to win two
(docs/format.md); each game's score line is its final score as the replay API gives it.
"""

from __future__ import annotations

import io
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from truclog.cli import main
from truclog.replay import Game, read_games
from truclog.share import ShareError
from truclog.share.result import WON_COLOUR, read_rubber, result_card, rubber_result
from truclog.simulate.run import Simulation, simulate_to

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
RUBBER = "sackson-rubber-2026-12-06"


def rubber_games(paths: Path | list[Path], match: str) -> list[Game]:
    return [g for g in read_games(paths) if g.header.match == match]


def score_line(number: int, game: Game) -> str:
    first, second = game.teams
    score = f"{first} {game.score[first]} – {game.score[second]} {second}"
    won = f"{game.winner} won" if game.winner else "not finished"
    day = game.date.isoformat() if game.date else "—"
    return f"Game {number} · {day} · {score} · {won} · {len(game.hands)} hands"


def svg_words(svg: bytes) -> list[str]:
    root = ET.fromstring(svg)
    return [
        "".join(node.itertext()).strip() for node in root.iter("{http://www.w3.org/2000/svg}text")
    ]


def test_the_svg_card_says_who_won_and_each_games_score(tmp_path: Path) -> None:
    out = tmp_path / "card.svg"
    result = CliRunner().invoke(
        main, ["share", str(SAMPLES), "--rubber", RUBBER, "--format", "svg", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    words = svg_words(out.read_bytes())
    games = rubber_games(SAMPLES, RUBBER)
    assert [g.winner for g in games] == ["Jo", "Jo"]  # two games won: the rubber is Jo's
    assert "Jo wins the rubber 2–0" in words
    assert f"Rubber {RUBBER}" in words
    for number, game in enumerate(games, 1):
        assert score_line(number, game) in words


def test_the_png_card_reads_back_as_an_image_with_its_words(tmp_path: Path) -> None:
    out = tmp_path / "card.png"
    result = CliRunner().invoke(main, ["share", str(SAMPLES), "--rubber", RUBBER, "-o", str(out)])
    assert result.exit_code == 0, result.output
    image = Image.open(out)
    assert image.format == "PNG" and image.width == 1200 and image.height > 600
    games = rubber_games(SAMPLES, RUBBER)
    assert image.text["Title"] == "Jo wins the rubber 2–0"
    assert image.text["Description"].splitlines() == [
        "Jo wins the rubber 2–0",
        *(score_line(i, g) for i, g in enumerate(games, 1)),
    ]
    green = tuple(int(WON_COLOUR[i : i + 2], 16) for i in (1, 3, 5))
    colours = dict((colour, count) for count, colour in image.convert("RGB").getcolors(1 << 24))
    assert colours.get(green, 0) > 500  # the headline is drawn in green


def test_a_rubber_won_two_games_to_one_and_one_in_play(tmp_path: Path) -> None:
    log = tmp_path / "rubbers.truclog.jsonl"
    simulate_to(Simulation(games=6, seed=2, match=True), log)
    matches: dict[str, list[Game]] = {}
    for game in read_games(log):
        matches.setdefault(game.header.match, []).append(game)
    decided = next(games for games in matches.values() if len(games) == 3)
    winner = decided[2].winner
    assert winner is not None and [g.winner for g in decided].count(winner) == 2
    played = rubber_result(decided, decided[0].header.match)
    assert played.lines()[0] == f"{winner} wins the rubber 2–1"
    assert played.lines()[1:] == [score_line(i, g) for i, g in enumerate(decided, 1)]
    open_rubber = rubber_result(decided[:1], decided[0].header.match)
    first, second = decided[0].teams
    wins = (int(decided[0].winner == first), int(decided[0].winner == second))
    assert open_rubber.winner is None
    assert open_rubber.headline() == f"Rubber in play: {first} {wins[0]} – {wins[1]} {second}"
    assert f"Rubber in play: {first}" in " ".join(svg_words(result_card(open_rubber, "svg")))


def test_masked_names_on_the_card() -> None:
    card = result_card(read_rubber(SAMPLES, RUBBER, mask_names=True), "svg")
    text = card.decode()
    assert "Jo" not in svg_words(card) and "Élodie" not in text
    assert "Seat 2 wins the rubber 2–0" in svg_words(card)


def test_the_card_goes_by_default_to_the_rubbers_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["share", str(SAMPLES), "--rubber", RUBBER])
    assert result.exit_code == 0, result.output
    assert result.output == f"wrote {RUBBER}.png\n"
    assert Image.open(tmp_path / f"{RUBBER}.png").format == "PNG"


def test_without_matplotlib_the_card_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    result = read_rubber(SAMPLES, RUBBER)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ShareError, match=r"pip install 'truclog\[plot\]'"):
        result_card(result, "png")


def test_a_rubber_the_logs_do_not_hold_is_an_error() -> None:
    with pytest.raises(ShareError, match="no game of rubber 'nope'"):
        read_rubber(SAMPLES, "nope")
    with pytest.raises(ShareError, match="png or svg"):
        result_card(read_rubber(SAMPLES, RUBBER), "gif")


def test_png_bytes_are_an_image() -> None:
    png = result_card(read_rubber(SAMPLES, RUBBER), "png")
    assert Image.open(io.BytesIO(png)).size[0] == 1200
