"""``truclog leaks``: rows checked against counts worked out by hand on games written here.

Classic rules (order 7 8 A K Q J T 9; a hand starts worth 1; the non-dealer leads
and may ask for a redeal; ``alternate_raises``). Situations are those of
docs/stats.md: an answer to a raise (the rate counts folds), a turn to play in which
the player could raise first (nobody raised yet) or second (the other side raised
last), and the non-dealer's chance to ask for a redeal.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from lines import accept, dated_game, deal, fold, play, raise_, write_events
from polars.testing import assert_frame_equal
from test_export_quick import FOUR, SAMPLES, cleared, simulated, without_notes

from truclog.cli import main
from truclog.engine.rules import PRESETS
from truclog.stats.leaks import LeakCounts, leaks, read_leaks, winning_players
from truclog.validate import quick

LOG = [
    dated_game("g1", ["Ana", "Marc"], "Marc"),
    # hand 1, Marc deals, Ana leads. Ana: a redeal she does not ask for; her turn in
    # trick 1 (leader, nobody raised): raises. Marc answers a raise to 2 at 0-0
    # (level): accepts. Marc's turn in trick 1 (follower, Ana raised last): a raise
    # second he does not make. Trick 2: Ana raised last, so her turn is no
    # opportunity; Marc's (follower) is one more raise second not made. Ana +2.
    deal(1, "Marc", {"Ana": ["7h", "7s", "7d"], "Marc": ["9s", "9h", "9d"]}),
    raise_("Ana", 2), accept("Marc"), play("Ana", "7h"), play("Marc", "9s"),
    play("Ana", "7s"), play("Marc", "9h"),
    # hand 2, Ana deals: Marc asks for a redeal (refused), raises first as leader;
    # Ana answers a raise to 2 ahead (2-0) with a fold. Marc +1.
    deal(2, "Ana", {"Ana": ["7c", "8h", "Ad"], "Marc": ["9c", "9s", "9d"]}),
    {"type": "redeal", "player": "Marc", "accepted": False},
    raise_("Marc", 2), fold("Ana"),
    dated_game("g2", ["Marc", "Zoé"], "Zoé"),
    # Zoé deals: Marc does not ask for a redeal, plays first in trick 1 without a
    # raise (raise first as leader, not made); Zoé raises first as follower; Marc
    # answers a raise to 2 at 0-0 with a fold. Zoé +1.
    deal(1, "Zoé", {"Marc": ["7h", "7s", "7d"], "Zoé": ["9s", "9h", "9d"]}),
    play("Marc", "7h"), raise_("Zoé", 2), fold("Marc"),
]  # fmt: skip


@pytest.fixture
def log(tmp_path: Path) -> str:
    return write_events(tmp_path / "leaks.truclog.jsonl", LOG)


def test_winning_players_are_above_the_median_points_per_hand(log: str) -> None:
    counts = read_leaks([log])
    hands = {p: (n, points) for p, n, points in counts.hands.iter_rows()}
    assert hands == {"Ana": (2, 2), "Marc": (3, 1), "Zoé": (1, 1)}
    # with 2+ hands: Ana 1.0 and Marc 0.33 a hand; the median 0.67; Ana above it
    assert winning_players(counts.hands, 2) == ["Ana"]
    # with 1+ hand: 1.0, 0.33, 1.0; the median is 1.0 and nobody is above it
    assert winning_players(counts.hands, 1) == []


def test_every_situation_counted_by_hand(log: str) -> None:
    counts = read_leaks([log])
    rows = {(p, s): (n, c, stakes) for p, s, n, c, stakes in counts.situations.iter_rows()}
    assert rows == {
        ("Ana", "ask for a redeal"): (1, 0, 1),
        ("Ana", "raise first as leader"): (1, 1, 1),
        ("Ana", "answer a raise to 2, ahead"): (1, 1, 2),
        ("Marc", "answer a raise to 2, level"): (2, 1, 4),
        ("Marc", "raise second as follower"): (2, 0, 4),
        ("Marc", "raise first as leader"): (2, 1, 2),
        ("Marc", "ask for a redeal"): (2, 1, 2),
        ("Zoé", "raise first as follower"): (1, 1, 1),
    }


def test_leaks_ranked_by_points_at_stake(log: str) -> None:
    rows, winners = leaks(read_leaks([log]), "Marc", min_hands=2)
    assert winners == ["Ana"]
    got = [(r["situation"], r["rate"], r["winners_rate"], r["points"]) for r in rows]
    # raise first as leader: Marc 1/2, Ana 1/1: 2 x |0.5 - 1| x stake 1 = 1 point;
    # a redeal: Marc 1/2, Ana 0/1: 2 x 0.5 x 1 = 1 point (ties by name); the others
    # Ana never met: no comparison, last
    assert got == [
        ("ask for a redeal", 0.5, 0.0, 1.0),
        ("raise first as leader", 0.5, 1.0, 1.0),
        ("answer a raise to 2, level", 0.5, None, None),
        ("raise second as follower", 0.0, None, None),
    ]
    first = rows[0]
    assert (first["count"], first["opportunities"], first["stake"]) == (1, 2, 1.0)
    # Wilson 95% of 1 in 2
    assert (round(first["low"], 4), round(first["high"], 4)) == (0.0945, 0.9055)


def test_the_player_is_left_out_of_the_winners(log: str) -> None:
    rows, winners = leaks(read_leaks([log]), "Ana", min_hands=2)
    assert winners == [] and all(r["winners_rate"] is None for r in rows)


def test_cli_json_and_table(log: str) -> None:
    runner = CliRunner()
    result = runner.invoke(
        main, ["leaks", log, "--player", "Marc", "--min-hands", "2", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["winners"] == ["Ana"]
    first = report["leaks"][0]
    for key in ("situation", "rate", "low", "high", "opportunities", "winners_rate", "points"):
        assert key in first
    assert first["situation"] == "ask for a redeal" and first["points"] == 1.0
    table = runner.invoke(main, ["leaks", log, "--player", "Marc", "--min-hands", "2"])
    assert table.exit_code == 0 and "ask for a redeal" in table.output
    assert "50% (1/2)" in table.output


def test_cli_unknown_player_names_the_closest(log: str) -> None:
    result = CliRunner().invoke(main, ["leaks", log, "--player", "Mark"])
    assert result.exit_code == 2
    assert "Marc" in result.output and "Traceback" not in result.output


def test_cli_missing_path_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["leaks", str(tmp_path / "nope.jsonl"), "--player", "Ana"])
    assert result.exit_code != 0 and "Traceback" not in result.output


# --- from the quick core's facts, as from the engine's replay ------------------------


def both_ways(paths: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[LeakCounts, LeakCounts]:
    """The leak counts of ``paths`` from the quick core's facts, and from the replay."""
    fast = read_leaks(paths)
    with monkeypatch.context() as patched:
        patched.setattr(quick, "facts_available", lambda: False)
        slow = read_leaks(paths)
    return fast, slow


def assert_same_leaks(fast: LeakCounts, slow: LeakCounts) -> None:
    assert_frame_equal(fast.situations, slow.situations)
    assert_frame_equal(fast.hands, slow.hands)
    for player in slow.hands.get_column("player"):
        assert leaks(fast, player, min_hands=1) == leaks(slow, player, min_hands=1)


needs_core = pytest.mark.skipif(not quick.facts_available(), reason="the C core is not built")


@needs_core
def test_the_hand_written_games_come_from_the_quick_core(
    log: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cleared(Path(log)) == 2
    assert_same_leaks(*both_ways([log], monkeypatch))


@needs_core
def test_the_samples_count_the_same_from_facts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    samples = sorted(SAMPLES.glob("*.jsonl"))
    plain = [without_notes(p, tmp_path / p.name) for p in samples]  # noted lines: replayed
    assert all(cleared(p) > 0 for p in plain)
    fast, slow = both_ways([str(p) for p in plain], monkeypatch)
    assert_same_leaks(fast, slow)
    assert fast.situations.height > 10
    assert_same_leaks(*both_ways([str(p) for p in samples], monkeypatch))


@needs_core
@pytest.mark.parametrize("players", [("Ana", "Marc"), FOUR], ids=["two", "four"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_simulated_games_count_the_same_from_facts(
    preset: str, players: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = simulated(tmp_path, preset, players)
    assert cleared(path) >= 6
    fast, slow = both_ways([str(path)], monkeypatch)
    assert_same_leaks(fast, slow)
    situations = set(fast.situations.get_column("situation"))
    assert any(s.startswith("answer a raise") for s in situations)
    assert any(s.startswith("raise first") for s in situations)
    if len(players) == 2 and PRESETS[preset].redeal != "none":
        assert "ask for a redeal" in situations
