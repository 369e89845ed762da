"""Statistics do not depend on how a run cuts the corpus: batches of any size, and
the narrow tables ``truclog stats`` counts from, give the counts of the full tables."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from truclog.simulate.bots import STYLES
from truclog.simulate.run import Simulation, simulate_to
from truclog.stats.counts import KEYS, Grouping, combine
from truclog.stats.kept import Tally
from truclog.stats.players import count
from truclog.stats.tables import read_tables, table_batches
from truclog.validate import CheckedGame, check_log

GROUPINGS = [
    Grouping(),
    Grouping(splits=("opponent",)),
    Grouping(threshold=0.3),
    Grouping(opponents=("Marc", "B+D")),
]

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[CheckedGame]:
    """Two-player games with hidden deals, four-player games, another preset, and a
    log with a line missing (its hand is left out)."""
    folder = tmp_path_factory.mktemp("batches")
    styles = {"Ana": STYLES["bluffer"], "Marc": STYLES["calling-station"]}
    runs = {
        "two.jsonl": Simulation(games=6, seed=21, styles=styles, hidden=0.4),
        "four.jsonl": Simulation(games=3, seed=22, players=("A", "B", "C", "D"), hidden=0.3),
        "sackson.jsonl": Simulation(games=4, seed=23, rules="sackson"),
        "whole.jsonl": Simulation(games=2, seed=24),
    }
    for name, simulation in runs.items():
        simulate_to(simulation, folder / name)
    lines = (folder / "whole.jsonl").read_text().splitlines(keepends=True)
    play = next(i for i, line in enumerate(lines) if i > 40 and '"type":"play"' in line)
    (folder / "broken.jsonl").write_text("".join(lines[:play] + lines[play + 1 :]))
    found = [
        item
        for name in [*runs, "broken.jsonl"]
        if name != "whole.jsonl"
        for item in check_log(str(folder / name))
        if isinstance(item, CheckedGame)
    ]
    assert any(not hand.ok for game in found for hand in game.hands)
    assert {len(game.players) for game in found} == {2, 4}
    assert len({game.fingerprint for game in found}) == len(found)  # statistics count each once
    return found


def counted(parts: list[pl.DataFrame]) -> pl.DataFrame:
    return combine(parts).frame().sort(list(KEYS), nulls_last=True)


@pytest.mark.parametrize("grouping", GROUPINGS, ids=str)
def test_narrow_tables_count_as_the_full_tables(
    games: list[CheckedGame], grouping: Grouping
) -> None:
    full = counted([count(read_tables(games), grouping)])
    narrow = counted([count(t, grouping) for t in table_batches(games, Tally(), narrow=True)])
    assert full.height > 0
    assert_frame_equal(narrow, full)


@settings(max_examples=20, deadline=None)
@given(batch_rows=st.integers(min_value=1, max_value=600), narrow=st.booleans())
def test_counts_do_not_depend_on_the_batch_size(
    games: list[CheckedGame], batch_rows: int, narrow: bool
) -> None:
    whole, cut = Tally(), Tally()
    one = [count(t, Grouping()) for t in table_batches(games, whole, narrow=narrow)]
    batches = list(table_batches(games, cut, batch_rows=batch_rows, narrow=narrow))
    many = [count(t, Grouping()) for t in batches]
    assert_frame_equal(counted(many), counted(one))
    assert cut == whole
    assert sum(t.games.height for t in batches) == len(games)


def test_counting_a_file_keeps_the_live_objects_out_of_collections(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While a file is counted, what was alive before is frozen out of the garbage
    collector's walks; afterwards nothing stays frozen and the counts are the same.
    Objects someone else froze stay theirs to unfreeze."""
    import gc

    from truclog.stats import run
    from truclog.stats.kept import GameFilter

    gc.unfreeze()  # what an earlier test may have left frozen
    log = str(SAMPLES / "2026-11-29-cafe-du-port-classic.truclog.jsonl")
    frozen_while_counting: list[int] = []
    kept_games = run.kept_games

    def counting(*args: Any) -> Iterator[Any]:  # each game read as it is counted
        for game in kept_games(*args):
            frozen_while_counting.append(gc.get_freeze_count())
            yield game

    plain = run.count_file(log, Grouping(), GameFilter()).counts
    monkeypatch.setattr(run, "kept_games", counting)
    counted = run.count_file(log, Grouping(), GameFilter()).counts
    assert frozen_while_counting and all(n > 0 for n in frozen_while_counting)
    assert gc.get_freeze_count() == 0
    assert counted.counts == plain.counts
    gc.freeze()
    try:
        theirs = gc.get_freeze_count()
        run.count_file(log, Grouping(), GameFilter())
        assert gc.get_freeze_count() >= theirs
    finally:
        gc.unfreeze()
