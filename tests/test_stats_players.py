"""Player statistics on small hand-written logs, every number worked out by hand.

The definitions are those of docs/stats.md. The main log is
one classic game between Ana and Marc, six hands:

1. Marc deals; Ana holds 7 7 7 (dealt face up), raises to 2; Marc folds. Ana +1.
2. Ana deals; Ana 9 9 9, Marc A K Q (both face up). Marc leads the ace, Ana
   raises to 2 with nothing (a bluff), Marc accepts and wins two tricks. Marc +2.
3. Marc deals; Ana asks for a redeal, granted. In the new deal Ana's cards are
   unseen; she raises to 3, Marc folds (Ana +1), then Ana shows 7 8 8: her hand
   is known after all, a strong one.
4. Ana deals, nothing face up; Marc raises to 2, Ana folds. Marc +1. Marc's
   hand is never seen: his raise counts in ``raises`` only.
5. Marc deals; A K Q against A K Q: three tied tricks, the non-dealer (Ana)
   takes the hand (classic ``all_tied: non_dealer``). Ana +1.
6. Ana deals; Marc (3 points) calls reste with 7 7 7, Ana accepts and plays two
   unseen nines; Marc wins the game: 3 -> 12, 9 points.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from truclog.cli import main
from truclog.stats.counts import Grouping, combine, finish
from truclog.stats.players import count
from truclog.stats.tables import read_tables
from truclog.validate import CheckedGame, check_log

GAME = """\
{"type": "game", "format": "truclog/1", "id": "cafe-1", "rules": "classic", "players": ["Ana", "Marc"], "dealer": "Marc", "date": "2026-11-29", "source": "tabletop"}
{"type": "deal", "hand": 1, "dealer": "Marc", "cards": {"Ana": ["7h", "7s", "7d"]}}
{"type": "raise", "player": "Ana", "to": 2}
{"type": "fold", "player": "Marc"}
{"type": "result", "winner": "Ana", "points": 1, "score": {"Ana": 1, "Marc": 0}}
{"type": "deal", "hand": 2, "dealer": "Ana", "cards": {"Ana": ["9h", "9s", "9d"], "Marc": ["Ac", "Kc", "Qc"]}}
{"type": "play", "player": "Marc", "card": "Ac"}
{"type": "raise", "player": "Ana", "to": 2}
{"type": "accept", "player": "Marc"}
{"type": "play", "player": "Ana", "card": "9h"}
{"type": "play", "player": "Marc", "card": "Kc"}
{"type": "play", "player": "Ana", "card": "9s"}
{"type": "result", "winner": "Marc", "points": 2, "score": {"Ana": 1, "Marc": 2}}
{"type": "deal", "hand": 3, "dealer": "Marc", "cards": {"Ana": ["9c", "8c", "Tc"]}}
{"type": "redeal", "player": "Ana", "accepted": true}
{"type": "deal", "hand": 3, "dealer": "Marc", "cards": {"Ana": ["??", "??", "??"]}}
{"type": "raise", "player": "Ana", "to": 3}
{"type": "fold", "player": "Marc"}
{"type": "show", "player": "Ana", "cards": ["7c", "8h", "8s"]}
{"type": "result", "winner": "Ana", "points": 1, "score": {"Ana": 2, "Marc": 2}}
{"type": "deal", "hand": 4, "dealer": "Ana"}
{"type": "raise", "player": "Marc", "to": 2}
{"type": "fold", "player": "Ana"}
{"type": "result", "winner": "Marc", "points": 1, "score": {"Ana": 2, "Marc": 3}}
{"type": "deal", "hand": 5, "dealer": "Marc", "cards": {"Ana": ["Ad", "Kd", "Qd"], "Marc": ["Ah", "Kh", "Qh"]}}
{"type": "play", "player": "Ana", "card": "Ad"}
{"type": "play", "player": "Marc", "card": "Ah"}
{"type": "play", "player": "Ana", "card": "Kd"}
{"type": "play", "player": "Marc", "card": "Kh"}
{"type": "play", "player": "Ana", "card": "Qd"}
{"type": "play", "player": "Marc", "card": "Qh"}
{"type": "result", "winner": "Ana", "points": 1, "score": {"Ana": 3, "Marc": 3}}
{"type": "deal", "hand": 6, "dealer": "Ana", "cards": {"Marc": ["7h", "7s", "7d"]}}
{"type": "raise", "player": "Marc", "reste": true}
{"type": "accept", "player": "Ana"}
{"type": "play", "player": "Marc", "card": "7h"}
{"type": "play", "player": "Ana", "card": "9c"}
{"type": "play", "player": "Marc", "card": "7s"}
{"type": "play", "player": "Ana", "card": "9d"}
{"type": "result", "winner": "Marc", "points": 9, "score": {"Ana": 3, "Marc": 12}}
{"type": "game_end", "winner": "Marc", "score": {"Ana": 3, "Marc": 12}}
"""

FOUR = """\
{"type": "game", "format": "truclog/1", "id": "four-1", "rules": "classic", "players": ["A", "B", "C", "D"], "dealer": "D", "date": "2026-11-30"}
{"type": "deal", "hand": 1, "dealer": "D"}
{"type": "raise", "player": "A", "to": 2}
{"type": "accept", "player": "B"}
{"type": "play", "player": "A", "card": "7h"}
{"type": "play", "player": "B", "card": "8h"}
{"type": "play", "player": "C", "card": "9h"}
{"type": "play", "player": "D", "card": "Ah"}
{"type": "play", "player": "A", "card": "7s"}
{"type": "play", "player": "B", "card": "8s"}
{"type": "play", "player": "C", "card": "9s"}
{"type": "play", "player": "D", "card": "Ks"}
"""

BROKEN = """\
{"type": "game", "format": "truclog/1", "id": "slip-1", "rules": "classic", "players": ["Ana", "Zoé"], "dealer": "Zoé"}
{"type": "deal", "hand": 1, "dealer": "Zoé"}
{"type": "raise", "player": "Ana", "to": 2}
{"type": "fold", "player": "Zoé"}
{"type": "deal", "hand": 2, "dealer": "Ana"}
{"type": "raise", "player": "Ana", "to": 2}
{"type": "deal", "hand": 3, "dealer": "Zoé"}
{"type": "raise", "player": "Ana", "to": 2}
{"type": "fold", "player": "Zoé"}
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def stats(*args: str) -> dict:
    result = CliRunner().invoke(main, ["stats", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def by_name(report: dict, kind: str = "players") -> dict[str, dict]:
    key = "player" if kind == "players" else "team"
    return {row[key]: row for row in report[kind]}


@pytest.fixture
def game_log(tmp_path: Path) -> str:
    return write(tmp_path, "cafe.truclog.jsonl", GAME)


def test_the_hand_written_game_validates(game_log: str) -> None:
    games = [g for g in check_log(game_log) if isinstance(g, CheckedGame)]
    assert len(games) == 1
    assert [d for d in games[0].diagnostics if d.severity == "error"] == []
    assert all(hand.ok for hand in games[0].hands)


def test_contract_statistics(game_log: str) -> None:
    players = by_name(stats(game_log))
    ana, marc = players["Ana"], players["Marc"]
    # raises: hands 1, 2, 3 for Ana; hands 4 and 6 (reste) for Marc
    assert (ana["raises"], marc["raises"]) == (3, 2)
    # Ana answered Marc's raises of hands 4 (fold) and 6 (accept)
    assert (ana["raises_faced"], ana["folds_to_raise"], ana["fold_rate"]) == (2, 1, 0.5)
    # Marc answered hands 1 (fold), 2 (accept) and 3 (fold)
    assert (marc["raises_faced"], marc["folds_to_raise"]) == (3, 2)
    assert marc["fold_rate"] == pytest.approx(2 / 3)
    # Ana's three hands are known (dealt face up, or shown); Marc's hand 4 never was
    assert (ana["raises_known"], marc["raises_known"]) == (3, 1)
    # Ana's only bluff: 9 9 9 in hand 2 (strength 0); 7 7 7 and 7 8 8 are strong
    assert (ana["bluffs"], ana["bluff_rate"]) == (1, pytest.approx(1 / 3))
    assert (marc["bluffs"], marc["bluff_rate"]) == (0, 0.0)


def test_further_statistics(game_log: str) -> None:
    players = by_name(stats(game_log))
    ana, marc = players["Ana"], players["Marc"]
    assert (ana["games"], ana["hands_played"], ana["hands_won"], ana["hands_drawn"]) == (1, 6, 3, 0)
    assert (marc["hands_won"], marc["hands_lost"]) == (3, 3)
    assert (ana["points_won"], ana["points_lost"]) == (3, 12)
    assert (marc["points_won"], marc["points_lost"]) == (12, 3)
    assert ana["raises_per_hand"] == pytest.approx(3 / 6)
    assert (ana["accepts"], marc["accepts"]) == (1, 1)
    assert (ana["bluffs_folded"], ana["bluff_success"]) == (0, 0.0)
    assert (ana["value_raises"], marc["value_raises"]) == (2, 1)
    assert (marc["reste_made"], marc["reste_won"], marc["reste_win_rate"]) == (1, 1, 1.0)
    assert (ana["reste_made"], ana["reste_win_rate"]) == (0, None)
    assert (ana["redeals_asked"], ana["redeals_granted"], ana["redeal_grant_rate"]) == (1, 1, 1.0)
    assert (marc["redeals_asked"], marc["redeal_grant_rate"]) == (0, None)
    # tricks were played in hands 2, 5 and 6: Marc won the first of 2 and 6, 5 was tied
    assert (ana["first_tricks_played"], ana["first_tricks_won"]) == (3, 0)
    assert (marc["first_tricks_played"], marc["first_tricks_won"]) == (3, 2)
    # known hands: Ana 1, 2, 3 (shown), 5; Marc 2, 5, 6
    assert (ana["hands_known"], marc["hands_known"]) == (4, 3)


def test_win_rate_by_hand_strength(game_log: str) -> None:
    players = by_name(stats(game_log))
    # Ana's dealt hands: 7 7 7 (1.0, won), 9 9 9 as dealer (0.0, lost),
    # 7 8 8 (0.98, won), A K Q leading (0.56, won)
    bands = {b["band"]: (b["won"], b["hands"]) for b in players["Ana"]["win_rate_by_strength"]}
    assert bands == {
        "0.00-0.25": (0, 1),
        "0.25-0.50": (0, 0),
        "0.50-0.75": (1, 1),
        "0.75-1.00": (2, 2),
    }
    # Marc: A K Q leading (0.56, won), A K Q as dealer (0.66, lost), 7 7 7 (1.0, won)
    bands = {b["band"]: (b["won"], b["hands"]) for b in players["Marc"]["win_rate_by_strength"]}
    assert bands["0.50-0.75"] == (1, 2)
    assert bands["0.75-1.00"] == (1, 1)


def test_rates_carry_sample_size_and_wilson_interval(game_log: str) -> None:
    ana = by_name(stats(game_log))["Ana"]
    # 1 fold in 2 raises faced: Wilson 95% is [0.0945, 0.9055]
    assert ana["fold_rate_low"] == pytest.approx(0.0945, abs=1e-4)
    assert ana["fold_rate_high"] == pytest.approx(0.9055, abs=1e-4)
    assert (ana["reste_win_rate_low"], ana["reste_win_rate_high"]) == (None, None)


def test_bluff_threshold_moves_the_line(game_log: str) -> None:
    # Ana's raises have strength 1.0, 0.0 and 0.978...: a threshold of 0.99 makes two bluffs
    ana = by_name(stats("--bluff-threshold", "0.99", game_log))["Ana"]
    assert (ana["bluffs"], ana["value_raises"]) == (2, 1)
    # Marc folded to the 7 8 8 raise of hand 3: now a bluff that worked
    assert (ana["bluffs_folded"], ana["bluff_success"]) == (1, 0.5)


def test_contract_names_and_nulls(game_log: str) -> None:
    report = stats(game_log)
    assert set(report) >= {"players"}
    for row in report["players"]:
        for name in (
            "player",
            "raises",
            "raises_faced",
            "folds_to_raise",
            "fold_rate",
            "raises_known",
            "bluffs",
            "bluff_rate",
        ):
            assert name in row


def test_four_players_per_player_and_per_team(tmp_path: Path) -> None:
    report = stats(write(tmp_path, "four.jsonl", FOUR))
    players, teams = by_name(report), by_name(report, "teams")
    assert players["A"]["raises"] == 1
    assert players["A"]["raises_known"] == 0  # one of A's cards was never seen
    assert (players["B"]["raises_faced"], players["B"]["accepts"]) == (1, 1)
    assert players["D"]["raises_faced"] == 0
    assert (players["C"]["hands_won"], players["C"]["points_won"]) == (1, 2)
    assert (players["D"]["hands_won"], players["D"]["points_lost"]) == (0, 2)
    assert set(teams) == {"A+C", "B+D"}
    ac, bd = teams["A+C"], teams["B+D"]
    assert (ac["hands_played"], ac["hands_won"], ac["points_won"], ac["raises"]) == (1, 1, 2, 1)
    assert (bd["raises_faced"], bd["accepts"], bd["points_lost"]) == (1, 1, 2)
    assert (ac["first_tricks_won"], bd["first_tricks_played"]) == (1, 1)


def test_hands_with_errors_are_left_out_and_counted(tmp_path: Path) -> None:
    report = stats(write(tmp_path, "slip.jsonl", BROKEN))
    # hand 2: Ana raises out of turn (Zoé leads); hands 1 and 3 count
    assert report["summary"]["hands_left_out"] == 1
    ana = by_name(report)["Ana"]
    assert (ana["hands_played"], ana["raises"]) == (2, 2)


def test_player_opponent_and_by_opponent(tmp_path: Path, game_log: str) -> None:
    other = write(tmp_path, "slip.jsonl", BROKEN)
    both = stats(game_log, other)
    assert set(by_name(both)) == {"Ana", "Marc", "Zoé"}
    assert by_name(both)["Ana"]["hands_played"] == 8
    only = stats("--player", "Ana", game_log, other)
    assert [r["player"] for r in only["players"]] == ["Ana"]
    versus = stats("--opponent", "Zoé", game_log, other)
    assert by_name(versus)["Ana"]["hands_played"] == 2
    assert "Marc" not in by_name(versus)
    rows = stats("--by", "opponent", game_log, other)["players"]
    pairs = {(r["player"], r["opponent"]): r["hands_played"] for r in rows}
    assert pairs == {("Ana", "Marc"): 6, ("Ana", "Zoé"): 2, ("Marc", "Ana"): 6, ("Zoé", "Ana"): 2}


def test_game_filters(tmp_path: Path, game_log: str) -> None:
    four = write(tmp_path, "four.jsonl", FOUR)
    assert set(by_name(stats("--since", "2026-11-30", game_log, four))) == {"A", "B", "C", "D"}
    assert set(by_name(stats("--until", "2026-11-29", game_log, four))) == {"Ana", "Marc"}
    assert set(by_name(stats("--source", "tabletop", game_log, four))) == {"Ana", "Marc"}
    assert stats("--rules", "sackson", game_log)["players"] == []


def test_api_counts_add_up_across_batches(game_log: str) -> None:
    games = [g for g in check_log(game_log) if isinstance(g, CheckedGame)]
    tables = read_tables(games)
    whole = finish(combine([count(tables, Grouping())]))
    twice = finish(combine([count(tables, Grouping()), count(tables, Grouping())]))
    assert [r["raises"] * 2 for r in whole] == [r["raises"] for r in twice]
    assert [r["fold_rate"] for r in whole] == [r["fold_rate"] for r in twice]


def test_csv_and_parquet_rows_match_the_json(tmp_path: Path, game_log: str) -> None:
    runner = CliRunner()
    made = runner.invoke(main, ["stats", "--format", "csv", game_log])
    assert made.exit_code == 0, made.output
    rows = list(csv.DictReader(io.StringIO(made.stdout)))
    assert [r["player"] for r in rows] == ["Ana", "Marc"]
    assert rows[0]["fold_rate"] == "0.5" and rows[0]["reste_win_rate"] == ""
    assert rows[0]["strength_075_100_hands"] == "2"
    out = tmp_path / "stats.parquet"
    made = runner.invoke(main, ["stats", "--format", "parquet", "-o", str(out), game_log])
    assert made.exit_code == 0, made.output
    frame = pl.read_parquet(out)
    assert frame.get_column("bluffs").to_list() == [1, 0]


def test_the_terminal_table_names_players_and_rates(game_log: str) -> None:
    made = CliRunner().invoke(main, ["stats", game_log])
    assert made.exit_code == 0, made.output
    assert "Ana" in made.stdout and "Marc" in made.stdout
    assert "fold rate" in made.stdout and "50% (1/2)" in made.stdout
