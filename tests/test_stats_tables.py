"""The games, hands and actions tables, and their Parquet export (docs/stats.md)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from test_stats_players import BROKEN, FOUR, GAME

from truclog.cli import main
from truclog.stats.tables import ACTIONS, GAMES, HANDS, Tables, read_tables
from truclog.validate import CheckedGame, check_log


def tables_of(tmp_path: Path, *texts: str) -> Tables:
    games = []
    for i, text in enumerate(texts):
        path = tmp_path / f"log{i}.jsonl"
        path.write_text(text, encoding="utf-8")
        games += [g for g in check_log(str(path)) if isinstance(g, CheckedGame)]
    return read_tables(games)


def test_documented_columns(tmp_path: Path) -> None:
    tables = tables_of(tmp_path, GAME)
    assert tables.games.columns == list(GAMES)
    assert tables.hands.columns == list(HANDS)
    assert tables.actions.columns == list(ACTIONS)
    docs = (Path(__file__).parent.parent / "docs" / "stats.md").read_text(encoding="utf-8")
    for column in {*GAMES, *HANDS, *ACTIONS}:
        assert f"`{column}`" in docs, column


def test_games_table(tmp_path: Path) -> None:
    game = tables_of(tmp_path, GAME).games.row(0, named=True)
    assert (game["game"], game["players"], game["winner"], game["complete"]) == (
        "cafe-1",
        ["Ana", "Marc"],
        "Marc",
        True,
    )
    assert (game["score"], game["hands"], game["hands_left_out"]) == ([3, 12], 6, 0)
    assert (game["rules"], game["source"], str(game["date"])) == (
        "classic",
        "tabletop",
        "2026-11-29",
    )


def test_hands_table(tmp_path: Path) -> None:
    hands = tables_of(tmp_path, GAME).hands
    assert hands.get_column("ending").to_list() == [
        "fold",
        "tricks",
        "fold",
        "fold",
        "tricks",
        "reste",
    ]
    assert hands.get_column("winner").to_list() == ["Ana", "Marc", "Ana", "Marc", "Ana", "Marc"]
    assert hands.get_column("points").to_list() == [1, 2, 1, 1, 1, 9]
    assert hands.get_column("value").to_list() == [1, 2, 1, 1, 1, 9]
    assert hands.get_column("dealer").to_list() == ["Marc", "Ana", "Marc", "Ana", "Marc", "Ana"]
    assert hands.get_column("redeal_granted").to_list() == [False, False, True, False, False, False]
    assert hands.get_column("first_trick").to_list() == [None, "Marc", None, None, "tie", "Marc"]
    assert hands.get_column("tricks").to_list() == [0, 2, 0, 0, 3, 2]
    cards = hands.get_column("cards").to_list()
    # ranks high to low in classic order (7 8 A K Q J T 9); None where not all known
    assert cards == [
        ["777", None],
        ["999", "AKQ"],
        ["788", None],
        [None, None],
        ["AKQ", "AKQ"],
        [None, "777"],
    ]
    assert hands.get_column("score_before").to_list()[-1] == [3, 3]
    strength = hands.get_column("strength").to_list()
    assert strength[0] == [1.0, None]
    assert strength[1][0] == 0.0


def test_actions_table(tmp_path: Path) -> None:
    actions = tables_of(tmp_path, GAME).actions
    hand2 = actions.filter(hand=2)
    assert hand2.get_column("type").to_list() == [
        "deal",
        "play",
        "raise",
        "accept",
        "play",
        "play",
        "play",
    ]
    bluff = hand2.row(2, named=True)
    assert (bluff["player"], bluff["position"], bluff["trick"], bluff["value_before"]) == (
        "Ana",
        "follower",
        1,
        1,
    )
    assert (bluff["to"], bluff["strength"], bluff["known"], bluff["answer"]) == (
        2,
        0.0,
        True,
        "accept",
    )
    assert (bluff["hand_won"], bluff["score_before"], bluff["opponent_score_before"]) == (
        False,
        1,
        0,
    )
    accept = hand2.row(3, named=True)
    assert (accept["pending"], accept["pending_raiser"], accept["value_before"]) == (2, "Ana", 1)
    assert hand2.row(4, named=True)["value_before"] == 2
    assert hand2.row(6, named=True)["trick"] == 2
    reste = actions.filter(hand=6, type="raise").row(0, named=True)
    assert (reste["reste"], reste["to"], reste["strength"], reste["answer"]) == (
        True,
        9,
        1.0,
        "accept",
    )
    unknown = actions.filter(hand=4, type="raise").row(0, named=True)
    assert (unknown["known"], unknown["strength"], unknown["answer"]) == (False, None, "fold")
    shown = actions.filter(hand=3, type="raise").row(0, named=True)
    assert shown["known"] is True and shown["strength"] == pytest.approx(0.978, abs=1e-3)
    deal = actions.row(0, named=True)
    assert (deal["type"], deal["player"], deal["value_before"], deal["trick"]) == (
        "deal",
        "Marc",
        None,
        None,
    )


def test_four_player_tables(tmp_path: Path) -> None:
    tables = tables_of(tmp_path, FOUR)
    hand = tables.hands.row(0, named=True)
    assert hand["teams"] == ["A+C", "B+D", "A+C", "B+D"]
    assert (hand["winner"], hand["points"], hand["ending"]) == ("A+C", 2, "tricks")
    assert hand["strength"] == [None, None, None, None]
    raise_ = tables.actions.filter(type="raise").row(0, named=True)
    assert (raise_["team"], raise_["opponent"], raise_["strength"]) == ("A+C", "B+D", None)
    positions = tables.actions.filter(type="play").get_column("position").to_list()
    assert positions[:4] == ["leader", "follower", "third", "fourth"]


def test_hands_with_errors_stay_out(tmp_path: Path) -> None:
    tables = tables_of(tmp_path, BROKEN)
    assert tables.hands.get_column("hand").to_list() == [1, 3]
    assert tables.games.row(0, named=True)["hands_left_out"] == 1
    assert set(tables.actions.get_column("hand").to_list()) == {1, 3}


def test_export_parquet(tmp_path: Path) -> None:
    log = tmp_path / "cafe.jsonl"
    log.write_text(GAME + FOUR, encoding="utf-8")
    copy = tmp_path / "copy.jsonl"
    copy.write_text(GAME, encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["export", "--to", str(out), str(log), str(copy)])
    assert result.exit_code == 0, result.output
    assert "1 duplicate game(s) counted once" in result.stderr
    games = pl.read_parquet(out / "games" / "*.parquet")
    hands = pl.read_parquet(out / "hands" / "*.parquet")
    actions = pl.read_parquet(out / "actions" / "*.parquet")
    assert (games.height, hands.height) == (2, 7)
    assert actions.height == tables_of(tmp_path, GAME + FOUR).actions.height


def test_export_partitioned_by_date(tmp_path: Path) -> None:
    log = tmp_path / "cafe.jsonl"
    log.write_text(GAME + FOUR, encoding="utf-8")
    out = tmp_path / "out"
    args = ["export", "--to", str(out), "--partition-by", "date", str(log)]
    assert CliRunner().invoke(main, args).exit_code == 0
    days = sorted(p.name for p in (out / "hands").iterdir())
    assert days == ["date=2026-11-29", "date=2026-11-30"]
    hands = pl.read_parquet(out / "hands" / "**" / "*.parquet", hive_partitioning=True)
    assert hands.filter(pl.col("date").cast(pl.Utf8) == "2026-11-29").height == 6


def test_missing_path_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["stats", str(tmp_path / "nope.jsonl")])
    assert result.exit_code != 0
    assert "no such file or directory" in result.output
    assert "Traceback" not in result.output
