"""The scorekeeper: result, game_end and the next game of a rubber, as the rules say
they are scored, and written alike by the recorder and the simulator."""

from __future__ import annotations

from pathlib import Path

import pytest
from shorthand import run

from truclog.engine.state import Rubber, State
from truclog.errors import TruclogError
from truclog.format.events import GameEndEvent, GameEvent, ResultEvent, event_to_action
from truclog.format.scorekeeper import game_end, next_game, next_id, result
from truclog.format.writer import dumps
from truclog.record.recorder import Recorder
from truclog.simulate.run import Simulation, simulate

DEAL = "Marc deals Ana=7h,Qs,9s Marc=As,Jd,8c"
# Ana's 7 beats Marc's ace, her queen beats his jack: two tricks, the hand (classic).
ANA_WINS_TWO_TRICKS = ["Ana 7h", "Marc As", "Ana Qs", "Marc Jd"]


def header(**fields: object) -> GameEvent:
    base: dict[str, object] = {"format": "truclog/1", "players": ["Ana", "Marc"], "dealer": "Marc"}
    return GameEvent(**{**base, **fields})


def won_game(target: int = 2) -> State:
    """Ana wins the game: a raise to 2, accepted, and two tricks (12 = target here)."""
    state = State.new(["Ana", "Marc"], "Marc", {"preset": "classic", "target": target})
    run(state, DEAL, "Ana raise 2", "Marc accept", *ANA_WINS_TWO_TRICKS)
    return state


def test_the_result_of_an_accepted_raise_scores_its_value() -> None:
    state = State.new(["Ana", "Marc"], "Marc", "classic")
    run(state, DEAL, "Ana raise 2", "Marc accept", *ANA_WINS_TWO_TRICKS)
    line = result(state, t="2026-01-02T20:05:00+01:00")
    assert line == ResultEvent(
        winner="Ana", points=2, score={"Ana": 2, "Marc": 0}, t="2026-01-02T20:05:00+01:00"
    )


def test_a_refused_raise_scores_the_value_before_it() -> None:
    state = State.new(["Ana", "Marc"], "Marc", "classic")
    run(state, DEAL, "Ana raise 3", "Marc fold")
    assert result(state) == ResultEvent(winner="Ana", points=1, score={"Ana": 1, "Marc": 0})


def test_no_result_before_a_hand_is_decided() -> None:
    state = State.new(["Ana", "Marc"], "Marc", "classic")
    run(state, DEAL)
    with pytest.raises(TruclogError):
        result(state)


def test_game_end_names_the_winner_or_says_abandoned() -> None:
    assert game_end(won_game()) == GameEndEvent(winner="Ana", score={"Ana": 2, "Marc": 0})
    unfinished = won_game(target=12)
    assert game_end(unfinished) == GameEndEvent(score={"Ana": 2, "Marc": 0}, abandoned=True)


def test_the_next_game_of_a_rubber() -> None:
    first = header(
        id="cafe-09",
        match="r1",
        rules="sackson",
        date="2026-01-02",
        score={"Ana": 3},
        tags={"x": "y"},
    )
    state, rubber = won_game(), Rubber()
    rubber.record(state)
    second = next_game(first, state, rubber, t="2026-01-02T21:00:00+01:00")
    assert second is not None
    assert (second.id, second.dealer, second.match, second.rules) == (
        "cafe-10",
        "Ana",
        "r1",
        "sackson",
    )
    assert (second.date, second.tags, second.score) == ("2026-01-02", {"x": "y"}, None)
    assert second.t == "2026-01-02T21:00:00+01:00"
    assert next_game(first, state, rubber, date="2026-01-03").date == "2026-01-03"  # type: ignore[union-attr]


def test_no_next_game_without_a_rubber_or_once_it_is_won() -> None:
    state, rubber = won_game(), Rubber()
    rubber.record(state)
    assert next_game(header(id="g1"), state, rubber) is None
    rubber.record(state)  # Ana's second game: the rubber is hers
    assert next_game(header(id="g1", match="r1"), state, rubber) is None


@pytest.mark.parametrize(
    ("previous", "following"),
    [
        ("cafe-1", "cafe-2"),
        ("g-09", "g-10"),
        ("g-99", "g-100"),
        ("sim3-000001", "sim3-000002"),
        ("x", "x-2"),
    ],
)
def test_next_id_counts_on(previous: str, following: str) -> None:
    assert next_id(previous) == following


def _undated(line: bytes) -> bytes:
    event = GameEvent.model_validate_json(line) if line.startswith(b'{"type":"game"') else None
    return dumps(event.model_copy(update={"date": None})) if event is not None else line


@pytest.mark.parametrize("players", [("Ana", "Marc"), ("Ana", "Bea", "Cy", "Dan")])
def test_the_recorder_writes_the_lines_the_simulator_writes(
    players: tuple[str, ...], tmp_path: Path
) -> None:
    """Fed the actions of simulated rubbers, the recorder writes by itself the same result,
    game_end and next game lines as the simulator (dates aside: each writes its own day)."""
    sim = Simulation(games=3, seed=11, match=True, players=players, rules="gamerules")
    lines = [dumps(event) for event in simulate(sim)]
    path = tmp_path / "rec.truclog.jsonl"
    with Recorder(path, clock=None) as recorder:
        for event in simulate(sim):
            if isinstance(event, GameEvent) and recorder.over:
                recorder.new_game(
                    event.players,
                    event.dealer,
                    "gamerules",
                    None,
                    event.match,
                    event.teams,
                    event.id,
                    "simulated",
                    date=event.date,
                )
            elif (action := event_to_action(event)) is not None:
                recorder.record(action)
    written = path.read_bytes().splitlines(keepends=True)
    assert [_undated(x) for x in written] == [_undated(x) for x in lines]
    assert sum(line.startswith(b'{"type":"game"') for line in written) >= 6  # 3 rubbers of 2-3
