"""``truclog stats`` as a user drives it: --player filters players and teams, unknown
names are errors with suggestions, the many-player table, --sort, --min-hands, and a
progress that moves within one file."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from rich.console import Console
from test_stats_players import FOUR, GAME
from test_stats_splits import G1, G2, G3, G4

from truclog.cli import main
from truclog.cli.stats import _rows_table
from truclog.stats import run
from truclog.stats.counts import COUNTS, Grouping, statistics
from truclog.stats.run import collect
from truclog.validate import quick


@pytest.fixture
def logs(tmp_path: Path) -> list[str]:
    """The six-hand Ana v Marc game, a four-player hand (teams A+C, B+D), and four
    games of Ana, Marc and Zoé (6 hands for Ana, 4 for Marc, 2 for Zoé)."""
    paths = []
    for name, text in {"cafe": GAME, "four": FOUR, "splits": G1 + G2 + G3 + G4}.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


def stats(*args: str, columns: int = 80) -> Result:
    return CliRunner().invoke(main, ["stats", *args], env={"COLUMNS": str(columns)})


def report(*args: str) -> dict:
    made = stats("--format", "json", *args)
    assert made.exit_code == 0, made.output
    return json.loads(made.stdout)


def names(found: dict, kind: str = "players") -> list[str]:
    return [row["player" if kind == "players" else "team"] for row in found[kind]]


def test_player_limits_players_and_teams(logs: list[str]) -> None:
    found = report("--player", "A", *logs)
    assert names(found) == ["A"]
    assert names(found, "teams") == ["A+C"]
    found = report("--player", "Ana", *logs)
    assert (names(found), names(found, "teams")) == (["Ana"], [])
    assert found["players"][0]["hands_played"] == 12  # 6 in each log
    found = report("--player", "B+D", *logs)  # a team by its name
    assert (names(found), names(found, "teams")) == ([], ["B+D"])


def test_an_unknown_player_is_an_error_that_suggests_names(logs: list[str]) -> None:
    made = stats("--player", "Mrac", "--player", "Ana", *logs)
    assert made.exit_code == 2
    assert "no player or team named 'Mrac' (did you mean Marc?)" in made.output
    assert "Traceback" not in made.output and made.stdout.count("Ana") == 0
    made = stats("--player", "ana", *logs)
    assert made.exit_code == 2
    assert "'ana' (did you mean Ana?)" in made.output
    made = stats("--player", "Xavier", *logs)
    assert made.exit_code == 2
    assert "no player or team named 'Xavier' in these games" in made.output


def test_ignore_case(logs: list[str]) -> None:
    found = report("--player", "ana", "--player", "a", "--ignore-case", *logs)
    assert names(found) == ["A", "Ana"]
    assert names(found, "teams") == ["A+C"]


def test_sort_and_min_hands(logs: list[str]) -> None:
    # hands: Ana 12, Marc 10, Zoé 2, A B C D 1 each
    found = report("--sort", "hands_played", *logs)
    assert names(found)[:3] == ["Ana", "Marc", "Zoé"]
    assert names(found)[3:] == ["A", "B", "C", "D"]  # ties stay in name order
    found = report("--min-hands", "3", *logs)
    assert names(found) == ["Ana", "Marc"]
    assert names(found, "teams") == []
    # fold rates: Zoé 1/1; Ana 1/2 in the six-hand game and 2/2 here; Marc 2/3 and 2/4
    found = report("--sort", "fold_rate", "--min-hands", "2", *logs)
    assert names(found) == ["Zoé", "Ana", "Marc"]
    assert [row["fold_rate"] for row in found["players"]] == [1.0, 0.75, 4 / 7]
    found = report("--sort", "player", "--min-hands", "2", *logs)
    assert names(found) == ["Ana", "Marc", "Zoé"]


def test_min_hands_keeps_whole_players_in_splits(logs: list[str]) -> None:
    found = report("--by", "raise-size", "--min-hands", "3", *logs)
    assert {row["player"] for row in found["players"]} == {"Ana", "Marc"}
    assert all(row["hands_played"] == 0 for row in found["players"])


def test_one_row_per_player_with_the_accept_rate(logs: list[str]) -> None:
    made = stats(*logs, columns=200)
    assert made.exit_code == 0, made.output
    lines = made.stdout.splitlines()
    header = next(line for line in lines if line.lstrip().startswith("player "))
    for title in ("hands", "win rate", "fold rate", "accept rate", "bluff rate"):
        assert title in header
    ana = next(line for line in lines if line.lstrip().startswith("Ana "))
    # Ana: 4 raises faced (2 in the six-hand game, 2 here), 1 accepted
    assert "25% (1/4)" in ana
    rows = [line.split()[0] for line in lines[lines.index(header) + 2 :] if line.strip()]
    assert rows[: rows.index("Zoé") + 1] == ["A", "Ana", "B", "C", "D", "Marc", "Zoé"]


def test_the_table_keeps_to_the_terminal_width(logs: list[str]) -> None:
    made = stats(*logs, columns=80)
    assert made.exit_code == 0
    assert max(len(line) for line in made.stdout.splitlines()) <= 80
    assert "not shown:" in made.stdout and "accept rate" in made.stdout
    assert "…" not in made.stdout  # columns are left out whole, never cut


def test_thousands_separators() -> None:
    counts = dict.fromkeys(COUNTS, 0)
    counts.update(hands_played=12_345, hands_won=6_789, games=1_500)
    counts.update(raises_faced=2_000, folds_to_raise=1_500, accepts=500)
    row = statistics({"name": "Ana", **counts})
    console = Console(width=200, record=True)
    console.print(_rows_table([row], "player", "players", 200))
    text = console.export_text()
    assert "12,345" in text and "1,500" in text
    assert "55% (6,789/12,345)" in text and "75% (1,500/2,000)" in text
    assert "25% (500/2,000)" in text


def test_progress_moves_within_one_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "many.jsonl"
    log.write_text(GAME * 40, encoding="utf-8")  # the same game again and again: 1,240 lines
    monkeypatch.setattr(run, "METER_LINES", 100)  # read line by line (no quick core)
    monkeypatch.setattr(quick, "BLOCK", 8192)  # read in blocks by the quick core
    told: list[tuple[int, int]] = []
    collect([str(log)], Grouping(), progress=lambda size, hands: told.append((size, hands)))
    sizes = [size for size, _ in told if size]
    assert len(sizes) >= 12  # bytes are told as they are read, not once at the end
    assert sum(sizes) == os.path.getsize(log)
    assert sum(hands for _, hands in told) == 6  # one game counted, the copies dropped


def test_progress_of_a_gz_file_counts_its_own_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "many.jsonl.gz"
    log.write_bytes(gzip.compress((GAME * 300).encode(), compresslevel=1))
    monkeypatch.setattr(run, "METER_LINES", 500)
    monkeypatch.setattr(quick, "BLOCK", 8192)
    told: list[int] = []
    collect([str(log)], Grouping(), progress=lambda size, hands: told.append(size))
    assert sum(told) == os.path.getsize(log)
    assert len([size for size in told if size]) >= 2


def test_names_are_shown_as_written(tmp_path: Path) -> None:
    log = tmp_path / "markup.jsonl"
    log.write_text(GAME.replace('"Ana"', '"[bold]Ana"'), encoding="utf-8")  # rich markup
    made = stats(str(log), columns=120)
    assert made.exit_code == 0, made.output
    assert "[bold]Ana" in made.stdout


DOCUMENTED = ["fold rate", "bluff rate", "hands", "win rate", "accept rate", "raises/hand"]
"""The table's first columns, in the order docs/stats.md gives them."""


def header_of(text: str) -> list[str]:
    line = next(line for line in text.splitlines() if line.lstrip().startswith("player "))
    return [cell.strip() for cell in line.split("  ") if cell.strip()]


@pytest.mark.parametrize("columns", [80, 100, 130])
def test_the_columns_shown_are_the_first_of_the_documented_order(
    logs: list[str], columns: int
) -> None:
    made = stats(*logs, columns=columns)
    assert made.exit_code == 0, made.output
    shown = header_of(made.stdout)[1:]
    assert shown == DOCUMENTED[: len(shown)]
    assert shown[:2] == ["fold rate", "bluff rate"]


def test_position_rows_at_80_columns_show_their_rates(logs: list[str]) -> None:
    made = stats("--by", "position", "--player", "Ana", *logs, columns=80)
    assert made.exit_code == 0, made.output
    rows = [line for line in made.stdout.splitlines() if line.lstrip().startswith("Ana ")]
    assert [row.split()[1] for row in rows] == ["dealer", "non-dealer", "follower", "leader"]
    assert all("%" in row for row in rows)


def test_an_unknown_opponent_is_an_error_that_suggests_names(logs: list[str]) -> None:
    made = stats("--opponent", "Mrac", *logs)
    assert made.exit_code == 2
    assert "--opponent" in made.output and "'Mrac' (did you mean Marc?)" in made.output
    assert made.stdout.count("Ana") == 0


def test_the_summary_counts_the_hands_played_against_the_opponent(logs: list[str]) -> None:
    every = report(*logs)["summary"]
    found = report("--opponent", "Zoé", *logs)
    # Zoé plays two of the games of Ana, Marc and Zoé, of one hand each, against Ana
    assert (found["summary"]["games"], found["summary"]["hands"]) == (2, 2)
    assert every["hands"] > 2
    assert sum(row["hands_played"] for row in found["players"] if row["player"] != "Zoé") == 2


def test_an_unknown_sort_key_names_the_closest_not_all_of_them(logs: list[str]) -> None:
    made = stats("--sort", "fold", *logs)
    assert made.exit_code == 2
    assert "'fold' is not a column to sort by (did you mean fold_rate," in made.output
    assert "points_given" not in made.output  # not the list of every column


def test_an_unknown_command_names_the_closest() -> None:
    made = CliRunner().invoke(main, ["valdate", "x.jsonl"])
    assert made.exit_code == 2
    assert "No such command 'valdate' (did you mean validate?)" in made.output


def test_the_hands_count_moves_from_the_first_games_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hands are told as each game is read, not once a batch of 10,000 is counted: by
    the time a fifth of the bytes are read, hands have been told."""
    log = tmp_path / "sim.jsonl"
    made = CliRunner().invoke(main, ["simulate", "-n", "40", "--seed", "3", "-o", str(log)])
    assert made.exit_code == 0, made.output
    monkeypatch.setattr(quick, "BLOCK", 4096)
    told: list[tuple[int, int]] = []
    collect([str(log)], Grouping(), progress=lambda size, hands: told.append((size, hands)))
    read = hands = 0
    for size, counted in told:
        read, hands = read + size, hands + counted
        if read >= os.path.getsize(log) / 5:
            break
    assert hands > 0
    assert sum(h for _, h in told) == json.loads(stats_json(str(log)))["summary"]["hands"]


def stats_json(path: str) -> str:
    made = stats("--format", "json", path)
    assert made.exit_code == 0, made.output
    return made.stdout


def test_stats_by_mark_count_only_the_marked_hands(tmp_path: Path) -> None:
    from truclog.engine.actions import Raise
    from truclog.record.annotations import annotate
    from truclog.replay import read_games

    cafe = Path(__file__).resolve().parent.parent / "sample_logs"
    cafe /= "2026-11-29-cafe-du-port-classic.truclog.jsonl"
    rows = cafe.read_text().splitlines()
    first_deal = json.loads(rows[1])
    first_deal["marks"] = ["review"]  # hand 1, marked in the log itself
    rows[1] = json.dumps(first_deal)
    log = tmp_path / "cafe.truclog.jsonl"
    log.write_text("\n".join(rows) + "\n")
    game_id = "cafe-du-port-2026-11-29-1"
    annotate(log, game_id, 4, 2, add=["review"], clock=None)  # hand 4, in its notes file
    annotate(log, game_id, 6, 1, add=["bluff?"], clock=None)
    (game,) = read_games(log)
    raises = {
        h.number: sum(isinstance(s.action, Raise) and s.applied for s in h.steps)
        for h in game.hands
    }
    for marks, hands in ((["review"], [1, 4]), (["review", "bluff?"], [1, 4, 6]), (["x"], [])):
        args = [a for m in marks for a in ("--mark", m)]
        found = report(str(tmp_path), *args)
        assert found["summary"]["hands"] == len(hands)
        assert found["summary"]["games_filtered_out"] == (0 if hands else 1)
        players = {p["player"]: p for p in found["players"]}
        if hands:
            assert players["Ana"]["hands_played"] == players["Marc"]["hands_played"] == len(hands)
            made = sum(players[name]["raises"] for name in ("Ana", "Marc"))
            assert made == sum(raises[h] for h in hands)
        else:
            assert players == {}
