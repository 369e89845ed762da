"""``truclog stats --by``: every split's numbers counted by hand on four small games.

Classic rules (Ana, Marc, Zoé):

- G1, 2026-11-29, Ana v Marc:
  1. Marc deals. Ana (non-dealer, leading, nothing played) raises to 2; Marc folds. Ana +1.
  2. Ana deals. Marc leads an eight; Ana (dealer, following) raises to 2; Marc
     (who led) accepts and takes two tricks. Marc +2.
  3. Marc deals. Ana raises to 2 before playing (leader); Marc (follower) accepts.
     Ana leads the 7; Marc raises to 3 (following); Ana (who led) folds. Marc +2.
- G2, 2026-12-02, Ana v Zoé: Zoé deals; Ana raises to 2 (leader); Zoé folds. Ana +1.
- G3, 2026-12-02, Ana v Zoé: Ana deals; Zoé raises to 2 (leader); Ana (follower) folds. Zoé +1.
- G4, 2026-12-05, Ana v Marc: Marc deals; Ana raises to 2 (leader); Marc folds. Ana +1.

So Ana played 6 hands and won 3 (G1.1, G2, G4), raised 5 times (all to 2) and
faced 2 raises (G1.3 to 3, G3 to 2), folding to both.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_stats_players import FOUR

from truclog.cli import main

G1 = """\
{"type": "game", "format": "truclog/1", "id": "g1", "rules": "classic", "players": ["Ana", "Marc"], "dealer": "Marc", "date": "2026-11-29"}
{"type": "deal", "hand": 1, "dealer": "Marc"}
{"type": "raise", "player": "Ana", "to": 2}
{"type": "fold", "player": "Marc"}
{"type": "result", "winner": "Ana", "points": 1, "score": {"Ana": 1, "Marc": 0}}
{"type": "deal", "hand": 2, "dealer": "Ana"}
{"type": "play", "player": "Marc", "card": "8c"}
{"type": "raise", "player": "Ana", "to": 2}
{"type": "accept", "player": "Marc"}
{"type": "play", "player": "Ana", "card": "Qh"}
{"type": "play", "player": "Marc", "card": "7c"}
{"type": "play", "player": "Ana", "card": "Jh"}
{"type": "result", "winner": "Marc", "points": 2, "score": {"Ana": 1, "Marc": 2}}
{"type": "deal", "hand": 3, "dealer": "Marc"}
{"type": "raise", "player": "Ana", "to": 2}
{"type": "accept", "player": "Marc"}
{"type": "play", "player": "Ana", "card": "7h"}
{"type": "raise", "player": "Marc", "to": 3}
{"type": "fold", "player": "Ana"}
{"type": "result", "winner": "Marc", "points": 2, "score": {"Ana": 1, "Marc": 4}}
"""


def one_hand(game: str, date: str, players: str, dealer: str, raiser: str, folder: str) -> str:
    return (
        f'{{"type": "game", "format": "truclog/1", "id": "{game}", "rules": "classic", '
        f'"players": {players}, "dealer": "{dealer}", "date": "{date}"}}\n'
        f'{{"type": "deal", "hand": 1, "dealer": "{dealer}"}}\n'
        f'{{"type": "raise", "player": "{raiser}", "to": 2}}\n'
        f'{{"type": "fold", "player": "{folder}"}}\n'
    )


G2 = one_hand("g2", "2026-12-02", '["Ana", "Zoé"]', "Zoé", "Ana", "Zoé")
G3 = one_hand("g3", "2026-12-02", '["Ana", "Zoé"]', "Ana", "Zoé", "Ana")
G4 = one_hand("g4", "2026-12-05", '["Ana", "Marc"]', "Marc", "Ana", "Marc")

COUNTED = ("games", "hands_played", "hands_won", "raises", "raises_faced", "folds_to_raise")


@pytest.fixture
def log(tmp_path: Path) -> str:
    path = tmp_path / "four-games.jsonl"
    path.write_text(G1 + G2 + G3 + G4, encoding="utf-8")
    return str(path)


def rows(log: str, *args: str, player: str = "Ana") -> dict[tuple, tuple]:
    """Ana's split rows: their keys -> the counts of COUNTED."""
    made = CliRunner().invoke(main, ["stats", "--format", "json", *args, log])
    assert made.exit_code == 0, made.output
    found = {}
    for row in json.loads(made.stdout)["players"]:
        if row["player"] != player:
            continue
        keys = tuple(
            (k, row[k])
            for k in ("opponent", "position", "raise_size", "month", "session")
            if k in row
        )
        found[keys] = tuple(row[c] for c in COUNTED)
    return found


def test_the_games_are_counted_whole(log: str) -> None:
    assert rows(log) == {(): (4, 6, 3, 5, 2, 2)}


def test_by_position(log: str) -> None:
    # dealer: G1.2, G3 (no hand won; the raise of G1.2; the fold of G3)
    # non-dealer: G1.1, G1.3, G2, G4 (won G1.1, G2, G4; four raises; the fold of G1.3)
    # leader at the raise: raises G1.1, G1.3, G2, G4; in G1.3 Ana had led the 7 when Marc raised
    # follower: the raise of G1.2 (Marc had led); in G3 Zoé raised leading, Ana followed
    assert rows(log, "--by", "position") == {
        (("position", "dealer"),): (2, 2, 0, 1, 1, 1),
        (("position", "non-dealer"),): (3, 4, 3, 4, 1, 1),  # games G1, G2, G4
        (("position", "leader"),): (0, 0, 0, 4, 1, 1),
        (("position", "follower"),): (0, 0, 0, 1, 1, 1),
    }
    marc = rows(log, "--by", "position", player="Marc")
    # Marc's answers: G1.1 fold (following Ana's raise), G1.2 accept (he had led), G1.3
    # accept (following), G4 fold (following); his raise to 3 in G1.3 follows Ana's 7
    assert marc[(("position", "leader"),)] == (0, 0, 0, 0, 1, 0)
    assert marc[(("position", "follower"),)] == (0, 0, 0, 1, 3, 2)
    assert marc[(("position", "dealer"),)] == (2, 3, 1, 1, 3, 2)  # G1.1, G1.3 (won), G4
    assert marc[(("position", "non-dealer"),)] == (1, 1, 1, 0, 1, 0)  # G1.2


def test_by_raise_size(log: str) -> None:
    # every raise of Ana's is to 2; she folded to Zoé's 2 (G3) and Marc's 3 (G1.3)
    assert rows(log, "--by", "raise-size") == {
        (("raise_size", 2),): (0, 0, 0, 5, 1, 1),
        (("raise_size", 3),): (0, 0, 0, 0, 1, 1),
    }


def test_by_month_and_by_session(log: str) -> None:
    assert rows(log, "--by", "month") == {
        (("month", "2026-11"),): (1, 3, 1, 3, 1, 1),
        (("month", "2026-12"),): (3, 3, 2, 2, 1, 1),
    }
    assert rows(log, "--by", "session") == {
        (("session", "2026-11-29 Ana, Marc"),): (1, 3, 1, 3, 1, 1),
        (("session", "2026-12-02 Ana, Zoé"),): (2, 2, 1, 1, 1, 1),
        (("session", "2026-12-05 Ana, Marc"),): (1, 1, 1, 1, 0, 0),
    }


def test_by_opponent(log: str) -> None:
    assert rows(log, "--by", "opponent") == {
        (("opponent", "Marc"),): (2, 4, 2, 4, 1, 1),
        (("opponent", "Zoé"),): (2, 2, 1, 1, 1, 1),
    }


def test_splits_combine(log: str) -> None:
    found = rows(log, "--by", "month", "--by", "raise-size")
    assert found == {
        (("raise_size", 2), ("month", "2026-11")): (0, 0, 0, 3, 0, 0),
        (("raise_size", 3), ("month", "2026-11")): (0, 0, 0, 0, 1, 1),
        (("raise_size", 2), ("month", "2026-12")): (0, 0, 0, 2, 1, 1),
    }
    found = rows(log, "--by", "opponent", "--by", "position")
    assert found[(("opponent", "Zoé"), ("position", "dealer"))] == (1, 1, 0, 0, 1, 1)
    assert found[(("opponent", "Marc"), ("position", "follower"))] == (0, 0, 0, 1, 0, 0)


def test_split_rows_carry_sample_sizes_and_intervals(log: str) -> None:
    made = CliRunner().invoke(main, ["stats", "--format", "json", "--by", "position", log])
    row = next(
        r
        for r in json.loads(made.stdout)["players"]
        if r["player"] == "Ana" and r["position"] == "leader"
    )
    # 1 fold in 1 raise faced: Wilson 95% of 1/1 is [z²/(n+z²), 1] = [0.2065, 1]
    assert (row["folds_to_raise"], row["raises_faced"], row["fold_rate"]) == (1, 1, 1.0)
    assert row["fold_rate_low"] == pytest.approx(0.2065, abs=1e-4)
    assert row["fold_rate_high"] == 1.0
    assert row["win_rate"] is None  # leader rows count raises and answers, not hands


def test_splits_in_the_terminal_table(log: str) -> None:
    made = CliRunner().invoke(main, ["stats", "--by", "session", "--player", "Ana", log])
    assert made.exit_code == 0, made.output
    assert "2026-12-02 Ana, Zoé" in made.stdout
    assert "session" in made.stdout


def test_splits_do_not_depend_on_files_or_processes(tmp_path: Path, log: str) -> None:
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_text(G1 + G2, encoding="utf-8")
    second.write_text(G3 + G4 + G1, encoding="utf-8")  # G1 again: counted once
    args = ("--by", "session", "--by", "position")
    whole = CliRunner().invoke(main, ["stats", "--format", "json", *args, log])
    cut = CliRunner().invoke(
        main, ["stats", "--format", "json", "-j", "2", *args, str(first), str(second)]
    )
    assert cut.exit_code == 0, cut.output
    assert json.loads(cut.stdout)["players"] == json.loads(whole.stdout)["players"]


def test_team_rows_split_by_position(tmp_path: Path) -> None:
    # one four-player hand (teams A+C and B+D): D deals; A raises to 2 before any card
    # (leading), B answers for B+D (next in the trick: following) and accepts; A+C win
    log = tmp_path / "four.jsonl"
    log.write_text(FOUR, encoding="utf-8")
    made = CliRunner().invoke(main, ["stats", "--format", "json", "--by", "position", str(log)])
    teams = {
        (row["team"], row["position"]): (row["hands_played"], row["raises"], row["raises_faced"])
        for row in json.loads(made.stdout)["teams"]
    }
    assert teams == {
        ("A+C", "non-dealer"): (1, 1, 0),
        ("A+C", "leader"): (0, 1, 0),
        ("B+D", "dealer"): (1, 0, 1),
        ("B+D", "follower"): (0, 0, 1),
    }
