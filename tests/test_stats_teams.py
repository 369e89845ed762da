"""A team is its two players: its statistics row is keyed by the pair, whatever name
the pair played under (the name is a label: the one they used most), and lists its
``members`` in every format.

Each game here starts at 11-0 (a ``score`` on its game line), so that its one hand,
in which the first team takes both tricks, decides it."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import polars as pl
from click.testing import CliRunner

from truclog.cli import main


def team_game(gid: str, players: list[str], first: str, second: str) -> list[dict[str, Any]]:
    """Four players, partners opposite: ``first`` names seats 1 and 3, ``second`` 2 and 4."""
    teams = {first: players[0::2], second: players[1::2]}
    cards = dict(
        zip(
            players,
            (["7h", "8h", "Ah"], ["9s", "Ts", "Js"], ["9h", "Th", "Jh"], ["9c", "Tc", "Jc"]),
            strict=True,
        )
    )
    plays = [(p, cards[p][trick]) for trick in (0, 1) for p in players]
    return [
        {"type": "game", "format": "truclog/1", "players": players, "dealer": players[3],
         "id": gid, "teams": teams, "score": {first: 11, second: 0}},
        {"type": "deal", "dealer": players[3], "cards": cards},
        *({"type": "play", "player": p, "card": c} for p, c in plays),
        {"type": "game_end", "winner": first},
    ]  # fmt: skip


def evenings(tmp_path: Path) -> str:
    """Ana and Lu play as "eux", then twice as "nous"; "nous" and "eux" also name other pairs."""
    games = [
        team_game("g1", ["Ana", "Marc", "Lu", "Zoé"], "eux", "nous"),
        team_game("g2", ["Ana", "Paul", "Lu", "Yann"], "nous", "eux"),
        team_game("g3", ["Zoé", "Ana", "Marc", "Lu"], "eux", "nous"),
    ]
    path = tmp_path / "teams.truclog.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for g in games for e in g), "utf-8")
    return str(path)


EXPECTED = [
    # (team, members, games, hands won): Marc and Zoé played once as "nous" and once as
    # "eux" (equally used: the first name in name order); Ana and Lu twice as "nous"
    ("eux", ["Marc", "Zoé"], 2, 1),
    ("eux", ["Paul", "Yann"], 1, 0),
    ("nous", ["Ana", "Lu"], 3, 2),
]


def run(*args: str) -> str:
    result = CliRunner().invoke(main, ["stats", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_team_rows_are_pairs_of_players_named_by_their_most_used_name(tmp_path: Path) -> None:
    log = evenings(tmp_path)
    teams = json.loads(run(log, "--format", "json"))["teams"]
    assert [(t["team"], t["members"], t["games"], t["hands_won"]) for t in teams] == EXPECTED
    assert all(t["hands_played"] == t["games"] for t in teams)


def test_members_are_in_csv_and_parquet_too(tmp_path: Path) -> None:
    log = evenings(tmp_path)
    rows = [r for r in csv.DictReader(io.StringIO(run(log, "--format", "csv"))) if r["team"]]
    found = [
        (r["team"], json.loads(r["members"]), int(r["games"]), int(r["hands_won"])) for r in rows
    ]
    assert found == EXPECTED
    out = tmp_path / "stats.parquet"
    run(log, "--format", "parquet", "-o", str(out))
    table = pl.read_parquet(out).filter(pl.col("team").is_not_null())
    assert table.schema["members"] == pl.List(pl.Utf8)
    assert table.select("team", "members", "games", "hands_won").rows() == [
        tuple(e) for e in EXPECTED
    ]


def test_a_team_name_still_selects_its_teams_and_a_member_their_teams(tmp_path: Path) -> None:
    log = evenings(tmp_path)
    mine = json.loads(run(log, "--format", "json", "--player", "Paul"))["teams"]
    assert [t["members"] for t in mine] == [["Paul", "Yann"]]
    named = json.loads(run(log, "--format", "json", "--player", "nous"))
    assert named["players"] == []
    assert {tuple(t["members"]) for t in named["teams"]} >= {("Ana", "Lu")}


async def test_the_browser_lists_each_team_with_its_members(tmp_path: Path) -> None:
    from test_browse import wait_loaded

    from truclog.tui.browse import BrowseApp
    from truclog.tui.browse.screens import GamesScreen

    log = evenings(tmp_path)
    app = BrowseApp([log])
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_loaded(app, pilot)
        screen = app.screen
        assert isinstance(screen, GamesScreen)
        sides = {entry.id: entry.sides for entry in app.catalog.entries}
        assert sides == {
            "g1": "eux (Ana & Lu) v nous (Marc & Zoé)",
            "g2": "nous (Ana & Lu) v eux (Paul & Yann)",
            "g3": "eux (Zoé & Marc) v nous (Ana & Lu)",
        }
