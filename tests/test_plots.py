"""``truclog stats --plot``: plots saved as images, read back (PNG by Pillow, SVG as XML).

The games are written here (classic: 7 8 A K Q J T 9), so what the plots must say
comes from the rules: a game's score hand by hand, a player's rates by month.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from lines import accept, dated_game, deal, fold, play, raise_, write_events
from PIL import Image

from truclog.cli import main
from truclog.stats.charts import monthly_rates, nice_ticks, score_by_hand
from truclog.validate import CheckedGame, check_logs

SVG = "{http://www.w3.org/2000/svg}text"


LOG = [
    # November: Ana wins hand 1 at 2 (Marc accepted her raise); in hand 2 Marc, with
    # three nines (strength 0: a bluff), raises and Ana folds: Marc +1. Score 2-1.
    dated_game("nov", ["Ana", "Marc"], "Marc", "2026-11-29"),
    deal(1, "Marc", {"Ana": ["7h", "7s", "7d"], "Marc": ["9s", "9h", "9d"]}),
    raise_("Ana", 2), accept("Marc"), play("Ana", "7h"), play("Marc", "9s"),
    play("Ana", "7s"), play("Marc", "9h"),
    deal(2, "Ana", {"Ana": ["7c", "8h", "Ad"], "Marc": ["9c", "9s", "9d"]}),
    raise_("Marc", 2), fold("Ana"),
    # December: Zoé raises, Marc folds: his one raise faced that month, folded.
    dated_game("dec", ["Marc", "Zoé"], "Zoé", "2026-12-01"),
    deal(1, "Zoé", {"Marc": ["7h", "7s", "7d"], "Zoé": ["9s", "9h", "9d"]}),
    play("Marc", "7h"), raise_("Zoé", 2), fold("Marc"),
]  # fmt: skip


@pytest.fixture
def log(tmp_path: Path) -> str:
    return write_events(tmp_path / "plots.truclog.jsonl", LOG)


def texts(path: Path) -> list[str]:
    root = ET.parse(path).getroot()
    return [(e.text or "").strip() for e in root.iter(SVG)]


def test_ticks_are_round_numbers() -> None:
    assert nice_ticks(0, 15, 11) == [0, 2, 4, 6, 8, 10, 12, 14]
    assert nice_ticks(0, 12, 8) == [0, 2, 4, 6, 8, 10, 12]
    assert nice_ticks(0, 1000, 11) == list(range(0, 1001, 100))


@given(
    low=st.integers(-50, 50),
    span=st.integers(0, 500),
    most=st.integers(1, 12),
    whole=st.booleans(),
)
def test_never_more_ticks_than_rows(low: int, span: int, most: int, whole: bool) -> None:
    """A chart with room for ``most`` labels gets at most that many, within its range
    (two labels on one row would fight for it, and which one shows would be chance)."""
    ticks = nice_ticks(low, low + span, most, whole)
    assert 1 <= len(ticks) <= most
    assert all(low <= t <= low + span for t in ticks)
    assert ticks == sorted(set(ticks))


def test_score_by_hand(log: str) -> None:
    first = next(g for g in check_logs([log]) if isinstance(g, CheckedGame))
    assert score_by_hand(first) == {"Ana": [0, 2, 2], "Marc": [0, 0, 1]}


def test_rates_by_month_from_split_rows() -> None:
    rows = [
        {"player": "Marc", "month": "2026-12", "fold_rate": 1.0, "fold_rate_low": 0.2,
         "fold_rate_high": 1.0, "raises_faced": 1, "bluff_rate": None, "raises_known": 0},
        {"player": "Marc", "month": "2026-11", "fold_rate": 0.0, "fold_rate_low": 0.0,
         "fold_rate_high": 0.8, "raises_faced": 1, "bluff_rate": 1.0, "raises_known": 1},
        {"player": "Ana", "month": "2026-11", "fold_rate": 1.0, "raises_faced": 1},
    ]  # fmt: skip
    monthly = monthly_rates(rows, "Marc")
    assert monthly.months == ["2026-11", "2026-12"]
    fold_rate, bluff_rate = monthly.rates
    assert fold_rate.rate == [0.0, 1.0] and fold_rate.opportunities == [1, 1]
    assert bluff_rate.rate == [1.0, None] and bluff_rate.opportunities == [1, 0]


def test_game_score_as_png(log: str, tmp_path: Path) -> None:
    out = tmp_path / "score.png"
    result = CliRunner().invoke(main, ["stats", log, "--plot", str(out), "--game", "nov"])
    assert result.exit_code == 0, result.output
    with Image.open(out) as image:
        assert image.format == "PNG" and image.size == (800, 450)


def test_game_score_as_svg_names_the_sides_and_the_target(log: str, tmp_path: Path) -> None:
    out = tmp_path / "score.svg"
    result = CliRunner().invoke(main, ["stats", log, "--plot", str(out), "--game", "nov"])
    assert result.exit_code == 0, result.output
    words = texts(out)
    assert {"Ana", "Marc", "target 12", "hand", "score"} <= set(words)
    assert "nov (Ana v Marc): score after each hand" in words


def test_rates_by_month_as_svg(log: str, tmp_path: Path) -> None:
    out = tmp_path / "marc.svg"
    result = CliRunner().invoke(main, ["stats", log, "--plot", str(out), "--player", "Marc"])
    assert result.exit_code == 0, result.output
    words = texts(out)
    assert "Marc: fold and bluff rates by month" in words
    assert {"fold rate (95% interval)", "bluff rate (95% interval)"} <= set(words)
    # each month with its raises faced / known raises: November 1/1, December 1/0
    assert words[words.index("2026-11") + 1] == "1/1"
    assert words[words.index("2026-12") + 1] == "1/0"
    assert {"0%", "100%"} <= set(words)


def test_rates_plot_as_png(log: str, tmp_path: Path) -> None:
    out = tmp_path / "marc.png"
    result = CliRunner().invoke(main, ["stats", log, "--plot", str(out), "--player", "Marc"])
    assert result.exit_code == 0, result.output
    with Image.open(out) as image:
        assert image.format == "PNG" and image.size == (800, 450)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--plot", "x.gif", "--game", "nov"], "saved as .png or .svg"),
        (["--plot", "x.png", "--game", "nope"], "no game 'nope'"),
        (["--plot", "x.png"], "give one --player"),
        (["--plot", "x.png", "--player", "Marco"], "Marc"),
        (["--game", "nov"], "--game needs --plot"),
    ],
)
def test_bad_requests_are_clear_errors(
    log: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], said: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["stats", log, *args])
    assert result.exit_code != 0 and said in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "x.png").exists()


def test_without_matplotlib_a_clear_error(
    log: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # import fails
    out = tmp_path / "score.png"
    result = CliRunner().invoke(main, ["stats", log, "--plot", str(out), "--game", "nov"])
    assert result.exit_code == 1
    assert "pip install 'truclog[plot]'" in result.output and "Traceback" not in result.output
    assert not out.exists()
