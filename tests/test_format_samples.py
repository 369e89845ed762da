"""The bundled sample logs: legal, correctly scored, and covering every feature of the format."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from truclog.engine.state import Phase, State
from truclog.format.events import (
    DealEvent,
    Event,
    FoldEvent,
    GameEndEvent,
    GameEvent,
    RaiseEvent,
    RedealEvent,
    ResultEvent,
    RulesSpec,
    ShowEvent,
    event_to_action,
)
from truclog.format.reader import read_log

SAMPLES = sorted((Path(__file__).parent.parent / "sample_logs").glob("*.jsonl"))


@dataclass
class Replayed:
    """A sample game replayed through the engine, with the events that were seen."""

    header: GameEvent
    state: State
    events: list[Event] = field(default_factory=list)


def replay(path: Path) -> list[Replayed]:
    """Replay a log, checking every action and every claimed result and game end."""
    games: list[Replayed] = []
    for line in read_log(path):
        assert line.event is not None, f"{path.name}:{line.line}: {line.problem}"
        event = line.event
        where = f"{path.name}:{line.line}"
        if isinstance(event, GameEvent):
            state = State.new(
                event.players, event.dealer, event.rules_obj, score=event.score, teams=event.teams
            )
            games.append(Replayed(event, state))
            continue
        game = games[-1]
        game.events.append(event)
        action = event_to_action(event)
        if action is not None:
            game.state.push(action)
        elif isinstance(event, ResultEvent):
            outcome = game.state.outcome
            assert outcome is not None, where
            assert (event.winner, event.points) == (outcome.winner, outcome.points), where
            assert event.score == game.state.score, where
        elif isinstance(event, GameEndEvent):
            assert event.score == game.state.score, where
            if event.abandoned:
                assert game.state.phase is not Phase.GAME_OVER, where
            else:
                assert event.winner == game.state.winner and event.winner is not None, where
    return games


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_every_sample_replays_legally_with_correct_claims(sample: Path) -> None:
    games = replay(sample)
    assert games
    for game in games:
        decided = len(game.state.outcomes)
        results = sum(isinstance(e, ResultEvent) for e in game.events)
        assert results == decided, "a result line after every hand"
        assert isinstance(game.events[-1], GameEndEvent), "each game ends with game_end"


def test_sample_logs_are_small_and_few() -> None:
    assert 1 <= len(SAMPLES) <= 12
    assert all(sample.stat().st_size < 16_000 for sample in SAMPLES)


def test_sample_logs_are_valid_for_the_validator() -> None:
    validate = pytest.importorskip("truclog.validate")
    found = list(validate.check_logs([str(s) for s in SAMPLES]))
    problems = [str(d) for g in found for d in getattr(g, "diagnostics", [g])]
    assert problems == []


def all_games() -> list[Replayed]:
    return [game for sample in SAMPLES for game in replay(sample)]


def test_samples_cover_every_preset() -> None:
    names = {game.state.rules.name for game in all_games()}
    assert names == {
        "classic", "gamerules", "sackson", "francais", "classic-36", "eight-high", "eight-low",
    }  # fmt: skip


def test_samples_cover_the_situations_of_issue_3() -> None:
    games = all_games()
    events = [(game, event) for game in games for event in game.events]
    deals = [e for _, e in events if isinstance(e, DealEvent)]
    cards = [c for d in deals for held in (d.cards or {}).values() for c in held]
    assert "??" in cards, "unseen cards"
    assert any(len(d.cards or {}) < 2 for d in deals), "a player left out of a deal"
    assert any(len(c) == 1 for c in cards), "rank-only cards"
    assert any(isinstance(e, ShowEvent) for _, e in events), "cards shown after a hand"
    redeals = [e.accepted for _, e in events if isinstance(e, RedealEvent)]
    assert True in redeals and False in redeals, "redeals granted and refused"
    assert any(
        isinstance(e, RedealEvent) and e.accepted
        for g, e in events
        if g.state.rules.redeal == "reshuffle"
    )
    outcomes = [o for game in games for o in game.state.outcomes]
    assert any(o.winner is None for o in outcomes), "a drawn hand"
    assert any(o.reste and o.ending == "tricks" for o in outcomes), "a reste accepted"
    assert any(o.reste and o.ending == "fold" for o in outcomes), "a reste refused"
    assert any(
        g.state.rules.reste_refused == "game" and o.reste and o.ending == "fold"
        for g in games
        for o in g.state.outcomes
    ), "a refused reste that wins the game"
    assert any(isinstance(e, RaiseEvent) and e.reste for _, e in events)
    assert any(isinstance(e, FoldEvent) and g.state.rules.fold_anytime for g, e in events), (
        "fold any time"
    )
    assert any(game.header.score for game in games), "a starting score"
    assert any(isinstance(e, GameEndEvent) and e.abandoned for _, e in events), "an abandoned game"
    assert any(isinstance(game.header.rules, RulesSpec) for game in games), "rules as an object"
    notes = [e.note for _, e in events if e.note]
    stamps = [e.t for _, e in events if e.t]
    assert len(notes) >= 10 and len(stamps) >= len(events) // 2


def test_samples_hold_a_two_game_rubber() -> None:
    rubbers: dict[str, list[Replayed]] = {}
    for game in all_games():
        if game.header.match:
            rubbers.setdefault(game.header.match, []).append(game)
    assert any(
        len(games) == 2 and games[0].state.winner == games[1].state.winner is not None
        for games in rubbers.values()
    ), "a rubber won two games to nil"
