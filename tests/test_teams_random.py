"""Random legal four-player games under every preset, written as logs: the validator passes
them, and the statistics per player and per team add up to what the engine awarded."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from truclog.engine.actions import Accept, Fold, Raise, Show
from truclog.engine.rules import PRESETS
from truclog.engine.state import Phase, State
from truclog.format.events import Event, GameEndEvent, GameEvent, ResultEvent, action_to_event
from truclog.format.writer import dumps
from truclog.stats.counts import Grouping, finish
from truclog.stats.players import count
from truclog.stats.tables import read_tables
from truclog.validate import CheckedGame, check_logs

PLAYERS = ["Ana", "Marc", "Lu", "Zoé"]
TEAMS = {"nous": ["Ana", "Lu"], "eux": ["Marc", "Zoé"]}
MOST_ACTIONS = 250


class Played:
    """A random game: its log lines, the final state, and who raised and answered."""

    def __init__(self, seed: int, preset: str, named: bool, start: int) -> None:
        rng = random.Random(seed)
        teams = TEAMS if named else None
        dealer = rng.choice(PLAYERS)
        score = {"nous" if named else "Ana+Lu": start}
        self.state = State.new(PLAYERS, dealer, preset, score, teams)
        self.events: list[Event] = [
            GameEvent(
                format="truclog/1", players=PLAYERS, dealer=dealer, rules=preset,
                score=score, teams=teams,
            )
        ]  # fmt: skip
        self.raises: Counter[str] = Counter()
        self.answers: Counter[str] = Counter()
        self.folds_unprompted: Counter[str] = Counter()
        state = self.state
        while state.phase is not Phase.GAME_OVER and len(state.history) < MOST_ACTIONS:
            legal = state.legal_actions()
            raises = [a for a in legal if isinstance(a, Raise)]
            action = rng.choice(raises if raises and rng.random() < 0.2 else legal)
            self._count(action)
            state.push(action)
            self.events.append(action_to_event(action))
            if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER) and not isinstance(action, Show):
                outcome = state.outcome
                assert outcome is not None
                self.events.append(
                    ResultEvent(winner=outcome.winner, points=outcome.points, score=state.score)
                )
        over = state.phase is Phase.GAME_OVER
        self.events.append(
            GameEndEvent(winner=state.winner, score=state.score)
            if over
            else GameEndEvent(score=state.score, abandoned=True)
        )

    def _count(self, action: object) -> None:
        if isinstance(action, Raise):
            self.raises[action.player] += 1
        elif isinstance(action, Accept | Fold) and self.state.pending is not None:
            self.answers[action.player] += 1
        elif isinstance(action, Fold):
            self.folds_unprompted[action.player] += 1


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("random-teams")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    preset=st.sampled_from(sorted(PRESETS)),
    named=st.booleans(),
    start=st.integers(0, 11),
)
def test_random_team_games_validate_clean_and_count_per_player_and_team(
    folder: Path, seed: int, preset: str, named: bool, start: int
) -> None:
    played = Played(seed, preset, named, start)
    path = folder / f"{seed}-{preset}.truclog.jsonl"
    path.write_bytes(b"".join(dumps(event) for event in played.events))
    (game,) = list(check_logs([str(path)]))
    assert isinstance(game, CheckedGame)
    assert [str(d) for d in game.diagnostics] == []
    state = played.state
    assert game.score == state.score and game.winner == state.winner

    counts = count(read_tables([game]), Grouping())
    players = {row["player"]: row for row in finish(counts, "player")}
    teams = {row["team"]: row for row in finish(counts, "team")}
    awarded: Counter[str] = Counter()
    for outcome in state.outcomes:
        if outcome.winner is not None:
            awarded[outcome.winner] += outcome.points
    for player in PLAYERS:
        row = players[player]
        assert row["raises"] == played.raises[player]
        assert row["raises_faced"] == played.answers[player]
        assert row["folds_unprompted"] == played.folds_unprompted[player]
        assert row["hands_played"] == len(state.outcomes)
    for team, members in state_teams(state).items():
        row = teams[team]
        assert row["points_won"] == awarded[team] == state.score[team] - state_start(state, team)
        assert row["raises"] == sum(played.raises[p] for p in members)
        assert row["raises_faced"] == sum(played.answers[p] for p in members)
        assert row["hands_won"] == sum(o.winner == team for o in state.outcomes)


def state_teams(state: State) -> dict[str, list[str]]:
    """Team -> members, from the seats alone: seats 1 and 3 against 2 and 4."""
    return {
        state.teams[0]: [state.players[0], state.players[2]],
        state.teams[1]: [state.players[1], state.players[3]],
    }


def state_start(state: State, team: str) -> int:
    return state.start_score[state.teams.index(team)]
