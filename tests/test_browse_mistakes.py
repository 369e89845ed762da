"""Grades in the replay, the mistakes screen, drills and the analysis graph of
``truclog browse``, on the log worked out by hand in test_browse_review.py.

Ana's answers there gave 13 points (review-2 hand 2: she folds a sure win to a reste;
at stake 12 + 10 = 22, 13 of them is a mistake), 3 (review-1 hand 2: she folds her
winning seven to a raise to 2; at stake 2 + 2, 3 of 4 is a blunder) and 1 (review-2
hand 1: she accepts with three nines against three sevens; 1 of 4, an inaccuracy).
"""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from test_browse import table_text, text_of, wait_as_of, wait_loaded
from test_browse_review import FINAL, REVIEW
from textual.pilot import Pilot
from textual.widgets import DataTable, OptionList, ProgressBar, Select, Static

from truclog.engine.actions import Play
from truclog.engine.cards import parse_card
from truclog.replay import read_games
from truclog.simulate.run import Simulation, simulate_to
from truclog.tui.browse import BrowseApp, mistakes
from truclog.tui.browse.judged import worth_trail
from truclog.tui.browse.messages import GamesReviewed
from truclog.tui.browse.screens import (
    DrillScreen,
    GamesScreen,
    HandsScreen,
    MistakesScreen,
    ReplayScreen,
)
from truclog.tui.browse.worth import WorthChart
from truclog.tui.widgets.cards import card_label

SIZE = (120, 36)
SIZES = [(80, 24), (160, 50)]


@pytest.fixture
def log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "review.truclog.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in REVIEW + FINAL), "utf-8")
    return path.name


async def wait_reviewed(screen: MistakesScreen, pilot: Pilot[None]) -> None:
    """Wait for the mistakes screen to show what the review found."""
    for _ in range(3000):
        if screen.found is not None:
            break
        await pilot.pause(0.02)
    await pilot.pause()
    assert screen.found is not None


async def open_mistakes(app: BrowseApp, pilot: Pilot[None], player: str = "Ana") -> MistakesScreen:
    await wait_loaded(app, pilot)
    await pilot.press("m")
    screen = app.screen
    assert isinstance(screen, MistakesScreen)
    await wait_reviewed(screen, pilot)
    assert app.reviewed is not None and screen.found is app.reviewed
    screen.query_one(Select).value = player
    await pilot.pause()
    return screen


def rows_of(screen: MistakesScreen) -> list[list[str]]:
    """The cells of the rows the list draws."""
    rows = screen.rows
    return [[str(c) for c in rows.cell(i)] for i in range(rows.count)]


def judged_in_log(log: str, player: str) -> list[tuple[str, int, int, int]]:
    """Every decision of ``player`` that lost points, by the replay API: game, hand,
    line, points lost."""
    return [
        (game.id, hand.number, j.step.line, j.lost)
        for game in read_games(log)
        for hand in game.hands
        for j in hand.review()
        if j.player == player and j.lost
    ]


async def test_mistakes_are_sorted_by_points_lost_and_graded(log: str) -> None:
    app = BrowseApp([log])
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_mistakes(app, pilot)
        rows = rows_of(screen)
        lost = [int(row[0]) for row in rows]
        assert lost == sorted(lost, reverse=True)
        expected = judged_in_log(log, "Ana")
        assert sorted(lost, reverse=True) == sorted((e[3] for e in expected), reverse=True)
        answers = [(r[0], r[1], r[3], r[4], r[5], r[6]) for r in rows if r[5] != "play"]
        assert answers == [
            ("13", "? mistake", "review-2", "2", "fold", "accept"),
            ("3", "?? blunder", "review-1", "2", "fold", "accept"),
            ("1", "?! inaccuracy", "review-2", "1", "accept", "fold"),
        ]
        where = {(r[3], r[4], int(r[0])): r[2] for r in rows}
        for game, hand, line, points in expected:
            assert where[(game, str(hand), points)] == f"{log}:{line}"
        heading = text_of(screen.query_one("#mistakes-heading", Static))
        assert (
            f"Ana: {len(expected)} decisions lost {sum(e[3] for e in expected)} points" in heading
        )
        screen.query_one(Select).value = "Marc"
        await pilot.pause()
        assert [int(r[0]) for r in rows_of(screen)] == sorted(
            (e[3] for e in judged_in_log(log, "Marc")), reverse=True
        )


async def test_enter_replays_the_hand_at_the_decision(log: str) -> None:
    app = BrowseApp([log])
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_mistakes(app, pilot)
        for row, found in enumerate(screen.shown):
            screen.rows.go(row)
            await pilot.press("enter")
            replay = app.screen
            assert isinstance(replay, ReplayScreen)
            assert replay.game.id == found.game
            assert replay.game.hands[replay.hand].number == found.number
            frame = replay.frame
            assert frame is not None and frame.step.line == found.step_line
            review = text_of(replay.query_one("#replay-review", Static))
            assert f"lost {found.lost}" in review
            await pilot.press("escape")
            assert app.screen is screen


async def test_the_review_is_kept_and_the_screen_opens_again_at_once(log: str) -> None:
    app = BrowseApp([log])
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_mistakes(app, pilot)
        kept = app.reviewed
        before = rows_of(screen)
        await pilot.press("escape", "m")
        again = app.screen
        assert isinstance(again, MistakesScreen) and again is not screen
        await pilot.pause()
        assert app.reviewed is kept
        assert not any(w.group == "review" for w in again.workers)
        assert rows_of(again) == before


async def test_the_replay_grades_each_decision_readable_without_colour(log: str) -> None:
    app = BrowseApp([log])
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_mistakes(app, pilot)
        top = screen.shown[0]  # review-2 hand 2: Ana folds to the reste
        await pilot.press("enter")
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        events = replay.query_one("#replay-events", DataTable)
        row = events.get_row_at(replay.position)[1]
        assert isinstance(row, Text)
        assert row.plain.endswith("  ? −13")
        review = text_of(replay.query_one("#replay-review", Static))
        assert "Ana's fold: ? mistake · best accept · lost 13 · unsound" in review
        assert top.lost == 13


async def test_the_graph_is_the_worth_to_the_player_after_each_decision(log: str) -> None:
    app = BrowseApp([log], me="Ana")
    async with app.run_test(size=SIZE) as pilot:
        await open_mistakes(app, pilot)
        await pilot.press("enter")  # review-2 hand 2, the fold: Ana concedes 1
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        chart = replay.query_one(WorthChart).render()
        assert isinstance(chart, Text)
        assert "worth to Ana, both hands face up · -1 now" in chart.plain
        # before the fold, accepting kept a won reste (12 to Ana); folding concedes 1
        assert worth_trail(replay.decisions.values(), "Ana") == [(2, 12), (3, -1)]
        assert worth_trail(replay.decisions.values(), "Marc") == [(2, -12), (3, 1)]
        await pilot.press("w")
        assert not replay.query_one(WorthChart).display


async def test_a_drill_shows_only_the_players_cards_and_judges_the_pick(log: str) -> None:
    app = BrowseApp([log])
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_mistakes(app, pilot)
        await pilot.press("d")
        drill = app.screen
        assert isinstance(drill, DrillScreen)
        await pilot.pause()
        shown = table_text(app)
        for card in ("7c", "7h", "7d"):  # Ana's: she sees them
            assert card_label(parse_card(card)) in shown
        for card in ("9c", "9h", "9d"):  # Marc's, still in his hand: she does not
            assert card_label(parse_card(card)) not in shown
        options = drill.query_one(OptionList)
        choices = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert choices == ["accept", "fold"]
        await pilot.press("enter")  # accept: the reste is won with three sevens
        verdict = text_of(drill.query_one("#drill-verdict", Static))
        assert "you chose accept: ✓ best · best accept" in verdict
        for _ in screen.shown[1:]:
            await pilot.press("n")
            await pilot.pause()
            if drill.position is not None and drill.choices:
                labels = [label for label, _ in drill.choices]
                if drill.position.mistake.kind == "play":
                    assert all(label.startswith("play ") for label in labels)
                await pilot.press("enter")
        await pilot.press("n")
        score = text_of(drill.query_one("#drill-heading", Static))
        assert score.startswith("Session over: ")
        assert f"/{len(drill.tries)} best" in score
        assert f"(the log's: {sum(m.lost for m in screen.shown)})" in score


def still_held(log: str, mistake: Any, whose: str) -> set[str]:
    """The labels of ``whose``'s cards still in their hand at the decision, read from the
    log by the replay API."""
    game = next(g for g in read_games(log) if g.id == mistake.game)
    hand = next(h for h in game.hands if h.number == mistake.number)
    position = next(i for i, step in enumerate(hand.steps) if step.line == mistake.step_line)
    played = {
        step.action.card
        for step in hand.steps[:position]
        if isinstance(step.action, Play) and step.action.player == whose
    }
    dealt = {card for card in hand.final.dealt_cards(whose) if card is not None}
    return {card_label(card) for card in dealt - played}


@pytest.mark.parametrize("player", ["Ana", "Marc"])
async def test_no_drill_shows_a_card_the_player_could_not_see(log: str, player: str) -> None:
    app = BrowseApp([log])
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_mistakes(app, pilot, player)
        assert screen.shown
        await pilot.press("d")
        drill = app.screen
        assert isinstance(drill, DrillScreen)
        checked = 0
        for mistake in screen.shown:
            await pilot.pause()
            assert drill.position is not None and drill.position.mistake == mistake
            other = "Marc" if player == "Ana" else "Ana"
            hidden = still_held(log, mistake, other)
            assert hidden  # the other player holds cards the log knows
            assert still_held(log, mistake, player) <= set(table_text(app).split())
            assert not hidden & set(table_text(app).split()), mistake
            await pilot.press("enter")  # whichever is picked, the other hand stays hidden
            assert not hidden & set(table_text(app).split()), mistake
            checked += 1
            await pilot.press("n")
        assert checked == len(screen.shown)
        assert text_of(drill.query_one("#drill-heading", Static)).startswith("Session over: ")


SCREENS: dict[str, tuple[str, ...]] = {
    "mistakes": (),
    "replay": ("enter",),
    "drill": ("d",),
    "drilled": ("d", "enter"),
    "scored": ("d", *("enter", "n") * 3),  # Ana's three decisions retried: the session's score
    "games": ("escape", "l"),  # the games whose decisions lost points, with how many
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", SCREENS)
def test_snapshot(log: str, snap_compare: Any, screen: str, size: tuple[int, int]) -> None:
    async def reach(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, BrowseApp)
        await open_mistakes(app, pilot)
        await pilot.press(*SCREENS[screen])
        if screen == "replay":  # the statistics as of the hand, counted in their process
            await wait_as_of(app, pilot)
        await pilot.pause()

    assert snap_compare(BrowseApp([log], me="Ana"), terminal_size=size, run_before=reach)


async def test_hands_sort_and_filter_by_points_lost(log: str) -> None:
    expected: dict[int, int] = {}
    for game in read_games(log):
        if game.id == "review-1":
            for hand in game.hands:
                expected[hand.number] = sum(j.lost or 0 for j in hand.review())
    assert expected[2] >= 3  # Ana's fold gave 3 (and hand 4 is not judged: 0)
    app = BrowseApp([log])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        await pilot.press("enter")
        hands = app.screen
        assert isinstance(hands, HandsScreen)
        await pilot.pause()

        def shown() -> list[tuple[int, int]]:
            rows = hands.rows
            return [
                (int(rows.row_text(i).plain.split()[0]), int(rows.row_text(i).plain.split()[-1]))
                for i in range(rows.count)
            ]

        assert shown() == sorted(expected.items())
        await pilot.press("s")
        assert [lost for _, lost in shown()] == sorted(expected.values(), reverse=True)
        await pilot.press("enter")  # the costliest hand
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert replay.game.hands[replay.hand].number == shown()[0][0]
        await pilot.press("escape", "l")
        assert shown() == sorted(
            ((n, lost) for n, lost in expected.items() if lost), key=lambda h: -h[1]
        )
        await pilot.press("s")
        assert shown() == sorted((n, lost) for n, lost in expected.items() if lost)


def lost_by_game(log: str) -> dict[str, int]:
    """The points each game's decisions lost, by the replay API."""
    return {
        game.id: sum(j.lost or 0 for hand in game.hands for j in hand.review())
        for game in read_games(log)
    }


async def test_games_sort_and_filter_by_points_lost(log: str) -> None:
    expected = lost_by_game(log)
    assert expected["review-2"] > expected["review-1"] > 0
    assert any(not lost for lost in expected.values())  # the FINAL games lose nothing
    app = BrowseApp([log])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        games = app.screen
        assert isinstance(games, GamesScreen)

        def shown() -> list[tuple[str, str]]:
            rows = games.rows
            return [
                (rows.row_text(i).plain.split()[0], rows.row_text(i).plain.split()[-1])
                for i in range(rows.count)
            ]

        assert {lost for _, lost in shown()} == {"·"}  # not reviewed yet
        await pilot.press("l")  # only the games that lost points: the logs are reviewed
        for _ in range(1000):
            if app.reviewed is not None:
                break
            await pilot.pause(0.02)
        await pilot.pause()
        costly = [(g, str(n)) for g, n in expected.items() if n]
        assert shown() == costly  # in the order of the logs
        games.sort_by("lost")  # most first
        await pilot.pause()
        assert shown() == sorted(costly, key=lambda row: -int(row[1]))
        assert games.rows.sort_key == "lost" and games.rows.sort_reverse
        await pilot.press("l")  # every game again, still most lost first
        await pilot.pause()
        every = sorted(expected.items(), key=lambda row: -row[1])
        assert [int(lost) for _, lost in shown()] == [n for _, n in every]
        await pilot.press("l", "slash", *"review-1", "enter")
        await pilot.pause(0.3)
        assert shown() == [("review-1", str(expected["review-1"]))]
        await pilot.press("enter")  # the hands list agrees, hand by hand
        hands = app.screen
        assert isinstance(hands, HandsScreen)
        assert sum(hands.lost or ()) == expected["review-1"]


@pytest.fixture
def long_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A log long enough for its review to be stopped midway: 100 simulated games
    written again and again, the players and ids renamed in each copy (a game of its
    own, not a duplicate the review would pass over)."""
    monkeypatch.chdir(tmp_path)
    simulate_to(Simulation(games=GAMES // COPIES, seed=3), tmp_path / "base.jsonl")
    data = (tmp_path / "base.jsonl").read_bytes()
    with open(tmp_path / "long.truclog.jsonl", "wb") as out:
        for k in range(COPIES):
            copy = data.replace(b'"Ana"', b'"Ana%d"' % k).replace(b'"Marc"', b'"Marc%d"' % k)
            out.write(copy.replace(b'"id":"sim3-', b'"id":"sim3-%d-' % k))
    return "long.truclog.jsonl"


GAMES, COPIES = 3000, 30


def spy_children(monkeypatch: pytest.MonkeyPatch) -> list[subprocess.Popen[bytes]]:
    """The processes started from here on (the review's child among them)."""
    started: list[subprocess.Popen[bytes]] = []
    popen = subprocess.Popen

    def spy(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        child = popen(*args, **kwargs)
        started.append(child)
        return child

    monkeypatch.setattr(subprocess, "Popen", spy)
    return started


def is_review(child: subprocess.Popen[bytes]) -> bool:
    return isinstance(child.args, list) and "truclog.tui.browse.mistakes" in child.args


async def test_x_stops_the_review_and_kills_its_process(
    long_log: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = spy_children(monkeypatch)
    app = BrowseApp([long_log])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        await pilot.press("l", "m")  # the games that lost points: the review starts
        screen = app.screen
        assert isinstance(screen, MistakesScreen)
        for _ in range(500):  # the child has read some of the log
            if screen.query_one(ProgressBar).progress:
                break
            await pilot.pause(0.02)
        assert screen.query_one(ProgressBar).progress
        await pilot.press("x")
        await pilot.pause(0.3)
        reviews = [c for c in started if is_review(c)]
        assert len(reviews) == 1
        assert reviews[0].wait(5) == -signal.SIGKILL
        assert app.reviewed is None and app.reviewing is not None
        assert app.reviewing.is_cancelled
        assert "review stopped" in text_of(screen.query_one("#mistakes-heading", Static))
        await pilot.pause(1)
        assert app.reviewed is None and not screen.rows.count
        games = app.games_screen
        assert "review stopped" in games.status and not games.only_lost
        # news of how far it had read, told as it was stopped, come late: no news any more
        read = screen.query_one(ProgressBar).progress
        for late in (games, screen):
            late.post_message(GamesReviewed(1, 2))
        await pilot.pause()
        assert "review stopped" in games.status and "reviewing" not in games.status
        assert screen.query_one(ProgressBar).progress == read != 1
        await pilot.press("escape", "m")  # opened again, the review starts over
        again = app.screen
        assert isinstance(again, MistakesScreen)
        await wait_reviewed(again, pilot)
        assert again.found is not None and again.found.games == GAMES
        assert len([c for c in started if is_review(c)]) == 2


def test_the_child_review_stops_when_asked(long_log: str, monkeypatch: pytest.MonkeyPatch) -> None:
    started = spy_children(monkeypatch)
    heard: list[int] = []
    done = mistakes.review_in_child({long_log: long_log}, {}, heard.append, lambda: len(heard) >= 1)
    assert done is None
    assert started[0].returncode == -signal.SIGKILL


def test_the_child_review_is_the_review_commands(log: str) -> None:
    from truclog.stats.review import review

    lines = {log: [game.line for game in read_games(log)]}
    done = mistakes.review_in_child({log: log}, lines, lambda read: None, lambda: False)
    assert done is not None
    found, lost = done
    decisions = review(log)
    assert lost[log] == list(lost_by_game(log).values())
    for player in ("Ana", "Marc"):
        rows = [r for r in decisions.iter_rows(named=True) if r["player"] == player and r["lost"]]
        assert found.counts(player) == (len(rows), sum(r["lost"] for r in rows))
        kept = found.of(player)
        assert [(m.step_line, m.lost, m.kind, str(m.grade), list(m.best)) for m in kept] == [
            (r["line"], r["lost"], r["kind"], r["grade"], r["best"])
            for r in sorted(rows, key=lambda r: -r["lost"])
        ]
