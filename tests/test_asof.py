"""Statistics as of a hand: only the hands before it count, in the order of the files
given, then of the lines; never the hand itself, never a later one.

Classic rules (7 8 A K Q J T 9). Three nines can win nothing: a raise with them has
strength 0, a bluff; three sevens cannot lose.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from lines import accept, fold, play, raise_

from truclog.stats.asof import order_key, read_as_of, running_counts
from truclog.stats.tables import tables


def game(id_: str, dealer: str) -> dict[str, Any]:
    return {"type": "game", "format": "truclog/1", "id": id_, "date": "2026-11-29",
            "rules": "classic", "players": ["Ana", "Marc"], "dealer": dealer}  # fmt: skip


def deal(hand: int, dealer: str, ana: list[str], marc: list[str]) -> dict[str, Any]:
    return {"type": "deal", "hand": hand, "dealer": dealer, "cards": {"Ana": ana, "Marc": marc}}


SEVENS, NINES = ["7h", "7s", "7d"], ["9s", "9h", "9d"]
FIRST = [
    game("first", "Marc"),
    # hand 1: Ana raises (strength 1), Marc accepts: Marc faced 1, folded 0
    deal(1, "Marc", SEVENS, NINES),
    raise_("Ana", 2), accept("Marc"), play("Ana", "7h"), play("Marc", "9s"),
    play("Ana", "7s"), play("Marc", "9h"),
    # hand 2: Marc bluffs with three nines, Ana folds: Marc 1 bluff of 1; Ana 1 fold of 1
    deal(2, "Ana", ["7c", "8h", "Ad"], ["9c", "9s", "9d"]),
    raise_("Marc", 2), fold("Ana"),
    # hand 3: Ana raises (strength 1), Marc folds: Marc faced 2, folded 1
    deal(3, "Marc", SEVENS, NINES),
    raise_("Ana", 2), fold("Marc"),
]  # fmt: skip
SECOND = [
    game("second", "Marc"),
    # Marc bluffs again and Ana folds again
    deal(1, "Marc", ["7c", "8h", "Ad"], ["9c", "9s", "9d"]),
    play("Ana", "7c"), raise_("Marc", 2), fold("Ana"),
]  # fmt: skip


def write(path: Path, events: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(e) + "\n" for e in events), "utf-8")
    return str(path)


@pytest.fixture
def logs(tmp_path: Path) -> tuple[str, str]:
    return write(tmp_path / "a.truclog.jsonl", FIRST), write(tmp_path / "b.truclog.jsonl", SECOND)


def counts(as_of: Any, player: str, path: str, hand: int) -> tuple[int, int, int, int]:
    b = as_of.before(player, path, 1, hand)
    return b.faced, b.folds, b.known, b.bluffs


def test_each_hand_sees_only_the_hands_before_it(logs: tuple[str, str]) -> None:
    a, b = logs
    as_of = read_as_of([a, b])
    # (faced, folds, known raises, bluffs) before each hand, worked out above
    assert [counts(as_of, "Marc", a, hand) for hand in (1, 2, 3)] == [
        (0, 0, 0, 0),
        (1, 0, 0, 0),
        (1, 0, 1, 1),
    ]
    assert [counts(as_of, "Ana", a, hand) for hand in (1, 2, 3)] == [
        (0, 0, 0, 0),
        (0, 0, 1, 0),
        (1, 1, 1, 0),
    ]
    # the second file comes after the whole first one
    assert counts(as_of, "Marc", b, 1) == (2, 1, 1, 1)
    assert counts(as_of, "Ana", b, 1) == (1, 1, 2, 0)
    rates = as_of.before("Marc", b, 1, 1)
    assert (rates.fold_rate, rates.bluff_rate) == (0.5, 1.0)


def test_the_order_is_the_order_of_the_files_given(logs: tuple[str, str]) -> None:
    a, b = logs
    as_of = read_as_of([b, a])
    assert counts(as_of, "Marc", b, 1) == (0, 0, 0, 0)
    assert counts(as_of, "Marc", a, 1) == (0, 0, 1, 1)
    assert counts(as_of, "Ana", a, 1) == (1, 1, 0, 0)


def test_never_the_current_or_a_later_hand(logs: tuple[str, str]) -> None:
    """Against a count made here from the actions table: for every hand of every game,
    the hands strictly before it, and nothing else."""
    a, b = logs
    as_of = read_as_of([a, b])
    both = tables([a, b])
    actions = both.actions.join(both.games.select("fingerprint", "file"), on="fingerprint")
    order = {a: 0, b: 1}
    place = actions.select(
        pl.col("file").replace_strict(order, return_dtype=pl.Int64).alias("f"), "hand", "player",
        "type", "pending", "known", "strength",
    )  # fmt: skip
    for path, hand in [(a, 1), (a, 2), (a, 3), (b, 1), (b, 2)]:
        earlier = place.filter(
            (pl.col("f") < order[path]) | ((pl.col("f") == order[path]) & (pl.col("hand") < hand))
        )
        for player in ("Ana", "Marc"):
            mine = earlier.filter(pl.col("player") == player)
            answers = mine.filter(
                pl.col("type").is_in(["accept", "fold"]) & pl.col("pending").is_not_null()
            )
            known = mine.filter(
                (pl.col("type") == "raise") & pl.col("known") & pl.col("strength").is_not_null()
            )
            expected = (
                answers.height,
                answers.filter(pl.col("type") == "fold").height,
                known.height,
                known.filter(pl.col("strength") < 0.5).height,
            )
            assert counts(as_of, player, path, hand) == expected, (path, hand, player)


def test_unknown_files_and_players_count_nothing(logs: tuple[str, str]) -> None:
    as_of = read_as_of([logs[0]])
    assert counts(as_of, "Marc", logs[1], 1) == (0, 0, 0, 0)
    assert counts(as_of, "Zoé", logs[0], 3) == (0, 0, 0, 0)


def test_order_keys_follow_file_then_line_then_hand() -> None:
    keys = [order_key(0, 5, 9), order_key(0, 6, 1), order_key(1, 1, 1), order_key(1, 1, 2)]
    assert keys == sorted(keys) and len(set(keys)) == 4


def test_stopped_counting_gives_nothing(logs: tuple[str, str]) -> None:
    assert read_as_of(list(logs), stop=lambda: True) is None


QUIET = [play("Ana", "7h"), play("Marc", "9s"), play("Ana", "7s"), play("Marc", "9h")]
THIRD = [
    game("third", "Marc"),
    deal(1, "Marc", SEVENS, NINES), *QUIET,  # nothing to count
    # hand 2: Marc bluffs with three nines, Ana folds
    deal(2, "Ana", ["7c", "8h", "Ad"], ["9c", "9s", "9d"]), raise_("Marc", 2), fold("Ana"),
    deal(3, "Marc", SEVENS, NINES), *QUIET,  # nothing to count
]  # fmt: skip
FOURTH = [
    game("fourth", "Marc"),
    # Ana raises with three sevens (no bluff), Marc folds
    deal(1, "Marc", SEVENS, NINES), raise_("Ana", 2), fold("Marc"),
]  # fmt: skip
DENSE = {
    # (faced, folds, known raises, bluffs) after each hand, in the order of the log:
    # every hand, whether or not it counted anything for the player
    "Marc": [(0, 0, 0, 0), (0, 0, 1, 1), (0, 0, 1, 1), (1, 1, 1, 1)],
    "Ana": [(0, 0, 0, 0), (1, 1, 0, 0), (1, 1, 0, 0), (1, 1, 1, 0)],
}


def test_only_the_hands_that_change_counts_are_kept_and_answer_as_every_hand_would(
    tmp_path: Path,
) -> None:
    """The running counts are kept only where they change (2 of 4 hands for each player),
    yet every hand's counts before it, and the totals, are those of the dense counts
    above: the counts after the hand before it; also once written and read back the way
    the browser's counting process hands them over."""
    from truclog.stats.asof import AsOf
    from truclog.tui.browse.asof import read_running, write_running

    log = write(tmp_path / "c.truclog.jsonl", THIRD + FOURTH)
    found = running_counts([log])
    assert found is not None
    running, hands = found
    assert hands == 4 and running.steps.height == 4  # two rows a player, not four
    folder = tmp_path / "handed"
    folder.mkdir()
    write_running(running, str(folder))
    fourth = len(THIRD) + 1
    order = [(1, 1), (1, 2), (1, 3), (fourth, 1)]
    for as_of in (AsOf(running, [log], hands), AsOf(read_running(str(folder)), [log], hands)):
        for player, dense in DENSE.items():
            before = [(0, 0, 0, 0), *dense[:-1]]
            assert [counts_at(as_of, player, log, *at) for at in order] == before, player
            # a hand the log does not have counts what came before its place
            assert counts_at(as_of, player, log, 1, 4) == dense[2]
            total = as_of.total(player)
            assert (total.faced, total.folds, total.known, total.bluffs) == dense[-1]


def counts_at(as_of: Any, player: str, path: str, line: int, hand: int) -> tuple[int, ...]:
    b = as_of.before(player, path, line, hand)
    return b.faced, b.folds, b.known, b.bluffs
