"""The answer review and the ratings in ``truclog browse``, on a log worked out by hand.

REVIEW-1, under ``gamerules`` (7 8 A K Q J T 9; three tied tricks: a drawn hand; the
non-dealer leads; after a tied trick its leader leads again). Stakes of a raise to 2
from 1 at any score here: the raiser wins 2, the answerer wins 2, a fold concedes 1.
Accepting is worth ``w*2 - l*2`` from the answerer's chances (sound) and +2, -2 or 0
with both hands face up (right); folding -1.

1. Marc deals; Ana A K Q, Marc A K Q. Two tied tricks, Ana raises before the last one
   and Marc accepts. Ana's last card is one of the 27 Marc cannot see (32 less his
   three, less her A and K): 12 beat his queen (four 7, four 8, two A, two K), 3 tie
   (a draw), 12 are below: w = l = 12/27 (44%), accepting is worth 0.00, folding -1:
   sound. Face up it is a queen: a draw, accepting 0, folding -1: right, 0 given.
2. Ana deals; Marc A K Q, Ana A K 7. Two tied tricks, Marc raises, Ana folds her
   seven. Of the 27 cards she cannot see, 24 lose to her seven and 3 sevens tie
   (a draw): w = 24/27 (89%), l = 0, accepting +1.78, folding -1: unsound. Face up
   her seven beats his queen: accepting +2, folding -1: wrong, 3 given. Marc 0-1.
3. Marc deals; the position of hand 1, and Marc folds: unsound (0.00 against -1).
   Ana shows a seven: accepting would have lost 2, folding lost 1: right. 1-1.
4. Ana deals, no card known; Marc raises and Ana folds: her hand is unknown. 1-2.
5. Marc deals; Marc 7 7 7 face up, Ana's never all seen. Ana raises, Marc
   accepts: no card beats a seven and one seven left ties one trick at most: w = 1,
   accepting +2.00, folding -1: sound; right or wrong is unknown. 1-4.

REVIEW-2, under ``classic`` (the same order; three tied tricks: the non-dealer's):

1. Marc deals; Ana 9 9 9, Marc 7 7 7. Ana leads a nine, Marc raises, Ana accepts:
   her nines win nothing (w = 0, l = 1): accepting -2.00, folding -1: unsound, and
   face up wrong: 1 given. 0-2.
2. Ana deals; Ana 7 7 7, Marc 9 9 9. Marc (2) calls reste: 12 - 2 = 10; Ana (0)
   would win 12 - 0 = 12; refused, Marc scores the previous 1. Ana folds a sure win:
   accepting +12, folding -1: unsound, wrong, 13 given. 0-3.

So Ana's costliest answers are 13 (review-2 hand 2), 3 (review-1 hand 2) and 1
(review-2 hand 1): 3 answers, 17 points; Marc gave nothing away.

FINAL-1 to FINAL-3 start at 11-11, one hand each (a sure two tricks), on three days:
Ana, Marc, then Ana win; the review games are never finished, so only these are rated.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner
from rich.text import Text
from test_browse import wait_as_of, wait_loaded
from textual.pilot import Pilot
from textual.widgets import DataTable, Static
from textual_plotext import PlotextPlot

import truclog
from truclog.cli import main
from truclog.tui.browse import BrowseApp
from truclog.tui.browse.index import hand_frames
from truclog.tui.browse.messages import StatsReady
from truclog.tui.browse.review import answer_notes
from truclog.tui.browse.screens import CostlyAnswersScreen, PlayersScreen, ReplayScreen
from truclog.tui.browse.screens.players import COLUMNS
from truclog.tui.browse.standings import Hindsight, Rated
from truclog.validate import CheckedGame, check_log

SIZE = (120, 36)
SIZES = [(80, 24), (160, 50)]


def _game(id_: str, rules: str, date: str, **more: Any) -> dict[str, Any]:
    return {"type": "game", "format": "truclog/1", "id": id_, "date": date, "rules": rules,
            "players": ["Ana", "Marc"], "dealer": "Marc", **more}  # fmt: skip


def _deal(hand: int, dealer: str, cards: dict[str, list[str]] | None = None) -> dict[str, Any]:
    return {"type": "deal", "hand": hand, "dealer": dealer, **({"cards": cards} if cards else {})}


def _do(kind: str, player: str, **more: Any) -> dict[str, Any]:
    return {"type": kind, "player": player, **more}


def _play(player: str, card: str) -> dict[str, Any]:
    return _do("play", player, card=card)


def _result(winner: str | None, points: int, ana: int, marc: int) -> dict[str, Any]:
    return {"type": "result", "winner": winner, "points": points,
            "score": {"Ana": ana, "Marc": marc}}  # fmt: skip


ABANDONED = {"type": "game_end", "abandoned": True}

REVIEW = [
    _game("review-1", "gamerules", "2026-11-30"),
    _deal(1, "Marc", {"Ana": ["Ah", "Kh", "Qh"], "Marc": ["As", "Ks", "Qs"]}),
    _play("Ana", "Ah"), _play("Marc", "As"), _play("Ana", "Kh"), _play("Marc", "Ks"),
    _do("raise", "Ana", to=2), _do("accept", "Marc"),
    _play("Ana", "Qh"), _play("Marc", "Qs"), _result(None, 0, 0, 0),
    _deal(2, "Ana", {"Ana": ["As", "Ks", "7s"], "Marc": ["Ah", "Kh", "Qh"]}),
    _play("Marc", "Ah"), _play("Ana", "As"), _play("Marc", "Kh"), _play("Ana", "Ks"),
    _do("raise", "Marc", to=2), _do("fold", "Ana"), _do("show", "Ana", cards=["7s"]),
    _result("Marc", 1, 0, 1),
    _deal(3, "Marc", {"Ana": ["Ac", "Kc", "??"], "Marc": ["Ad", "Kd", "Qd"]}),
    _play("Ana", "Ac"), _play("Marc", "Ad"), _play("Ana", "Kc"), _play("Marc", "Kd"),
    _do("raise", "Ana", to=2), _do("fold", "Marc"), _do("show", "Ana", cards=["7c"]),
    _result("Ana", 1, 1, 1),
    _deal(4, "Ana"), _do("raise", "Marc", to=2), _do("fold", "Ana"), _result("Marc", 1, 1, 2),
    _deal(5, "Marc", {"Marc": ["7c", "7d", "7h"]}),
    _do("raise", "Ana", to=2), _do("accept", "Marc"),
    _play("Ana", "8s"), _play("Marc", "7c"), _play("Marc", "7d"), _play("Ana", "Ks"),
    _result("Marc", 2, 1, 4), ABANDONED,
    _game("review-2", "classic", "2026-11-30"),
    _deal(1, "Marc", {"Ana": ["9c", "9h", "9d"], "Marc": ["7c", "7h", "7d"]}),
    _play("Ana", "9c"), _do("raise", "Marc", to=2), _do("accept", "Ana"),
    _play("Marc", "7c"), _play("Marc", "7h"), _play("Ana", "9h"), _result("Marc", 2, 0, 2),
    _deal(2, "Ana", {"Ana": ["7c", "7h", "7d"], "Marc": ["9c", "9h", "9d"]}),
    _do("raise", "Marc", reste=True), _do("fold", "Ana"), _result("Marc", 1, 0, 3), ABANDONED,
]  # fmt: skip

ANA_WINS = [_play("Ana", "7h"), _play("Marc", "9s"), _play("Ana", "8h"), _play("Marc", "Ts")]
MARC_WINS = [_play("Ana", "9h"), _play("Marc", "7s"), _play("Marc", "8s"), _play("Ana", "Th")]
FINAL = [
    line
    for day, plays in (("2026-12-01", ANA_WINS), ("2026-12-02", MARC_WINS), ("2026-12-03", ANA_WINS))
    for line in (_game(f"final-{day[-1]}", "classic", day, score={"Ana": 11, "Marc": 11}),
                 _deal(1, "Marc"), *plays)
]  # fmt: skip


@pytest.fixture
def log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "review.truclog.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in REVIEW + FINAL), "utf-8")
    return path.name


def test_the_log_is_clean(log: str) -> None:
    result = CliRunner().invoke(main, ["validate", log])
    assert result.exit_code == 0 and "0 errors, 0 warnings" in result.output, result.output


async def wait_rated(app: BrowseApp, pilot: Pilot[None]) -> PlayersScreen:
    """Open the players screen and wait for the statistics and the ratings."""
    await wait_loaded(app, pilot)
    await pilot.press("p")
    for _ in range(3000):
        if app.stats is not None and app.stats.hindsight is not None:
            break
        await pilot.pause(0.02)
    await pilot.pause()
    assert isinstance(app.screen, PlayersScreen) and app.stats and app.stats.hindsight
    return app.screen


def text_of(widget: Static) -> str:
    return str(widget.render())


def events_of(app: BrowseApp) -> list[str]:
    events = app.screen.query_one("#replay-events", DataTable)
    return [str(events.get_row_at(i)[1]) for i in range(events.row_count)]


def title_of(app: BrowseApp) -> str:
    return text_of(app.screen.query_one("#replay-title", Static))


def note_of(app: BrowseApp) -> str:
    return text_of(app.screen.query_one("#replay-answer", Static))


# (hand, the answer's event, its marks and grade, the worths said on that event)
MARKED = [
    (1, "Marc accepts", "sound, right  ✓",
     ["sound (from Marc's cards: wins 44%, loses 44%)", "accept 0.00, fold -1",
      "in hindsight: accept 0, fold -1: right"]),
    (2, "Ana folds", "unsound, wrong: gave 3  ?? −3",
     ["unsound (from Ana's cards: wins 89%, loses 0%)", "accept +1.78, fold -1",
      "in hindsight: accept +2, fold -1: wrong, gave away 3"]),
    (3, "Marc folds", "unsound, right  ✓",
     ["unsound (from Marc's cards: wins 44%, loses 44%)", "accept 0.00, fold -1",
      "in hindsight: accept -2, fold -1: right"]),
    (4, "Ana folds", "hand unknown", ["Ana's hand is not known, so it is not judged"]),
    (5, "Marc accepts", "sound, raiser's hand unknown",
     ["sound (from Marc's cards: wins 100%, loses 0%)", "accept +2.00, fold -1",
      "in hindsight: Ana's hand is not known"]),
]  # fmt: skip


async def test_each_answer_is_marked_with_its_worths(log: str) -> None:
    app = BrowseApp([log])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        await pilot.press("enter", "enter")
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        for hand, answer, marks, worths in MARKED:
            assert f"review-1 · hand {hand} " in title_of(app)
            rows = events_of(app)
            answers = [i for i, row in enumerate(rows) if row.startswith(answer)]
            assert len(answers) == 1 and rows[answers[0]] == f"{answer}  {marks}"
            assert note_of(app) == ""  # the worths are told on the answer only
            replay.go(answers[0])
            await pilot.pause()
            note = note_of(app)
            for words in worths:
                assert words in note
            # no other event is judged: raises, plays and shows are not answers
            judged = [row for row in rows if "sound" in row]
            assert judged == ([f"{answer}  {marks}"] if "sound" in marks else [])
            await pilot.press("n")


def test_the_text_of_a_hand_has_the_marks(log: str) -> None:
    result = CliRunner().invoke(main, ["show", log, "--game", "review-1", "--hand", "4"])
    assert result.exit_code == 0, result.output
    assert "\nAna folds  [hand unknown]\n" in result.output
    result = CliRunner().invoke(main, ["show", log, "--game", "review-2", "--hand", "2"])
    assert "\nAna folds  [unsound, wrong: gave 13]\n" in result.output


def test_marks_are_the_statistics_judgements(log: str) -> None:
    """Every answer the browser marks carries the review of the statistics' table row."""
    table = truclog.tables(log).actions.filter(
        pl.col("type").is_in(["accept", "fold"]) & pl.col("pending").is_not_null()
    )
    columns = ["game", "hand", "player", "sound", "right", "points_given", "answer_worth_accept"]
    expected = [tuple(row) for row in table.select(columns).iter_rows()]
    shown = []
    for game in check_log(log):
        assert isinstance(game, CheckedGame)
        for hand in game.hands:
            for note in answer_notes(hand_frames(game, hand)).values():
                review = note.review
                assert review is not None
                worth = review.accept_worth
                row = (review.sound, review.right, review.points_given, worth)
                if worth is None:  # unknown hand: the table leaves every column empty
                    row = (None, None, None, None)
                shown.append((game.id, hand.number, note.player, *row))
    assert shown == expected and len(shown) == 7


async def test_costliest_answers_in_order_open_their_hand(log: str) -> None:
    app = BrowseApp([log])
    async with app.run_test(size=SIZE) as pilot:
        players = await wait_rated(app, pilot)
        rows = [[str(c) for c in players.table.get_row_at(i)] for i in range(2)]
        given = [label for label, _ in COLUMNS].index("given")
        assert {row[0]: row[given] for row in rows} == {"Ana": "17", "Marc": "0"}
        ana = [row[0] for row in rows].index("Ana")
        players.table.move_cursor(row=ana, column=given)
        await pilot.press("enter")  # on the points given: the costliest answers
        screen = app.screen
        assert isinstance(screen, CostlyAnswersScreen)
        assert "Ana: 3 answers gave 17 points away" in text_of(
            screen.query_one("#answers-heading", Static)
        )
        table = screen.query_one(DataTable)
        listed = [[str(c) for c in table.get_row_at(i)][:4] for i in range(table.row_count)]
        assert listed == [
            ["13", "review-2", "2", "fold 10"],
            ["3", "review-1", "2", "fold 2"],
            ["1", "review-2", "1", "accept 2"],
        ]
        for row, (game, hand, answer, marks) in enumerate(
            [
                ("review-2", 2, "Ana folds", "unsound, wrong: gave 13  ? −13"),
                ("review-1", 2, "Ana folds", "unsound, wrong: gave 3  ?? −3"),
                ("review-2", 1, "Ana accepts", "unsound, wrong: gave 1  ?! −1"),
            ]
        ):
            table.move_cursor(row=row)
            await pilot.press("enter")
            replay = app.screen
            assert isinstance(replay, ReplayScreen)
            assert f"{game} · hand {hand} " in title_of(app)
            assert events_of(app)[replay.position] == f"{answer}  {marks}"
            await pilot.press("escape")
            assert app.screen is screen
        await pilot.press("escape")
        marc = 1 - ana
        players.table.move_cursor(row=marc, column=0)
        await pilot.press("a")
        assert isinstance(app.screen, CostlyAnswersScreen)
        heading = text_of(app.screen.query_one("#answers-heading", Static))
        assert heading == "Marc: no answer gave points away"
        assert app.screen.query_one(DataTable).row_count == 0


def ratings_json(log: str, *more: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["ratings", "--format", "json", *more, log])
    assert result.exit_code == 0, result.output
    return {p["player"]: p for p in json.loads(result.stdout)["players"]}


async def test_the_ordinal_is_the_ratings_commands(log: str) -> None:
    expected = ratings_json(log, "--history")
    assert (expected["Ana"]["wins"], expected["Marc"]["wins"]) == (2, 1)
    app = BrowseApp([log])
    async with app.run_test(size=SIZE) as pilot:
        players = await wait_rated(app, pilot)
        assert app.stats is not None and app.stats.hindsight is not None
        rated = {r.player: r for r in app.stats.hindsight.ratings}
        ordinal = [label for label, _ in COLUMNS].index("ordinal")
        for i in range(players.table.row_count):
            row = [str(c) for c in players.table.get_row_at(i)]
            cli = expected[row[0]]
            assert row[ordinal] == f"{cli['ordinal']:.2f}"
            assert rated[row[0]].ordinal == cli["ordinal"]
            # the chart: from 0 games (a new player's ordinal, 0) to now, game after game
            history = [(n, h["ordinal"]) for n, h in enumerate(cli["history"], 1)]
            assert rated[row[0]].trail == [(0, 0.0), *history]
        # the chart follows the cursor: its title names the player and the ordinal now
        for player in ("Ana", "Marc"):
            at = [str(players.table.get_row_at(i)[0]) for i in range(2)].index(player)
            players.table.move_cursor(row=at, column=0)
            await pilot.pause()
            assert players.charted == player
            title = f"{player}: ordinal {expected[player]['ordinal']:.2f} after 3 games"
            chart = players.query_one("#players-ordinal", PlotextPlot).render()
            assert isinstance(chart, Text) and title in chart.plain


SCREENS: dict[str, tuple[str, ...]] = {
    "answer": ("enter", "enter", "n", *("right",) * 6),
    "players": ("p",),
    "answers": ("p", "a"),
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", SCREENS)
def test_snapshot(log: str, snap_compare: Any, screen: str, size: tuple[int, int]) -> None:
    async def reach(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, BrowseApp)
        if screen == "answer":
            await wait_loaded(app, pilot)
            await pilot.press(*SCREENS[screen])
            await wait_as_of(app, pilot)
        else:
            await wait_rated(app, pilot)
            app.screen.query_one("#players-table", DataTable).move_cursor(row=0, column=0)
            await pilot.press(*SCREENS[screen][1:])
        await pilot.pause()

    assert snap_compare(BrowseApp([log]), terminal_size=size, run_before=reach)


def test_answers_of_four_players_are_not_judged(tmp_path: Path) -> None:
    """As for statistics: a partner's hand would have to be modelled, so no review."""
    club = [
        {"type": "game", "format": "truclog/1", "id": "club", "rules": "classic",
         "players": ["Ana", "Marc", "Lu", "Zoé"], "dealer": "Zoé"},
        {"type": "deal", "hand": 1, "dealer": "Zoé",
         "cards": {"Ana": ["7h", "7s", "7d"], "Marc": ["9h", "9s", "9d"],
                   "Lu": ["8h", "8s", "8d"], "Zoé": ["Th", "Ts", "Td"]}},
        _do("raise", "Ana", to=2), _do("fold", "Zoé"), ABANDONED,
    ]  # fmt: skip
    path = tmp_path / "club.truclog.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in club), "utf-8")
    (game,) = check_log(str(path))
    assert isinstance(game, CheckedGame) and not game.diagnostics
    frames = hand_frames(game, game.hands[0])
    (note,) = answer_notes(frames).values()
    assert (note.player, note.raiser, note.review) == ("Zoé", "Ana", None)
    assert note.marks() == "not judged (four players)"
    result = CliRunner().invoke(main, ["show", str(path), "--game", "club", "--hand", "1"])
    assert "\nZoé folds  [not judged (four players)]\n" in result.output


async def test_a_thinned_history_says_how_often_it_is_charted(log: str) -> None:
    """A history capped to fewer points than games is charted every ``stride`` games,
    and the chart says so."""
    app = BrowseApp([log])
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(app, pilot)
        rows = [{"player": "Ana", **{key: 0 for _, key in COLUMNS[1:]}}]
        for key in ("fold_rate", "bluff_rate"):
            rows[0].update({key: None, f"{key}_low": None, f"{key}_high": None})
        trail = [(0, 0.0), (4, 1.5), (8, 2.5), (9, 3.0)]
        ana = Rated("Ana", 28.0, 8.0, 4.0, 9, 6, trail, stride=4)
        app.stats = StatsReady(rows, 9, Hindsight([ana], {}))
        await pilot.press("p")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayersScreen)
        chart = screen.query_one("#players-ordinal", PlotextPlot).render()
        assert isinstance(chart, Text)
        assert "Ana: ordinal 4.00 after 9 games" in chart.plain
        assert "games played (a point every 4 games)" in chart.plain
