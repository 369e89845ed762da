"""``truclog simulate``: legal logs under every preset, seeded bytes, realism, rubbers, styles.

Expectations come from the contracts: every simulated line must replay through
the engine and the validator with no diagnostic, results must be the engine's,
and a bot's bluff frequency must show up in raises made with strength < 0.5
(strength as ``docs/stats.md`` defines it, via ``truclog.solver.strength``).
"""

from __future__ import annotations

import gzip
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from itertools import pairwise
from pathlib import Path

import orjson
import pytest
from checking import checked
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from truclog.engine.actions import Action, Raise
from truclog.engine.rules import PRESETS
from truclog.engine.state import Phase, State
from truclog.format.events import Event, GameEvent, ResultEvent, event_to_action, parse_event
from truclog.format.writer import dumps
from truclog.simulate import STYLES, parse_style
from truclog.simulate.run import Simulation, simulate, simulate_to
from truclog.solver.strength import raise_strength

TWO = ("Ana", "Marc")
FOUR = ("Ana", "Marc", "Lu", "Zoé")


def _write(tmp_path: Path, name: str, sim: Simulation) -> Path:
    path = tmp_path / f"{name}.truclog.jsonl"
    simulate_to(sim, path)
    return path


def _lines(path: Path) -> list[dict[str, object]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def _positions(path: Path) -> Iterator[tuple[State, Event, Action | None]]:
    """Every line after a game line, with the engine's state before it; its action is then pushed."""
    state: State | None = None
    for raw in path.read_bytes().splitlines():
        event = parse_event(raw)
        if isinstance(event, GameEvent):
            state = State.new(event.players, event.dealer, event.rules_obj)
            continue
        assert state is not None
        action = event_to_action(event)
        yield state, event, action
        if action is not None:
            state.push(action)


def _replay(path: Path) -> list[State]:
    """Replay a log through the engine alone; check every result and game_end claim."""
    finished: list[State] = []
    state: State | None = None
    for raw in path.read_bytes().splitlines():
        event = parse_event(raw)
        if isinstance(event, GameEvent):
            if state is not None:
                finished.append(state)
            state = State.new(event.players, event.dealer, event.rules_obj, event.score)
            continue
        assert state is not None
        action = event_to_action(event)
        if action is not None:
            state.push(action)
        elif isinstance(event, ResultEvent):
            outcome = state.outcome
            assert outcome is not None
            assert (event.winner, event.points) == (outcome.winner, outcome.points)
            assert event.score == state.score
        else:
            assert state.phase is Phase.GAME_OVER
            assert (event.winner, event.score) == (state.winner, state.score)
    if state is not None:
        finished.append(state)
    return finished


# --- legal under every preset ------------------------------------------------------


@pytest.mark.parametrize("players", [TWO, FOUR], ids=["two", "four"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_simulates_clean(
    tmp_path: Path, preset: str, players: tuple[str, ...]
) -> None:
    paths = []
    for seed, style in enumerate(STYLES):
        sim = Simulation(
            games=1,
            seed=seed,
            rules=preset,
            players=players,
            default_style=STYLES[style],
            hidden=0.4,
            timestamps=True,
            notes=0.2,
            annotate=True,
            match=seed % 2 == 0,
        )
        paths.append(_write(tmp_path, f"{preset}-{style}", sim))
    games, problems = checked(paths)
    assert problems == []
    assert games and all(game.complete and game.winner for game in games)
    assert all(hand.ok for game in games for hand in game.hands)
    for path in paths:
        for state in _replay(path):
            assert state.phase is Phase.GAME_OVER
            assert max(state.score.values()) >= state.rules.target


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 10**6),
    preset=st.sampled_from(list(PRESETS)),
    four=st.booleans(),
    target=st.integers(1, 6),
    hidden=st.sampled_from([0.0, 0.5, 1.0]),
    styles=st.lists(st.sampled_from(list(STYLES)), min_size=4, max_size=4),
)
def test_random_settings_validate_clean(
    tmp_path: Path,
    seed: int,
    preset: str,
    four: bool,
    target: int,
    hidden: float,
    styles: list[str],
) -> None:
    players = FOUR if four else TWO
    sim = Simulation(
        games=3,
        seed=seed,
        rules={"preset": preset, "target": target},
        players=players,
        styles={p: STYLES[s] for p, s in zip(players, styles, strict=False)},
        hidden=hidden,
        annotate=True,
    )
    path = _write(tmp_path, f"h{seed}", sim)
    games, problems = checked([path])
    assert problems == []
    assert len(games) == 3
    assert len(_replay(path)) == 3


# --- determinism -------------------------------------------------------------------


def test_same_seed_same_bytes_and_other_seed_other_games(tmp_path: Path) -> None:
    def run(name: str, seed: int) -> bytes:
        sim = Simulation(games=4, seed=seed, hidden=0.5, timestamps=True, notes=0.2, match=True)
        return _write(tmp_path, name, sim).read_bytes()

    assert run("a", 11) == run("b", 11)
    assert run("c", 12) != run("a", 11)


def test_realism_does_not_change_the_play(tmp_path: Path) -> None:
    plain = _lines(_write(tmp_path, "plain", Simulation(games=3, seed=5)))
    dressed = _lines(
        _write(tmp_path, "dressed", Simulation(games=3, seed=5, timestamps=True, notes=0.5))
    )

    def bare(lines: list[dict[str, object]]) -> list[dict[str, object]]:
        return [{k: v for k, v in line.items() if k not in ("t", "note")} for line in lines]

    assert bare(plain) == bare(dressed)


def test_stream_matches_file(tmp_path: Path) -> None:
    sim = Simulation(games=2, seed=3, players=FOUR)
    path = _write(tmp_path, "file", sim)
    assert b"".join(dumps(event) for event in simulate(sim)) == path.read_bytes()


# --- what the lines say -------------------------------------------------------------


def test_game_lines_and_results(tmp_path: Path) -> None:
    lines = _lines(_write(tmp_path, "g", Simulation(games=3, seed=2, rules="sackson")))
    games = [line for line in lines if line["type"] == "game"]
    assert [g["id"] for g in games] == ["sim2-000001", "sim2-000002", "sim2-000003"]
    for game in games:
        assert game["source"] == "simulated"
        assert game["rules"] == "sackson"
        assert game["players"] == list(TWO)
        assert game["dealer"] in TWO
        datetime.strptime(str(game["date"]), "%Y-%m-%d")
    deals = sum(line["type"] == "deal" for line in lines)
    redeals = sum(line["type"] == "redeal" and line["accepted"] is True for line in lines)
    assert sum(line["type"] == "result" for line in lines) == deals - redeals
    assert sum(line["type"] == "game_end" for line in lines) == 3
    ends = [i for i, line in enumerate(lines) if line["type"] == "game_end"]
    assert ends[-1] == len(lines) - 1
    assert all(lines[i + 1]["type"] == "game" for i in ends[:-1])


def test_hidden_deals_record_only_the_first_player(tmp_path: Path) -> None:
    lines = _lines(_write(tmp_path, "h", Simulation(games=12, seed=9, hidden=0.5)))
    deals = [line for line in lines if line["type"] == "deal"]
    hidden = [d for d in deals if d["cards"].get("Marc", ["??"])[0] == "??"]  # type: ignore[union-attr]
    assert all(len(d["cards"]["Ana"]) == 3 and "??" not in d["cards"]["Ana"] for d in deals)  # type: ignore[index]
    assert 0.3 < len(hidden) / len(deals) < 0.7
    assert any("Marc" not in d["cards"] for d in hidden)  # type: ignore[operator]
    assert any(d["cards"].get("Marc") == ["??"] * 3 for d in hidden)  # type: ignore[union-attr]
    shows = [line for line in lines if line["type"] == "show"]
    assert shows and all(s["player"] == "Marc" for s in shows)
    no_hidden = _lines(_write(tmp_path, "v", Simulation(games=3, seed=9)))
    assert all(
        set(line["cards"]) == set(TWO)  # type: ignore[arg-type]
        for line in no_hidden
        if line["type"] == "deal"
    )
    assert not any(line["type"] == "show" for line in no_hidden)


def test_timestamps_move_forward_with_thinking_time(tmp_path: Path) -> None:
    sim = Simulation(
        games=4, seed=4, timestamps=True, start=datetime.fromisoformat("2026-11-29T20:00+01:00")
    )
    lines = _lines(_write(tmp_path, "t", sim))
    times = [datetime.fromisoformat(str(line["t"])) for line in lines]
    assert all(str(line["t"]).endswith("+01:00") for line in lines)
    assert times[0] == datetime.fromisoformat("2026-11-29T20:00+01:00")
    gaps = [(b - a).total_seconds() for a, b in pairwise(times)]
    assert min(gaps) >= 0
    assert max(gaps) < 24 * 3600
    for line in lines:
        if line["type"] == "game":
            assert str(line["t"]).startswith(str(line["date"]))


def test_notes_now_and_then(tmp_path: Path) -> None:
    lines = _lines(_write(tmp_path, "n", Simulation(games=3, seed=1, notes=0.2)))
    noted = [line for line in lines if "note" in line]
    assert 0.05 < len(noted) / len(lines) < 0.35
    assert all(isinstance(line["note"], str) and line["note"] for line in noted)
    assert not any("note" in line for line in _lines(_write(tmp_path, "q", Simulation(seed=1))))


def test_rubbers_end_when_a_side_wins_two_games(tmp_path: Path) -> None:
    for players in (TWO, FOUR):
        sim = Simulation(games=5, seed=6, players=players, match=True)
        path = _write(tmp_path, f"m{len(players)}", sim)
        games, problems = checked([path])
        assert problems == []
        by_match: dict[str, list[str | None]] = {}
        for game in games:
            assert game.header.match is not None
            by_match.setdefault(game.header.match, []).append(game.winner)
        assert len(by_match) == 5
        for winners in by_match.values():
            counts = Counter(winners)
            assert counts[winners[-1]] == 2
            assert 2 <= len(winners) <= 3
            assert max(Counter(winners[:-1]).values()) == 1


def test_hands_option_stops_after_the_game_that_reaches_it(tmp_path: Path) -> None:
    sim = Simulation(games=1, hands=40, seed=8)
    games, problems = checked([_write(tmp_path, "n", sim)])
    assert problems == []
    hands = [len(game.hands) for game in games]
    assert sum(hands) >= 40
    assert sum(hands[:-1]) < 40


@pytest.mark.parametrize(
    ("named", "teams"), [(None, {"Ana+Lu", "Marc+Zoé"}), (("nous", "eux"), {"nous", "eux"})]
)
def test_four_players_score_by_team(
    tmp_path: Path, named: tuple[str, str] | None, teams: set[str]
) -> None:
    sim = Simulation(games=2, seed=3, players=FOUR, teams=named, match=True)
    path = _write(tmp_path, "f", sim)
    assert checked([path])[1] == []
    lines = _lines(path)
    header = lines[0]
    if named:
        assert header["teams"] == {"nous": ["Ana", "Lu"], "eux": ["Marc", "Zoé"]}
    else:
        assert "teams" not in header
    results = [line for line in lines if line["type"] in ("result", "game_end")]
    assert all(set(line["score"]) == teams for line in results)  # type: ignore[arg-type]
    assert all(line["winner"] in teams | {None} for line in results)
    answers = [line for line in lines if line["type"] in ("accept", "fold")]
    assert {a["player"] for a in answers} <= set(FOUR)


# --- strength and bluffing -----------------------------------------------------------


def test_annotated_strength_is_the_statistic(tmp_path: Path) -> None:
    """``_strength`` on a raise line is ``raise_strength`` of the replayed position."""
    path = _write(tmp_path, "s", Simulation(games=6, seed=21, annotate=True, rules="classic"))
    checked = 0
    for state, event, action in _positions(path):
        if isinstance(action, Raise):
            expected = raise_strength(state, action.player)
            assert expected is not None
            assert event.extensions["_strength"] == round(expected, 4)
            checked += 1
    assert checked > 10


def _weak_chances(path: Path, player: str) -> tuple[int, int]:
    """Positions at value 1 where ``player`` could raise to 2 with strength < 0.5, and raises there."""
    chances = bluffs = 0
    for state, _, action in _positions(path):
        if action is None:
            continue
        mover = state.players[state.turn] if state.phase is Phase.PLAY else None
        if (
            mover == player
            and state.pending is None
            and state.value == 1
            and state.remainder(player) > 2  # closer to the target, bots raise by reste
            and state.is_legal(Raise(player, to=2))
        ):
            strength = raise_strength(state, player)
            assert strength is not None
            if strength < 0.5:
                chances += 1
                bluffs += isinstance(action, Raise)
    return chances, bluffs


@pytest.mark.parametrize("bluff", [0.0, 0.3, 0.8])
def test_configured_bluff_frequency_shows_in_weak_raises(tmp_path: Path, bluff: float) -> None:
    style = parse_style(f"balanced:bluff={bluff},redeal_ask=0")
    sim = Simulation(games=40, seed=13, rules="classic", styles={"Ana": style})
    chances, bluffs = _weak_chances(_write(tmp_path, "b", sim), "Ana")
    assert chances > 150
    assert abs(bluffs / chances - bluff) < 0.1


def test_bluffer_bluffs_more_than_cautious(tmp_path: Path) -> None:
    sim = Simulation(
        games=30,
        seed=17,
        annotate=True,
        styles={"Ana": STYLES["bluffer"], "Marc": STYLES["cautious"]},
    )
    weak: Counter[str] = Counter()
    raises: Counter[str] = Counter()
    for line in _lines(_write(tmp_path, "bc", sim)):
        if line["type"] == "raise":
            raises[str(line["player"])] += 1
            weak[str(line["player"])] += float(line["_strength"]) < 0.5  # type: ignore[arg-type]
    assert weak["Ana"] >= 5 * max(weak["Marc"], 1)
    assert weak["Ana"] / raises["Ana"] > 0.2
    assert weak["Marc"] / raises["Marc"] < 0.15


def test_calling_station_accepts_more_than_cautious(tmp_path: Path) -> None:
    sim = Simulation(
        games=30,
        seed=19,
        styles={"Ana": STYLES["calling-station"], "Marc": STYLES["cautious"]},
    )
    answers: dict[str, Counter[str]] = {"Ana": Counter(), "Marc": Counter()}
    for line in _lines(_write(tmp_path, "cs", sim)):
        if line["type"] in ("accept", "fold"):
            answers[str(line["player"])][str(line["type"])] += 1
    ana, marc = answers["Ana"], answers["Marc"]
    assert ana["fold"] / (ana["fold"] + ana["accept"]) < 0.1
    assert marc["fold"] / (marc["fold"] + marc["accept"]) > 0.3


def test_random_style_uses_every_kind_of_action(tmp_path: Path) -> None:
    sim = Simulation(games=10, seed=2, rules="gamerules", default_style=STYLES["random"])
    kinds = Counter(str(line["type"]) for line in _lines(_write(tmp_path, "r", sim)))
    assert all(kinds[k] > 0 for k in ("raise", "accept", "fold", "play", "redeal"))


def test_gz_output_is_the_same_log_compressed(tmp_path: Path) -> None:
    sim = Simulation(games=2, seed=14, hidden=0.5)
    plain = _write(tmp_path, "plain", sim)
    packed = tmp_path / "packed.truclog.jsonl.gz"
    simulate_to(sim, packed)
    assert gzip.decompress(packed.read_bytes()) == plain.read_bytes()
    assert checked([packed])[1] == []
