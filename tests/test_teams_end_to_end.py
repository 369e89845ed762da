"""Four-player team play end to end: simulate, validate, count, record and browse.

Expectations come from the rules of team play: partners sit opposite (seats
1 and 3 against 2 and 4), either opponent answers a raise, scores and winners
are team names, and statistics count per player and per team.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import orjson
import pytest
from checking import checked
from click.testing import CliRunner
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Input, Static

from truclog.cli import main
from truclog.engine.actions import Accept, Fold, Play, Raise, Redeal
from truclog.engine.state import Phase, State
from truclog.errors import IllegalActionError
from truclog.format.events import GameEvent, event_to_action
from truclog.format.reader import read_log
from truclog.record.recorder import Recorder
from truclog.simulate.run import Simulation, simulate_to
from truclog.stats.counts import Grouping, finish
from truclog.stats.players import count
from truclog.stats.tables import read_tables
from truclog.tui.browse import BrowseApp
from truclog.tui.browse.screens import ReplayScreen
from truclog.tui.record.app import RecordApp
from truclog.tui.record.screens.record import RecordScreen
from truclog.tui.record.screens.start import Setup
from truclog.tui.widgets import TableView

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
FOUR_SAMPLES = sorted(SAMPLES.glob("*four*.truclog.jsonl"))
CLUB = SAMPLES / "2026-12-18-club-four-players-classic.truclog.jsonl"
FOUR = ("Ana", "Marc", "Lu", "Zoé")


def events_by_game(path: Path) -> list[tuple[GameEvent, list[Any]]]:
    """The log's games, each as its header and its other events."""
    games: list[tuple[GameEvent, list[Any]]] = []
    for line in read_log(path):
        assert line.event is not None, line.problem
        if isinstance(line.event, GameEvent):
            games.append((line.event, []))
        else:
            games[-1][1].append(line.event)
    return games


def team_of(header: GameEvent, player: str) -> str:
    """A player's team from the game line alone: partners sit opposite."""
    seat = header.players.index(player)
    for name, members in (header.teams or {}).items():
        if player in members:
            return name
    partner = header.players[(seat + 2) % 4]
    first, second = (player, partner) if seat < 2 else (partner, player)
    return f"{first}+{second}"


# --- simulated four-player games ------------------------------------------------

PRESETS = ["classic", "gamerules", "sackson", "francais"]


@pytest.fixture(scope="module", params=PRESETS)
def simulated(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    preset = request.param
    path = tmp_path_factory.mktemp("sim") / f"{preset}.truclog.jsonl"
    teams = ("nous", "eux") if preset in ("classic", "sackson") else None
    sim = Simulation(
        games=3, seed=11, rules=preset, players=FOUR, teams=teams,
        hidden=0.3, timestamps=True, notes=0.05,
    )  # fmt: skip
    simulate_to(sim, path)
    return path


def test_simulated_team_games_validate_clean_and_score_by_team(simulated: Path) -> None:
    games, diagnostics = checked([simulated])
    assert [str(d) for d in diagnostics] == []
    assert len(games) == 3
    for game in games:
        assert game.complete and game.players == FOUR
        assert game.winner in game.teams
        assert set(game.score) == set(game.teams)
        assert game.score[game.winner] >= game.rules.target
    for header, events in events_by_game(simulated):
        sides = {team_of(header, p) for p in header.players}
        for event in events:
            if event.type in ("result", "game_end"):
                assert set(event.score) == sides
                assert event.winner is None or event.winner in sides


def test_simulated_answers_come_from_the_other_team(simulated: Path) -> None:
    answers = Counter[str]()
    for header, events in events_by_game(simulated):
        raiser = None
        for event in events:
            action = event_to_action(event)
            if isinstance(action, Raise):
                raiser = action.player
            elif isinstance(action, Accept | Fold) and raiser is not None:
                assert team_of(header, action.player) != team_of(header, raiser)
                seat, raised = header.players.index(action.player), header.players.index(raiser)
                answers["next" if seat == (raised + 1) % 4 else "across"] += 1
                raiser = None
    assert answers["next"] > 0


def test_statistics_per_player_and_team_add_up_to_the_log(simulated: Path) -> None:
    games, _ = checked([simulated])
    counts = count(read_tables(games), Grouping())
    players = {row["player"]: row for row in finish(counts, "player")}
    teams = {row["team"]: row for row in finish(counts, "team")}
    assert set(players) == set(FOUR)
    assert set(teams) == set(games[0].teams)

    awarded = Counter[str]()
    decided = Counter[str]()
    won = Counter[str]()
    for game in games:
        for outcome in game.final.outcomes:
            decided["all"] += 1
            if outcome.winner is not None:
                awarded[outcome.winner] += outcome.points
                won[outcome.winner] += 1
    raises = Counter[str]()
    answered = Counter[str]()
    for _, events in events_by_game(simulated):
        for event in events:
            if event.type == "raise":
                raises[event.player] += 1
            elif event.type in ("accept", "fold"):
                answered[event.player] += 1
    folds_unprompted = sum(row["folds_unprompted"] for row in players.values())

    header = events_by_game(simulated)[0][0]
    for name, row in teams.items():
        members = [p for p in FOUR if team_of(header, p) == name]
        other = next(t for t in teams if t != name)
        assert row["points_won"] == awarded[name]
        assert row["points_lost"] == awarded[other]
        assert row["hands_won"] == won[name]
        assert row["hands_played"] == decided["all"]
        assert row["raises"] == sum(raises[p] for p in members)
        assert row["raises_faced"] == sum(players[p]["raises_faced"] for p in members)
        for player in members:
            assert players[player]["points_won"] == awarded[name]
            assert players[player]["hands_won"] == won[name]
            assert players[player]["hands_played"] == decided["all"]
    for player, row in players.items():
        assert row["raises"] == raises[player]
        assert row["raises_faced"] + row["folds_unprompted"] == answered[player]
    assert sum(r["raises_faced"] for r in teams.values()) == sum(raises.values())
    assert sum(answered.values()) == sum(raises.values()) + folds_unprompted


def test_the_simulate_and_validate_commands_play_a_team_game(tmp_path: Path) -> None:
    out = tmp_path / "club.truclog.jsonl"
    runner = CliRunner()
    args = ["simulate", "-n", "2", "--seed", "4", "--rules", "gamerules", "--players", *FOUR]
    made = runner.invoke(main, [*args, "--teams", "nous", "eux", "--realistic", "-o", str(out)])
    assert made.exit_code == 0, made.output
    header = orjson.loads(out.read_bytes().splitlines()[0])
    assert header["players"] == list(FOUR)
    assert header["teams"] == {"nous": ["Ana", "Lu"], "eux": ["Marc", "Zoé"]}
    checked_ = runner.invoke(main, ["validate", "--format", "json", str(out)])
    assert checked_.exit_code == 0, checked_.output


def test_the_stats_command_counts_the_samples_per_player_and_per_team() -> None:
    runner = CliRunner()
    paths = [str(p) for p in FOUR_SAMPLES]
    made = runner.invoke(main, ["stats", "--format", "json", *paths])
    assert made.exit_code == 0, made.output
    report = json.loads(made.stdout)
    teams = {row["team"]: row for row in report["teams"]}
    players = {row["player"]: row for row in report["players"]}
    raises = Counter[str]()
    final: dict[str, int] = {}
    membership: dict[str, str] = {}
    for path in FOUR_SAMPLES:
        for header, events in events_by_game(path):
            membership.update({p: team_of(header, p) for p in header.players})
            raises.update(e.player for e in events if e.type == "raise")
            end = events[-1]
            start = header.score or {}
            final.update({t: points - start.get(t, 0) for t, points in end.score.items()})
    assert {t: row["points_won"] for t, row in teams.items()} == final
    assert {p: row["points_won"] for p, row in players.items()} == {
        p: final[t] for p, t in membership.items()
    }
    assert {p: row["raises"] for p, row in players.items()} == {p: raises[p] for p in membership}
    for team, row in teams.items():
        assert row["raises"] == sum(raises[p] for p, t in membership.items() if t == team)

    against = runner.invoke(main, ["stats", "--format", "json", "--opponent", "les Rouges", *paths])
    report = json.loads(against.stdout)
    assert [row["player"] for row in report["players"]] == ["Camille", "Léa"]
    assert [row["team"] for row in report["teams"]] == ["les Bleus"]


# --- the four-player sample logs ------------------------------------------------


def replayed(path: Path) -> list[tuple[GameEvent, State, list[dict[str, Any]]]]:
    """Each game replayed through the engine, with what happened at each action."""
    out = []
    for header, events in events_by_game(path):
        state = State.new(
            header.players, header.dealer, header.rules_obj, header.score, header.teams
        )
        seen: list[dict[str, Any]] = []
        for event in events:
            action = event_to_action(event)
            if action is None:
                continue
            before = state.copy()
            state.push(action)
            seen.append({"action": action, "before": before, "after": state.copy()})
        out.append((header, state, seen))
    return out


Trick = list[tuple[int, Any]]


def finished_tricks(steps: list[dict[str, Any]]) -> list[tuple[State, Trick, State]]:
    """Each full trick: the state before its last card, its four cards, the state after."""
    tricks = []
    for step in steps:
        before, after = step["before"], step["after"]
        if isinstance(step["action"], Play) and len(after.results) > len(before.results):
            seat = before.seat[step["action"].player]
            tricks.append((before, [*before.trick, (seat, step["action"].card)], after))
    return tricks


def top_seats(state: State, trick: Trick) -> list[int]:
    best = max(state.rules.strength[card.rank] for _, card in trick)
    return [seat for seat, card in trick if state.rules.strength[card.rank] == best]


def test_there_are_four_player_samples_under_two_presets() -> None:
    games = [game for path in FOUR_SAMPLES for game in replayed(path)]
    assert len(FOUR_SAMPLES) >= 2
    assert all(len(header.players) == 4 for header, _, _ in games)
    assert len({state.rules.name for _, state, _ in games}) >= 2
    _, diagnostics = checked(FOUR_SAMPLES)
    assert [str(d) for d in diagnostics] == []


def test_the_samples_are_complete_games_scored_by_team() -> None:
    for path in FOUR_SAMPLES:
        for header, events in events_by_game(path):
            assert header.teams and header.date and header.id
            assert all(event.t for event in events)
            assert any(event.note for event in events)
            sides = set(header.sides)
            results = [e for e in events if e.type == "result"]
            assert results and all(set(e.score) == sides for e in results)
            assert all(e.winner is None or e.winner in sides for e in results)
            end = events[-1]
            assert end.type == "game_end" and end.winner in sides and not end.abandoned


def test_the_samples_hold_the_team_play_situations_of_issue_9() -> None:
    answers, partners_top, tied, redeals, restes = [], [], [], [], []
    for path in FOUR_SAMPLES:
        for _, _, steps in replayed(path):
            for step in steps:
                action, before = step["action"], step["before"]
                if isinstance(action, Accept | Fold) and before.pending is not None:
                    answers.append(before.seat[action.player] - before.pending.raiser)
                if isinstance(action, Redeal):
                    redeals.append(before.seat[action.player] == (before.dealer + 1) % 4)
                if isinstance(action, Raise) and action.reste:
                    restes.append(step["after"].pending.to == before.remainder(action.player))
            for state, trick, _ in finished_tricks(steps):
                top = top_seats(state, trick)
                if len({s % 2 for s in top}) == 2:
                    tied.append(top)
                elif len(top) > 1:
                    partners_top.append(top)
    assert {a % 4 for a in answers} == {1, 3}, "answers by the next and by the second opponent"
    assert partners_top, "a trick where partners share the top rank"
    assert tied, "a trick tied between the teams"
    assert redeals and all(redeals), "redeals asked by the player after the dealer"
    assert len(restes) >= 2 and all(restes), "restes to the raising team's remainder"


def test_partners_sharing_the_top_rank_win_and_a_split_top_rank_ties() -> None:
    for path in FOUR_SAMPLES:
        for _, _, steps in replayed(path):
            for state, trick, after in finished_tricks(steps):
                top = top_seats(state, trick)
                result = after.results[len(state.results)]
                if len({s % 2 for s in top}) == 2:
                    assert result is None and after.leader == trick[0][0]
                else:
                    assert result == top[0] % 2
                    if after.phase is Phase.PLAY:
                        assert after.turn == top[0]


# --- broken four-player logs --------------------------------------------------------


def club_lines() -> list[dict[str, Any]]:
    return [orjson.loads(raw) for raw in CLUB.read_bytes().splitlines()]


def index_of(lines: list[dict[str, Any]], **fields: Any) -> int:
    return next(i for i, line in enumerate(lines) if fields.items() <= line.items())


def changed(**edit: Any) -> Callable[[list[dict[str, Any]]], int]:
    """Edit the first line of a type (``where`` narrows it); return its index."""

    def apply(lines: list[dict[str, Any]]) -> int:
        where = edit.pop("where", {})
        i = index_of(lines, type=edit.pop("type"), **where)
        lines[i].update(edit)
        return i

    return apply


def answer_left_out(lines: list[dict[str, Any]]) -> int:
    i = index_of(lines, type="accept")
    del lines[i]
    return i  # the play that follows now comes while the raise is pending


def plays_swapped(lines: list[dict[str, Any]]) -> int:
    hugo = index_of(lines, type="play", player="Hugo")
    lines[hugo], lines[hugo + 1] = lines[hugo + 1], lines[hugo]
    return hugo  # Léa plays before Hugo, who sits before her


def result_by_players(lines: list[dict[str, Any]]) -> int:
    i = index_of(lines, type="result")
    lines[i]["score"] = {"Camille": 2, "Hugo": 0, "Léa": 2, "Bruno": 0}
    return i


BROKEN = {
    "partner answers": (changed(type="accept", player="Léa"), ["E412"]),
    "raiser answers own raise": (changed(type="accept", player="Camille"), ["E412"]),
    "answer by a stranger": (changed(type="accept", player="Mathilde"), ["E201"]),
    "nobody answers": (answer_left_out, ["E206"]),
    "out of seat order": (plays_swapped, ["E205"]),
    "redeal by the dealer's partner": (changed(type="redeal", player="Hugo"), ["E502"]),
    # the written dealer is followed, so Bruno, after Léa, should have led: Hugo is out of turn
    "deal not passed to the next player": (
        changed(type="deal", where={"hand": 2}, dealer="Léa"),
        ["E211", "E205"],
    ),
    "result keyed by players": (result_by_players, ["E704"]),
    "result names the wrong team": (changed(type="result", winner="les Rouges"), ["E702"]),
    "result names a player": (changed(type="result", winner="Camille"), ["E702"]),
    "game_end names the wrong team": (changed(type="game_end", winner="les Rouges"), ["E711"]),
}


@pytest.mark.parametrize("name", BROKEN)
def test_a_broken_four_player_log_is_reported_at_its_line_and_only_there(
    name: str, tmp_path: Path
) -> None:
    break_it, codes = BROKEN[name]
    lines = club_lines()
    index = break_it(lines)
    path = tmp_path / "broken.truclog.jsonl"
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), "utf-8")
    _, diagnostics = checked([path])
    expected = [(index + 1 + offset, code) for offset, code in enumerate(codes)]
    assert [(d.line, d.code) for d in diagnostics] == expected


def test_a_score_keyed_by_players_is_refused_on_the_game_line() -> None:
    header = club_lines()[0]
    header["score"] = {"Camille": 3}
    with pytest.raises(ValueError, match="not a team of this game"):
        GameEvent.model_validate(header)


# --- the recorder ----------------------------------------------------------------------

T0 = datetime(2026, 12, 18, 21, 0, tzinfo=timezone(timedelta(hours=1)))


def test_recording_a_team_game_writes_a_log_that_validates(tmp_path: Path) -> None:
    path = tmp_path / "club.truclog.jsonl"
    teams = {"nous": ["Ana", "Lu"], "eux": ["Marc", "Zoé"]}
    with Recorder.start(
        path, FOUR, "Marc", teams=teams, score={"nous": 9}, clock=lambda: T0
    ) as rec:
        rec.deal({"Lu": "9c Tc 9d"})
        rec.redeal("Lu", True, note="Lu, after the dealer, asks")
        rec.deal({"Lu": "7h 8d Kc"})
        rec.raise_("Lu", 2)
        with pytest.raises(IllegalActionError) as partner:
            rec.accept("Ana")
        assert partner.value.code == "E412"
        rec.accept("Marc", note="the second opponent answers")
        for player, card in [("Lu", "7h"), ("Zoé", "A"), ("Ana", "9"), ("Marc", "K"),
                             ("Lu", "8d"), ("Zoé", "A"), ("Ana", "8"), ("Marc", "Q")]:  # fmt: skip
            rec.play(player, card)
        assert rec.next_dealer == "Lu"
        rec.deal()
        rec.reste("Zoé")  # after the dealer Lu, Zoé leads: eux raise to their remainder, 12
        rec.accept("Lu")
        for player, card in [("Zoé", "7"), ("Ana", "9"), ("Marc", "A"), ("Lu", "8"),
                             ("Zoé", "7"), ("Ana", "K"), ("Marc", "J"), ("Lu", "Q")]:  # fmt: skip
            rec.play(player, card)
    written = [orjson.loads(raw) for raw in path.read_bytes().splitlines()]
    claims = [
        {k: v for k, v in line.items() if k != "t"}
        for line in written
        if line["type"] in ("result", "game_end")
    ]
    assert claims == [
        {"type": "result", "winner": "nous", "points": 2, "score": {"nous": 11, "eux": 0}},
        {"type": "result", "winner": "eux", "points": 12, "score": {"nous": 11, "eux": 12}},
        {"type": "game_end", "winner": "eux", "score": {"nous": 11, "eux": 12}},
    ]
    games, diagnostics = checked([path])
    assert [str(d) for d in diagnostics] == []
    assert games[0].teams == ("nous", "eux") and games[0].winner == "eux"


async def test_a_team_hand_typed_into_the_recorder_validates(tmp_path: Path) -> None:
    log = tmp_path / "four.truclog.jsonl"
    setup = Setup(path=str(log), players=FOUR, dealer="Zoé", teams="nous, eux")
    app = RecordApp(setup=setup, clock=None)
    entries = [
        "d 9c T 9d", "x y", "d 8h K Js",  # Ana, after the dealer Zoé, asks for a redeal
        "r", "a Zoé",  # Ana raises to 2, Zoé (not the next player, Marc) accepts for eux
        "8h", "7c", "A", "K",  # Marc's seven takes the first trick for eux
        "9", "8", "T", "K",  # Marc leads; Lu's eight takes the second for nous
        "Q", "J", "Js", "7",  # Lu leads; Marc's seven takes the third: eux win 2
    ]  # fmt: skip
    async with app.run_test(size=(120, 44)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, RecordScreen)
        for entry in entries:
            focused = app.focused
            assert isinstance(focused, Input)
            focused.value = entry
            await pilot.press("enter")
            await pilot.pause()
    written = [orjson.loads(raw) for raw in log.read_bytes().splitlines()]
    assert [line["player"] for line in written if line["type"] in ("redeal", "accept")] == [
        "Ana",
        "Zoé",
    ]
    assert written[-1] == {
        "type": "result", "winner": "eux", "points": 2, "score": {"nous": 0, "eux": 2},
    }  # fmt: skip
    _, diagnostics = checked([log])
    assert [d.code for d in diagnostics] == ["W801"]  # the game goes on


# --- the browser ------------------------------------------------------------------------


def table_lines(app: BrowseApp) -> list[str]:
    console = Console(width=200, record=True, color_system=None)
    console.print(app.screen.query_one(TableView).content)
    return console.export_text().splitlines()


def seat_line(lines: list[str], label: str) -> str:
    return next(line for line in lines if label in line)


async def open_first_hand(app: BrowseApp, pilot: Pilot[None]) -> ReplayScreen:
    for _ in range(200):
        if app.loaded:
            break
        await pilot.pause(0.02)
    assert app.loaded
    await pilot.press("enter", "enter")
    assert isinstance(app.screen, ReplayScreen)
    return app.screen


SEATS = {
    "Camille (les Bleus)": "9♣ T♣ 9♦",
    "Hugo (les Rouges)": "K♦ J♥ 8♠",
    "Léa (les Bleus)": "Q♣ T♦ 9♥",
    "Bruno (les Rouges)": "A♥ 7♠ J♠",
}


async def test_the_browser_replays_a_team_hand_with_four_hands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "logs").mkdir()
    shutil.copy(CLUB, tmp_path / "logs" / CLUB.name)
    app = BrowseApp(["logs"])
    async with app.run_test(size=(120, 36)) as pilot:
        replay = await open_first_hand(app, pilot)
        assert replay.game.players == ("Camille", "Hugo", "Léa", "Bruno")
        onlooker = table_lines(app)
        for label in SEATS:
            assert seat_line(onlooker, label).count("▒▒") == 3
        await pilot.press(*"v" * 5)  # past the four seats: every card the log reveals
        revealed = table_lines(app)
        for label, cards in SEATS.items():
            assert cards in seat_line(revealed, label)
        await pilot.press("n", "end")  # hand 2: partners share the top eight, then two jacks tie
        shown = "\n".join(table_lines(app))
        assert "→ les Rouges" in shown and "→ tied" in shown
        assert "les Rouges wins 2 by tricks" in shown
        assert "Score  les Bleus 2  ·  les Rouges 2" in shown
        title = app.screen.query_one("#replay-title", Static)
        assert "hand 2" in str(title.render())
        await pilot.press("n", "r")  # hand 3: Bruno raises after Léa's seven
        shown = "\n".join(table_lines(app))
        assert "Bruno raises to 3, Camille or Léa to answer" in shown
