"""``truclog ratings``: OpenSkill Plackett-Luce over finished games, checked against
calling ``openskill`` directly on the games read straight from the log lines."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from openskill.models import PlackettLuce
from test_answer import CLASSIC

from truclog.cli import main
from truclog.simulate.run import Simulation, simulate_to
from truclog.stats.ratings import Match, rate

SAMPLES = Path(__file__).parent.parent / "sample_logs"


def ratings(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["ratings", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _games(paths: list[Path]) -> list[tuple[str, str, int, list[list[str]]]]:
    """(date, file, line, sides with the winner first) of each game with a winner,
    from the game and game_end lines alone."""
    games = []
    for path in paths:
        head: dict[str, Any] = {}
        start = 0
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            line = json.loads(text)
            if line["type"] == "game":
                head, start = line, number
            elif line["type"] == "game_end" and line.get("winner"):
                players = head["players"]
                teams = head.get("teams") or {p: [p] for p in players}
                if len(players) == 4 and not head.get("teams"):
                    teams = {"A": players[0::2], "B": players[1::2]}
                winner = teams[line["winner"]]
                loser = next(side for side in teams.values() if side != winner)
                games.append((head["date"], str(path), start, [list(winner), list(loser)]))
    return sorted(games)


def _direct(paths: list[Path]) -> dict[str, tuple[float, float, int, int]]:
    model = PlackettLuce()
    now: dict[str, Any] = {}
    played: dict[str, list[int]] = {}
    for _, _, _, sides in _games(paths):
        teams = [[now.get(p) or model.rating(name=p) for p in side] for side in sides]
        for won, side, new in zip((1, 0), sides, model.rate(teams), strict=True):
            for player, rating in zip(side, new, strict=True):
                now[player] = rating
                games, wins = played.get(player, [0, 0])
                played[player] = [games + 1, wins + won]
    return {p: (r.mu, r.sigma, *played[p]) for p, r in now.items()}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Three players in three files; the second file's games are the oldest."""
    folder = tmp_path_factory.mktemp("rated")
    pairs = [("Ana", "Marc"), ("Marc", "Lucie"), ("Lucie", "Ana")]
    starts = ["2026-03-01", "2026-01-01", "2026-02-01"]
    paths = []
    for i, (pair, start) in enumerate(zip(pairs, starts, strict=True)):
        path = folder / f"{i}.jsonl"
        when = datetime.fromisoformat(start).replace(tzinfo=UTC)
        simulate_to(Simulation(games=4, seed=40 + i, players=pair, start=when), path)
        paths.append(path)
    return paths


def test_equal_to_openskill_called_directly(corpus: list[Path]) -> None:
    expected = _direct(corpus)
    got = ratings(*map(str, corpus))["players"]
    assert {r["player"] for r in got} == set(expected) == {"Ana", "Marc", "Lucie"}
    for row in got:
        mu, sigma, games, wins = expected[row["player"]]
        assert (row["mu"], row["sigma"]) == pytest.approx((mu, sigma), abs=1e-12)
        assert row["ordinal"] == pytest.approx(mu - 3 * sigma, abs=1e-12)
        assert (row["games"], row["wins"]) == (games, wins)
    ordinals = [r["ordinal"] for r in got]
    assert ordinals == sorted(ordinals, reverse=True)


def test_rated_by_date_not_by_file(corpus: list[Path]) -> None:
    """The same games in file order would give other ratings: the order is the date's."""
    forward = ratings(*map(str, corpus))
    assert ratings(*map(str, reversed(corpus))) == forward
    dates = [d for d, *_ in _games(corpus)]
    assert dates == sorted(dates) and dates[0] < "2026-03"


def test_history_ends_at_the_rating(corpus: list[Path]) -> None:
    for row in ratings("--history", *map(str, corpus))["players"]:
        history = row["history"]
        assert len(history) == row["games"]
        assert history[-1]["ordinal"] == row["ordinal"]
        assert [h["date"] for h in history] == sorted(h["date"] for h in history)


def test_four_players_rated_by_teams() -> None:
    """Both four-player samples: team against team, partners moving together;
    the abandoned train game (Karim, Sophie) is not rated."""
    paths = sorted(SAMPLES.glob("*.jsonl"))
    expected = _direct(paths)
    got = {r["player"]: r for r in ratings(str(SAMPLES))["players"]}
    assert set(got) == set(expected)
    assert "Karim" not in got and "Sophie" not in got
    for player, (mu, sigma, games, wins) in expected.items():
        assert (got[player]["mu"], got[player]["sigma"]) == pytest.approx((mu, sigma))
        assert (got[player]["games"], got[player]["wins"]) == (games, wins)
    bleus = [got["Camille"], got["Léa"]]
    assert bleus[0]["mu"] == bleus[1]["mu"] and bleus[0]["wins"] == 1
    assert got["Hugo"]["games"] == 2  # the four-player game and the eight-low one


def test_one_two_player_game_by_hand(tmp_path: Path) -> None:
    """One win from the defaults (mu 25, sigma 25/3): the winner's mu goes up as
    much as the loser's goes down."""
    rows = ratings(str(SAMPLES / "2026-11-29-cafe-du-port-classic.truclog.jsonl"))["players"]
    marc, ana = rows
    assert (marc["player"], marc["wins"], ana["player"], ana["wins"]) == ("Marc", 1, "Ana", 0)
    assert marc["mu"] - 25 == pytest.approx(25 - ana["mu"])
    assert marc["sigma"] == ana["sigma"] < 25 / 3


def test_filters_and_formats() -> None:
    since = ratings("--since", "2026-12-19", str(SAMPLES))["players"]
    late = _games(sorted(SAMPLES.glob("*.jsonl")))
    players = {p for day, _, _, sides in late if day >= "2026-12-19" for s in sides for p in s}
    assert {r["player"] for r in since} == players
    assert ratings("--rules", "gamerules", str(SAMPLES))["players"][0]["player"] == "Lucie"
    result = CliRunner().invoke(main, ["ratings", "--format", "csv", str(SAMPLES)])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "player,mu,sigma,ordinal,games,wins"
    missing = CliRunner().invoke(main, ["ratings", "no-such-dir"])
    assert missing.exit_code == 1
    assert "no-such-dir: no such file or directory" in missing.output


def test_unfinished_games_are_not_rated(tmp_path: Path) -> None:
    """The hand-written classic game of the answer tests, cut before its last hand
    (nobody has reached 12), is not rated; whole, Marc wins it."""
    lines = CLASSIC.splitlines(keepends=True)
    last_deal = max(i for i, line in enumerate(lines) if '"deal"' in line)
    cut, whole = tmp_path / "cut.jsonl", tmp_path / "whole.jsonl"
    cut.write_text("".join(lines[:last_deal]), encoding="utf-8")
    whole.write_text(CLASSIC, encoding="utf-8")
    assert ratings(str(cut)) == {"players": []}
    rows = ratings(str(whole))["players"]
    assert [(r["player"], r["wins"]) for r in rows] == [("Marc", 1), ("Ana", 0)]


def test_a_capped_history_keeps_evenly_spread_points() -> None:
    """1,000 games between two players, at most 50 points kept: every stride-th game,
    the stride a power of two, and the trail ends at the rating now."""
    games = [Match(f"g{i}", None, "a.jsonl", i, (("Ana",), ("Marc",))) for i in range(1000)]
    whole = rate(games, history=True).ratings["Ana"]
    capped = rate(games, history=True, cap=50).ratings["Ana"]
    assert len(whole.history) == 1000 and len(capped.history) <= 50
    stride = capped.stride
    assert stride == 32 and len(capped.history) == 1000 // 32
    assert capped.history == whole.history[stride - 1 :: stride]
    trail = capped.trail()
    assert trail[0] == (0, 0.0) and trail[-1] == (1000, whole.ordinal)
    assert [n for n, _ in trail[1:-1]] == list(range(32, 1000, 32))


def test_a_game_the_quick_core_cleared_is_the_same_match() -> None:
    """The browser rates the games statistics read: those the quick core clears come as
    tallies, and give the matches the validator's games give (four players too)."""
    from truclog.format.reader import log_files
    from truclog.stats.ratings import match_of
    from truclog.validate import CheckedGame, GameTally, check_log, quick

    if not quick.AVAILABLE:
        pytest.skip("no quick core in this build")
    matches = []
    for path in log_files([str(SAMPLES)]):
        games = {g.line: g for g in check_log(path) if isinstance(g, CheckedGame)}
        for tally in quick.check_log(path, facts=True):
            if isinstance(tally, GameTally):
                matches.append(match_of(tally))
                assert matches[-1] == match_of(games[tally.line])
    finished = [m for m in matches if m is not None]
    assert len(finished) >= 5 and any(len(m.sides[0]) == 2 for m in finished)


def test_ratings_read_the_games_as_statistics_do(
    corpus: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``truclog ratings`` reads the games the quick core clears as tallies: the same
    ratings as the validator's games give, filters and copies included."""
    from truclog.stats.ratings import each_game_once
    from truclog.validate import GameTally, quick

    if not quick.AVAILABLE:
        pytest.skip("no quick core in this build")
    paths = [*map(str, corpus), str(corpus[0]), str(SAMPLES)]
    assert any(isinstance(g, GameTally) for g in each_game_once(paths))
    asked = [[*paths], [*paths, "--since", "2026-02-01"], [*paths, "--rules", "classic"]]
    quickly = [ratings(*args) for args in asked]
    monkeypatch.setattr(quick, "AVAILABLE", False)
    assert not any(isinstance(g, GameTally) for g in each_game_once(paths))
    assert [ratings(*args) for args in asked] == quickly
    games = [sum(p["games"] for p in told["players"]) for told in quickly]
    assert games[0] > games[1] > 0 and games[0] > games[2] > 0  # the filters left some out
