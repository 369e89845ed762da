"""The counts of cleared games made in C are the counts of their tables.

``truclog stats`` counts a game the quick core cleared in C, as it is read
(``truclog.validate._quick.Counts``, see :mod:`truclog.stats.cleared`), and every other
game from its rows in the tables (:func:`truclog.stats.players.count`), the reference.
Each test here counts the same games both ways and wants the same rows: simulated logs of
every preset, two and four players, the samples, and games written by hand whose counts
are worked out from the definitions of docs/stats.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest
from polars.testing import assert_frame_equal
from simulated import mixed_log

from truclog.engine.rules import PRESETS
from truclog.stats import cleared as cleared_module
from truclog.stats.cleared import ClearedCounts
from truclog.stats.counts import COUNTS, KEYS, CountRows, Grouping, combine, finish
from truclog.stats.kept import Tally
from truclog.stats.players import count
from truclog.stats.run import collect
from truclog.stats.tables import table_batches
from truclog.validate import GameTally, quick
from truclog.validate.checker import CheckedGame

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
FOUR = ("Ana", "Marc", "Lu", "Zoé")

needs_facts = pytest.mark.skipif(not quick.facts_available(), reason="the C core is not built")


def simulated_log(tmp_path: Path, preset: str, players: tuple[str, ...]) -> Path:
    """Games of ``preset`` as the simulator writes them: plain, hidden deals, redeals,
    reste, folds (every style), teams, notes."""
    return mixed_log(tmp_path, preset, players)


def cleared_games(path: Path) -> list[GameTally]:
    """The games of a log the quick core clears, with their facts as rows of C values."""
    games = [g for g in quick.check_log(str(path), facts=quick.ROWS_FACTS)]
    assert all(isinstance(g, GameTally) for g in games)
    return games  # type: ignore[return-value]


def in_core(games: list[GameTally], grouping: Grouping) -> tuple[CountRows, Tally]:
    """The counts of ``games`` made in C, and its tally."""
    counts, tally = ClearedCounts(grouping), Tally()
    assert list(counts.others(games, tally)) == []  # every game counted in C
    return combine([counts.counts()]), tally


def from_tables(
    games: list[GameTally] | list[CheckedGame], grouping: Grouping
) -> tuple[CountRows, Tally]:
    """The counts of ``games`` made from their tables, and its tally."""
    tally = Tally()
    batches = table_batches(games, tally, 2_000, narrow=True)
    return combine(count(tables, grouping) for tables in batches), tally


def assert_same_counts(made: CountRows, reference: CountRows) -> None:
    assert_frame_equal(
        made.frame().sort(list(KEYS)), reference.frame().sort(list(KEYS)), check_row_order=True
    )


def test_the_core_counts_what_statistics_count() -> None:
    if quick.AVAILABLE:
        assert tuple(COUNTS) == quick._quick.COUNT_NAMES  # type: ignore[union-attr]


@needs_facts
@pytest.mark.parametrize("players", [("Ana", "Marc"), FOUR], ids=["two", "four"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_simulated_games_count_the_same_in_c(
    preset: str, players: tuple[str, ...], tmp_path: Path
) -> None:
    games = cleared_games(simulated_log(tmp_path, preset, players))
    for grouping in (Grouping(), Grouping(threshold=0.3)):
        made, tally = in_core(games, grouping)
        reference, reference_tally = from_tables(games, grouping)
        assert_same_counts(made, reference)
        assert tally == reference_tally and tally.games == len(games) == 14
    whole = made.frame().filter(pl.col("kind") == "player")
    assert set(whole.get_column("name")) == set(players)
    assert (
        whole.select(pl.col("hands_played", "raises", "raises_faced").sum() > 0).row(0)
        == (True,) * 3
    )
    if len(players) == 2:  # the reviews and strengths come counted
        assert whole.select(pl.col("raises_known", "plays_judged", "band_hands_0").sum()).row(0)
    else:
        assert made.frame().filter(pl.col("kind") == "team").height >= 2


@needs_facts
def test_teams_chosen_by_a_player_or_their_name_count_the_same_in_c(tmp_path: Path) -> None:
    games = cleared_games(simulated_log(tmp_path, "classic", FOUR))
    for chosen, case in [(("Ana",), False), (("EUX",), True), (("eux", "Zoé"), False)]:
        grouping = Grouping(players=chosen, ignore_case=case)
        made, _ = in_core(games, grouping)
        assert_same_counts(made, from_tables(games, grouping)[0])


@needs_facts
@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.jsonl")), ids=lambda p: p.name[11:30])
def test_a_sample_counts_the_same_in_c(path: Path) -> None:
    games = cleared_games(path)
    assert_same_counts(in_core(games, Grouping())[0], from_tables(games, Grouping())[0])


def statistics_both_ways(
    paths: list[str], grouping: Grouping, monkeypatch: pytest.MonkeyPatch
) -> tuple[CountRows, Tally]:
    """``truclog stats``' counts of ``paths`` with the cleared games counted in C, which
    are those counted from the tables alone."""
    made, tally = collect(paths, grouping)
    with monkeypatch.context() as patched:
        patched.setattr(cleared_module, "counts_in_core", lambda grouping: False)
        import truclog.stats.run as run

        patched.setattr(run, "counts_in_core", lambda grouping: False)
        reference, reference_tally = collect(paths, grouping)
    assert_same_counts(made, reference)
    assert tally == reference_tally
    return made, tally


@needs_facts
def test_a_run_counts_the_same_with_games_of_every_kind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # legal games (cleared), broken ones (checked line by line: their good hands
    # count), a copy of a game, and the samples of two and four players
    paths = [
        str(simulated_log(tmp_path, "sackson", ("Ana", "Marc"))),
        *map(str, sorted(SAMPLES.glob("*.jsonl"))),
        *map(str, sorted((SAMPLES / "invalid").glob("*.jsonl"))),
    ]
    copy = tmp_path / "copy.truclog.jsonl"
    copy.write_bytes(Path(paths[1]).read_bytes())
    _, tally = statistics_both_ways([*paths, str(copy)], Grouping(), monkeypatch)
    assert tally.duplicates >= 1 and tally.hands_left_out > 0


TWO = b"""\
{"type":"game","format":"truclog/1","id":"two","rules":"gamerules","players":["Ana","Marc"],"dealer":"Marc","date":"2026-12-01"}
{"type":"deal","hand":1,"dealer":"Marc","cards":{"Ana":["9s","9h","Td"],"Marc":["??","??","??"]}}
{"type":"raise","player":"Ana","to":2}
{"type":"fold","player":"Marc"}
{"type":"result","winner":"Ana","points":1,"score":{"Ana":1,"Marc":0}}
{"type":"deal","hand":2,"dealer":"Ana","cards":{"Ana":["7h","7d","Ac"],"Marc":["9c","Tc","Jc"]}}
{"type":"play","player":"Marc","card":"9c"}
{"type":"play","player":"Ana","card":"7h"}
{"type":"play","player":"Ana","card":"7d"}
{"type":"play","player":"Marc","card":"Tc"}
{"type":"result","winner":"Ana","points":1,"score":{"Ana":2,"Marc":0}}
"""

FOUR_PLAYERS = """\
{"type":"game","format":"truclog/1","id":"four","rules":"gamerules","players":["Ana","Marc","Lu","Zoé"],"dealer":"Zoé","date":"2026-12-02","teams":{"nous":["Ana","Lu"],"eux":["Marc","Zoé"]}}
{"type":"deal","hand":1,"dealer":"Zoé","cards":{"Ana":["9s","9h","Td"],"Marc":["??","??","??"],"Lu":["7c","8c","Ac"],"Zoé":["??","??","??"]}}
{"type":"raise","player":"Ana","to":2}
{"type":"fold","player":"Marc"}
{"type":"result","winner":"nous","points":1,"score":{"nous":1,"eux":0}}
""".encode()


def counted(rows: list[dict[str, Any]], name: str, kind: str = "player") -> dict[str, Any]:
    """The non-zero counts of one row of statistics, with its hands by strength band."""
    row = next(r for r in rows if r[kind] == name)
    found = {k: v for k, v in row.items() if type(v) is int and v and k != "hands_lost"}
    banded = sum(band["hands"] for band in row.get("win_rate_by_strength", []))
    if banded:
        found["band_hands"] = banded
    return found


@needs_facts
@pytest.mark.parametrize("threshold", [1.0, 0.0])
def test_games_written_by_hand_count_as_the_definitions_say(
    threshold: float, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ana raises her weak dealt hand (a strength below 1: a bluff under a threshold of
    # 1, a value raise under 0) and Marc, hand unseen, folds; then both hands dealt face
    # up, Ana takes the first two tricks. Then a four-player hand: Ana raises for
    # "nous", Marc folds for "eux" (no strength with partners).
    (tmp_path / "two.truclog.jsonl").write_bytes(TWO)
    (tmp_path / "four.truclog.jsonl").write_bytes(FOUR_PLAYERS)
    made, tally = statistics_both_ways([str(tmp_path)], Grouping(threshold=threshold), monkeypatch)
    assert (tally.games, tally.hands) == (2, 3)
    players = finish(made)
    bluff = {"bluffs": 1, "bluffs_folded": 1} if threshold else {"value_raises": 1}
    assert counted(players, "Ana") == {
        "games": 2,
        "hands_played": 3,
        "hands_won": 3,
        "points_won": 3,
        "raises": 2,
        "raises_known": 1,
        **bluff,
        "first_tricks_played": 1,
        "first_tricks_won": 1,
        "hands_known": 3,
        "plays_known": 2,
        "plays_sound": 2,
        "plays_judged": 2,
        "plays_right": 2,
        "band_hands": 2,
    }
    marc = counted(players, "Marc")
    assert {k: v for k, v in marc.items() if not k.startswith("plays_")} == {
        "games": 2,
        "hands_played": 3,
        "points_lost": 3,
        "raises_faced": 2,
        "folds_to_raise": 2,
        "first_tricks_played": 1,
        "hands_known": 1,
        "band_hands": 1,
    }
    assert (marc["plays_known"], marc["plays_judged"]) == (2, 2)
    assert counted(players, "Lu") == {
        "games": 1,
        "hands_played": 1,
        "hands_won": 1,
        "points_won": 1,
        "hands_known": 1,
    }
    teams = finish(made, "team")
    assert [(t["team"], t["members"]) for t in teams] == [
        ("eux", ["Marc", "Zoé"]),
        ("nous", ["Ana", "Lu"]),
    ]
    assert counted(teams, "nous", "team") == {
        "games": 1,
        "hands_played": 1,
        "hands_won": 1,
        "points_won": 1,
        "raises": 1,
        "hands_known": 1,
    }
    assert counted(teams, "eux", "team") == {
        "games": 1,
        "hands_played": 1,
        "points_lost": 1,
        "raises_faced": 1,
        "folds_to_raise": 1,
    }


@needs_facts
def test_names_the_tables_tell_apart_otherwise_are_counted_from_the_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a player named "tie" (as a tied first trick is told): the core leaves the game
    # to the tables, which count it
    path = tmp_path / "tie.truclog.jsonl"
    path.write_bytes(TWO.replace(b'"Marc"', b'"tie"'))
    games = cleared_games(path)
    counts, tally = ClearedCounts(Grouping()), Tally()
    assert list(counts.others(games, tally)) == games and tally.games == 0
    made, _ = statistics_both_ways([str(path)], Grouping(), monkeypatch)
    assert counted(finish(made), "tie")["raises_faced"] == 1


POLARS_AT_EXIT = """
import atexit, sys
atexit.register(lambda: print("polars imported:", "polars" in sys.modules, file=sys.stderr))
from truclog.cli import run
run(sys.argv[1:])
"""


@needs_facts
@pytest.mark.parametrize(
    ("options", "imported"),
    [((), False), (("--format", "csv"), False), (("--by", "opponent"), True)],
    ids=["json", "csv", "split"],
)
def test_a_log_the_core_clears_is_counted_without_polars(
    options: tuple[str, ...], imported: bool
) -> None:
    # every game cleared and counted in C: the report is made from the counts alone;
    # rows split by opponent are counted from the tables, in polars
    import subprocess
    import sys

    log = str(SAMPLES / "2026-11-29-cafe-du-port-classic.truclog.jsonl")
    args = ["stats", "--format", "json", *options, log]
    done = subprocess.run(
        [sys.executable, "-P", "-c", POLARS_AT_EXIT, *args], capture_output=True, check=True
    )
    assert f"polars imported: {imported}" in done.stderr.decode()
    assert b'"hands_played": 15' in done.stdout or b",15," in done.stdout
