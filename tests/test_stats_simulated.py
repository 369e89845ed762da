"""Statistics against ground truth: simulated games whose bots wrote down each raise's
strength (``--annotate`` puts ``_strength`` on every raise line), and corpus invariances."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from truclog.cli import main
from truclog.simulate.bots import STYLES
from truclog.simulate.run import Simulation, simulate_to
from truclog.stats.tables import read_tables
from truclog.validate import CheckedGame, check_log


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sim")
    styles = {"Ana": STYLES["bluffer"], "Marc": STYLES["cautious"]}
    simulate_to(Simulation(games=12, seed=11, annotate=True, styles=styles), folder / "open.jsonl")
    simulate_to(
        Simulation(games=8, seed=12, annotate=True, hidden=0.6, rules="gamerules"),
        folder / "hidden.jsonl",
    )
    return folder


def stats(*args: str) -> dict:
    result = CliRunner().invoke(main, ["stats", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def annotated_raises(path: Path) -> list[dict]:
    lines = [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
    return [line for line in lines if line["type"] == "raise"]


@pytest.mark.parametrize("threshold", [0.5, 0.3, 0.8])
def test_bluffs_are_the_raises_the_bots_knew_were_weak(corpus: Path, threshold: float) -> None:
    raises = annotated_raises(corpus / "open.jsonl")
    truth = Counter(r["player"] for r in raises if r["_strength"] < threshold)
    report = stats("--bluff-threshold", str(threshold), str(corpus / "open.jsonl"))
    for row in report["players"]:
        assert row["raises"] == sum(r["player"] == row["player"] for r in raises)
        assert row["raises_known"] == row["raises"]  # every deal is written face up
        # _strength is rounded to 4 places: leave out raises right at the threshold
        near = sum(
            r["player"] == row["player"] and abs(r["_strength"] - threshold) < 1e-4 for r in raises
        )
        assert abs(row["bluffs"] - truth[row["player"]]) <= near


def test_the_bluffer_bluffs_more(corpus: Path) -> None:
    players = {r["player"]: r for r in stats(str(corpus / "open.jsonl"))["players"]}
    assert players["Ana"]["bluff_rate"] > players["Marc"]["bluff_rate"]


def test_every_known_raise_has_the_bots_strength(corpus: Path) -> None:
    for name in ("open.jsonl", "hidden.jsonl"):
        path = corpus / name
        truth = [r["_strength"] for r in annotated_raises(path)]
        games = [g for g in check_log(str(path)) if isinstance(g, CheckedGame)]
        raises = read_tables(games).actions.filter(type="raise")
        assert raises.height == len(truth)
        known = 0
        for row, expected in zip(raises.iter_rows(named=True), truth, strict=True):
            if row["known"]:
                known += 1
                assert row["strength"] == pytest.approx(expected, abs=5e-5)
            else:
                assert row["strength"] is None
        assert known > 0


def test_hidden_hands_make_fewer_known_raises(corpus: Path) -> None:
    report = stats(str(corpus / "hidden.jsonl"))
    assert any(r["raises_known"] < r["raises"] for r in report["players"])


def split_games(path: Path, folder: Path, parts: int) -> list[Path]:
    """Cut a log into ``parts`` files at game lines."""
    games: list[list[bytes]] = []
    for line in path.read_bytes().splitlines(keepends=True):
        if line.startswith(b'{"type":"game"'):
            games.append([])
        games[-1].append(line)
    folder.mkdir()
    out = []
    for i in range(parts):
        part = folder / f"part{i}.jsonl"
        part.write_bytes(b"".join(b"".join(g) for g in games[i::parts]))
        out.append(part)
    return out


def test_invariant_to_splitting_ordering_and_copies(corpus: Path, tmp_path: Path) -> None:
    whole = stats(str(corpus / "open.jsonl"), str(corpus / "hidden.jsonl"))
    parts = split_games(corpus / "open.jsonl", tmp_path / "split", 3)
    split = stats(*map(str, reversed(parts)), str(corpus / "hidden.jsonl"))
    assert split["players"] == whole["players"]
    shutil.copy(corpus / "open.jsonl", tmp_path / "copy.jsonl")
    copied = stats(
        str(corpus / "hidden.jsonl"), str(tmp_path / "copy.jsonl"), str(tmp_path / "split")
    )
    assert copied["players"] == whole["players"]
    assert copied["summary"]["duplicate_games"] == 12
    assert copied["summary"]["games"] == whole["summary"]["games"]


def test_several_processes_give_the_same_numbers(corpus: Path, tmp_path: Path) -> None:
    parts = split_games(corpus / "open.jsonl", tmp_path / "split", 2)
    one = stats(*map(str, parts))
    two = stats("--jobs", "2", *map(str, parts))
    assert one == two
