"""Rubbers: the games sharing a ``match`` id, won by the first side to win two games.

Each game here starts at 11-0 or 0-11 (a ``score`` on its game line), so that one
hand decides it: the side at 11 wins the hand's two tricks and reaches 12.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import lines
import pytest
from click.testing import CliRunner

from truclog.cli import main
from truclog.validate import CheckedGame, Diagnostic, check_logs
from truclog.validate.report import mark_duplicates, report_file, report_json


def game(
    gid: str,
    winner: str,
    match: str | None = "m",
    t: str | None = "2026-12-01T20:00:00+01:00",
    players: tuple[str, ...] = ("Ana", "Marc"),
    finish: str = "won",
    date: str | None = None,
) -> list[dict[str, Any]]:
    """A game of two players that ``winner`` wins in one hand (``finish``: ``won``, or
    ``abandoned`` before the hand, or ``unfinished`` after one card)."""
    loser = next(p for p in players if p != winner)
    more = {k: v for k, v in (("match", match), ("t", t), ("date", date)) if v}
    header = lines.game(None, loser, players, id=gid, score={winner: 11, loser: 0}, **more)
    if finish == "abandoned":
        return [header, lines.game_end(abandoned=True)]
    cards = {winner: ["7h", "8h", "Ah"], loser: ["9s", "Ts", "Js"]}
    first = [{"type": "deal", "dealer": loser, "cards": cards}, lines.play(winner, "7h")]
    if finish == "unfinished":
        return [header, *first]
    return [
        header,
        *first,
        lines.play(loser, "9s"),
        lines.play(winner, "8h"),
        lines.play(loser, "Ts"),
        lines.result(winner, 1, {winner: 12, loser: 0}),
        lines.game_end(winner=winner),
    ]


def write(path: Path, *games: list[dict[str, Any]]) -> str:
    return lines.write_log(path, [line for g in games for line in g])


def problems(*paths: str) -> list[tuple[str, str | None, str]]:
    """(code, game, file name) of every diagnostic of a run over ``paths``."""
    found: list[Diagnostic] = []
    for item in check_logs(paths):
        found.extend(item.diagnostics if isinstance(item, CheckedGame) else [item])
    return [(d.code, d.game, Path(d.path).name) for d in found]


def json_run(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["validate", "--format", "json", *args])
    assert result.exit_code in (0, 1), result.output
    document: dict[str, Any] = json.loads(result.output)
    return document


def test_a_rubber_won_two_games_to_one_is_clean_and_reported_with_its_winner(
    tmp_path: Path,
) -> None:
    log = write(tmp_path / "r.jsonl", game("g1", "Ana"), game("g2", "Marc"), game("g3", "Ana"))
    assert problems(log) == []
    document = json_run(log)
    assert document["summary"]["rubbers"] == [
        {"match": "m", "files": [log], "games": 3, "wins": {"Ana": 2, "Marc": 1}, "winner": "Ana"}
    ]
    assert [g["match"] for g in document["files"][0]["games"]] == ["m", "m", "m"]


def test_a_game_after_the_rubber_is_won_is_an_error_on_its_game_line(tmp_path: Path) -> None:
    log = write(tmp_path / "r.jsonl", game("g1", "Ana"), game("g2", "Ana"), game("g3", "Marc"))
    assert problems(log) == [("E222", "g3", "r.jsonl")]
    document = json_run(log)
    (error,) = document["files"][0]["diagnostics"]
    assert (error["line"], error["code"]) == (17, "E222")
    assert "Ana has won 2 games" in error["message"]
    # the game that does not count leaves the rubber as it was: Ana's, 2-0
    assert document["summary"]["rubbers"][0]["wins"] == {"Ana": 2}
    assert document["summary"]["errors"] == 1


def test_rubbers_are_told_apart_by_their_match_id_and_plain_games_are_in_none(
    tmp_path: Path,
) -> None:
    log = write(
        tmp_path / "r.jsonl",
        game("a1", "Ana", match="a"),
        game("b1", "Marc", match="b"),
        game("a2", "Ana", match="a"),
        game("x", "Ana", match=None),
        game("b2", "Ana", match="b"),
        game("b3", "Ana", match="b"),
        game("y", "Marc", match=None),
    )
    assert problems(log) == []
    rubbers = json_run(log)["summary"]["rubbers"]
    assert [(r["match"], r["games"], r["winner"]) for r in rubbers] == [
        ("a", 2, "Ana"),
        ("b", 3, "Ana"),
    ]


def test_an_unfinished_rubber_has_no_winner(tmp_path: Path) -> None:
    log = write(tmp_path / "r.jsonl", game("g1", "Ana"), game("g2", "Marc"))
    (rubber,) = json_run(log)["summary"]["rubbers"]
    assert rubber == {
        "match": "m",
        "files": [log],
        "games": 2,
        "wins": {"Ana": 1, "Marc": 1},
        "winner": None,
    }


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({"t": "2026-12-01T21:00:00+01:00"}, {"t": "2026-12-01T20:00:00+01:00"}),
        # the same moment written at another offset is not earlier; 19:30Z is 20:30+01:00
        ({"t": "2026-12-01T20:45:00+01:00"}, {"t": "2026-12-01T19:30:00Z"}),
        ({"t": None, "date": "2026-12-02"}, {"t": None, "date": "2026-12-01"}),
    ],
)
def test_a_game_that_starts_before_the_previous_game_of_its_rubber_is_out_of_order(
    tmp_path: Path, first: dict[str, Any], second: dict[str, Any]
) -> None:
    log = write(tmp_path / "r.jsonl", game("g1", "Ana", **first), game("g2", "Ana", **second))
    assert problems(log) == [("E223", "g2", "r.jsonl")]


def test_games_in_time_order_across_offsets_are_in_order(tmp_path: Path) -> None:
    later = {"t": "2026-12-01T19:30:00Z"}  # 20:30 at +01:00
    log = write(tmp_path / "r.jsonl", game("g1", "Ana"), game("g2", "Ana", **later))
    assert problems(log) == []


def test_a_game_after_an_unfinished_game_of_its_rubber_is_out_of_order(tmp_path: Path) -> None:
    log = write(tmp_path / "r.jsonl", game("g1", "Ana", finish="unfinished"), game("g2", "Ana"))
    assert problems(log) == [("W801", "g1", "r.jsonl"), ("E223", "g2", "r.jsonl")]


def test_an_abandoned_game_counts_for_nobody_and_the_rubber_goes_on(tmp_path: Path) -> None:
    log = write(
        tmp_path / "r.jsonl",
        game("g1", "Ana"),
        game("g2", "Marc", finish="abandoned"),
        game("g3", "Marc"),
        game("g4", "Ana"),
    )
    assert problems(log) == []
    (rubber,) = json_run(log)["summary"]["rubbers"]
    assert rubber == {
        "match": "m",
        "files": [log],
        "games": 4,
        "wins": {"Ana": 2, "Marc": 1},
        "winner": "Ana",
    }


def test_a_game_between_other_sides_is_not_part_of_the_rubber(tmp_path: Path) -> None:
    log = write(
        tmp_path / "r.jsonl",
        game("g1", "Ana"),
        game("g2", "Ana", players=("Ana", "Zoé"), t="2026-12-01T23:00:00+01:00"),
        game("g3", "Ana", t="2026-12-01T21:00:00+01:00"),
    )
    # g3 follows g1, the rubber's last game: g2 was never part of it
    assert problems(log) == [("E224", "g2", "r.jsonl")]


def json_runs(*paths: str) -> list[dict[str, Any]]:
    """The JSON report of ``paths`` on every path: the quick core and the line-by-line
    validator in one process, two processes, and a Dask cluster when installed."""
    runs = [json_run("-j", "1", *paths), json_run("-j", "2", *paths)]
    runs += [report_json(list(mark_duplicates([report_file(p, quick=False) for p in paths])))]
    runs += [report_json(list(mark_duplicates([report_file(p, quick=True) for p in paths])))]
    try:
        import distributed  # noqa: F401
    except ImportError:
        return runs
    return [*runs, json_run("--scheduler", "local:1", *paths)]


def test_a_rubber_spread_over_files_goes_on_while_it_is_unfinished_between_the_same_sides(
    tmp_path: Path,
) -> None:
    paths = [
        write(tmp_path / "1.jsonl", game("g1", "Ana")),
        write(tmp_path / "2.jsonl", game("g2", "Marc")),
        write(tmp_path / "3.jsonl", game("g3", "Ana"), game("g4", "Ana")),
    ]
    # g3 wins the rubber begun in 1.jsonl; g4, in the same file, comes after it
    assert problems(*paths) == [("E222", "g4", "3.jsonl")]
    for run in json_runs(*paths):
        (rubber,) = run["summary"]["rubbers"]
        assert rubber["files"] == paths
        assert (rubber["games"], rubber["wins"], rubber["winner"]) == (
            4,
            {"Ana": 2, "Marc": 1},
            "Ana",
        )
        assert run["summary"]["errors"] == 1


def test_evening_files_that_each_hold_a_whole_rubber_with_the_same_id_are_three_rubbers(
    tmp_path: Path,
) -> None:
    others = ("Lu", "Zoé")
    paths = [
        write(tmp_path / "mon.jsonl", game("a1", "Ana", "m1"), game("a2", "Ana", "m1")),
        write(
            tmp_path / "tue.jsonl",
            game("b1", "Zoé", "m1", players=others),
            game("b2", "Lu", "m1", players=others),
            game("b3", "Zoé", "m1", players=others),
        ),
        write(tmp_path / "wed.jsonl", game("c1", "Marc", "m1"), game("c2", "Marc", "m1")),
    ]
    assert problems(*paths) == []
    for run in json_runs(*paths):
        assert run["summary"]["errors"] == 0
        found = [
            (r["match"], r["files"], r["games"], r["winner"]) for r in run["summary"]["rubbers"]
        ]
        assert found == [
            ("m1", [paths[0]], 2, "Ana"),
            ("m1", [paths[1]], 3, "Zoé"),
            ("m1", [paths[2]], 2, "Marc"),
        ]


def test_a_game_in_another_file_between_other_sides_starts_another_rubber_with_that_id(
    tmp_path: Path,
) -> None:
    paths = [
        write(tmp_path / "1.jsonl", game("g1", "Ana")),
        write(tmp_path / "2.jsonl", game("g2", "Zoé", players=("Lu", "Zoé"))),
        write(tmp_path / "3.jsonl", game("g3", "Lu", players=("Lu", "Zoé"))),
    ]
    assert problems(*paths) == []
    for run in json_runs(*paths):
        found = [(r["files"], r["wins"]) for r in run["summary"]["rubbers"]]
        assert found == [([paths[0]], {"Ana": 1}), (paths[1:], {"Zoé": 1, "Lu": 1})]


def test_within_one_file_a_rubber_id_is_one_rubber_whatever_its_games(tmp_path: Path) -> None:
    log = write(
        tmp_path / "r.jsonl",
        game("g1", "Ana"),
        game("g2", "Ana"),
        game("g3", "Zoé", players=("Lu", "Zoé")),
    )
    assert problems(log) == [("E222", "g3", "r.jsonl")]


def test_the_quick_core_and_the_line_by_line_validator_report_rubbers_alike(
    tmp_path: Path,
) -> None:
    log = write(
        tmp_path / "r.jsonl",
        game("g1", "Ana"),
        game("g2", "Marc", t="2026-12-01T19:00:00+01:00"),
        game("g3", "Ana", finish="unfinished"),
        game("g4", "Ana"),
        game("g5", "Ana"),
        game("g6", "Ana"),
    )
    fast, slow = (
        report_json(list(mark_duplicates([report_file(log, quick=quick)])))
        for quick in (True, False)
    )
    assert fast == slow
    # g2 and g4 (out of order) do not count: g1 and g5 win the rubber for Ana
    found = [(d["code"], d["game"]) for d in fast["files"][0]["diagnostics"]]
    assert found == [("E223", "g2"), ("W801", "g3"), ("E223", "g4"), ("E222", "g6")]


def test_four_players_play_a_rubber_as_two_teams(tmp_path: Path) -> None:
    teams = {"Nord": ["Ana", "Lu"], "Sud": ["Marc", "Zoé"]}
    players = ["Ana", "Marc", "Lu", "Zoé"]

    def team_game(gid: str) -> list[dict[str, Any]]:
        header = {
            "type": "game",
            "format": "truclog/1",
            "players": players,
            "dealer": "Zoé",
            "id": gid,
            "match": "quatre",
            "teams": teams,
            "score": {"Nord": 11, "Sud": 0},
        }
        cards = {"Ana": ["7h", "8h", "Ah"], "Marc": ["9s", "Ts", "Js"]}
        cards |= {"Lu": ["9h", "Th", "Jh"], "Zoé": ["9c", "Tc", "Jc"]}
        plays = ["Ana 7h", "Marc 9s", "Lu 9h", "Zoé 9c", "Ana 8h", "Marc Ts", "Lu Th", "Zoé Tc"]
        return [
            header,
            {"type": "deal", "dealer": "Zoé", "cards": cards},
            *({"type": "play", "player": p, "card": c} for p, c in (s.split() for s in plays)),
            {"type": "game_end", "winner": "Nord"},
        ]

    log = write(tmp_path / "r.jsonl", team_game("g1"), team_game("g2"), team_game("g3"))
    assert problems(log) == [("E222", "g3", "r.jsonl")]
    assert json_run(log)["summary"]["rubbers"][0]["wins"] == {"Nord": 2}
