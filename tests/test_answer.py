"""Answers to raises, sound and right, on small hand-written logs worked out by hand.

Stakes of a raise: ``to`` (the raiser wins at the raised value), ``gain`` (the
answerer wins it; to the target for a reste), ``conceded`` (the raiser's score
on a fold: the previous value, or to the target for a reste refused under
``reste_refused: game``). Accepting is worth ``w*gain - l*to`` from the
answerer's chances (sound) and ``+gain / -to / 0`` with both hands face up
(right); folding ``-conceded``.

CLASSIC (7 8 A K Q J T 9; three tied tricks: the non-dealer's), Ana and Marc:

1. Marc deals, Ana 777 and Marc 999 face up. Ana raises to 2, Marc folds.
   Marc's nines cannot win a trick nor tie three (one nine is left): w = 0,
   accepting is worth -2, folding -1: sound and right, nothing given. Ana 1-0.
2. Ana deals, the same hands swapped: Marc bluffs to 2, Ana folds 777. Nothing
   can beat three sevens (one seven left ties at most one trick and Ana then
   leads a seven): w = 1, accepting +2, folding -1: unsound and wrong,
   3 points given. 1-1.
3. Marc deals, only Ana's cards face up; Ana raises, Marc folds unseen: left
   out of both judgements. 2-1.
4. Ana deals, only Ana's 777 face up; Marc raises, Ana accepts (w = 1: sound);
   Marc shows only two cards, so the answer is not judged right or wrong.
   Ana wins two tricks: 4-1.
5. Marc deals, Ana 999 and Marc 777 face up; Ana leads a nine, Marc calls reste
   (to = 12 - 1 = 11), Ana (4) accepts: gain = 12 - 4 = 8, conceded 1. Ana's
   nines cannot win: accepting is worth -11, folding -1: unsound and wrong,
   10 points given. Marc wins the game 12-4.

GAMEREULES (the same order; three tied tricks: a draw; a refused reste: the game):

1. Marc deals, A K Q each, face up. Two tied tricks, Ana leads the third and
   raises to 2; Marc accepts with his queen. From Marc's side Ana's last card
   is one of 27 unseen: 12 above the queen (four 7, four 8, two A, two K), 3
   queens, 12 below: w = l = 12/27, accepting is worth 0, folding -1: sound.
   Face up it is queen against queen, a drawn hand: accepting 0: right.
2. Ana deals, the same with Marc leading: Marc raises at the third trick and
   Ana folds: unsound, and wrong by 1 point (the draw was worth 0). Marc 1-0.
3. Marc deals, Ana 777 and Marc 999 face up; Ana leads a seven, Marc (1) calls
   reste: to = 11, gain = 12 - 0 = 12, conceded = 11 (refused: the game). Ana
   folds a sure win: accepting +12, folding -11: unsound, wrong, 23 given.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner

import truclog
from truclog.cli import main
from truclog.engine.actions import Accept, Deal, Fold, Play, Raise
from truclog.engine.cards import parse_card
from truclog.engine.rules import get_rules
from truclog.engine.state import State
from truclog.simulate.bots import STYLES
from truclog.simulate.run import Simulation, simulate_to
from truclog.solver.answer import Position, Stakes, judge, review_answer, stakes
from truclog.stats.counts import Grouping, finish
from truclog.stats.players import count
from truclog.stats.tables import answer_columns, read_tables
from truclog.validate import CheckedGame, check_log


def _game(rules: str, hands: list[list[dict[str, Any]]]) -> str:
    head = {
        "type": "game",
        "format": "truclog/1",
        "id": f"answers-{rules}",
        "rules": rules,
        "players": ["Ana", "Marc"],
        "dealer": "Marc",
        "date": "2026-11-30",
    }
    lines = [head]
    for hand in hands:
        lines.extend(hand)
    return "".join(json.dumps(line) + "\n" for line in lines)


def _deal(n: int, dealer: str, **cards: list[str]) -> dict[str, Any]:
    return {"type": "deal", "hand": n, "dealer": dealer, "cards": cards}


def _do(kind: str, player: str, **more: Any) -> dict[str, Any]:
    return {"type": kind, "player": player, **more}


def _play(player: str, card: str) -> dict[str, Any]:
    return _do("play", player, card=card)


SEVENS, NINES = ["7h", "7s", "7d"], ["9h", "9s", "9d"]

CLASSIC = _game(
    "classic",
    [
        [_deal(1, "Marc", Ana=SEVENS, Marc=NINES), _do("raise", "Ana", to=2), _do("fold", "Marc")],
        [_deal(2, "Ana", Ana=SEVENS, Marc=NINES), _do("raise", "Marc", to=2), _do("fold", "Ana")],
        [_deal(3, "Marc", Ana=["7h", "8h", "Ah"]), _do("raise", "Ana", to=2), _do("fold", "Marc")],
        [
            _deal(4, "Ana", Ana=SEVENS),
            _do("raise", "Marc", to=2),
            _do("accept", "Ana"),
            *(_play(p, c) for p, c in [("Marc", "9c"), ("Ana", "7h"), ("Ana", "7s")]),
            _play("Marc", "9d"),
        ],
        [
            _deal(5, "Marc", Ana=NINES, Marc=SEVENS),
            _play("Ana", "9h"),
            _do("raise", "Marc", reste=True),
            _do("accept", "Ana"),
            *(_play(p, c) for p, c in [("Marc", "7h"), ("Marc", "7s"), ("Ana", "9s")]),
        ],
    ],
)

_ACES = ["Ah", "Kh", "Qh"], ["As", "Ks", "Qs"]
_TIES = [("Ana", "Ah"), ("Marc", "As"), ("Ana", "Kh"), ("Marc", "Ks")]

GAMERULES = _game(
    "gamerules",
    [
        [
            _deal(1, "Marc", Ana=_ACES[0], Marc=_ACES[1]),
            *(_play(p, c) for p, c in _TIES),
            _do("raise", "Ana", to=2),
            _do("accept", "Marc"),
            _play("Ana", "Qh"),
            _play("Marc", "Qs"),
        ],
        [
            _deal(2, "Ana", Ana=_ACES[1], Marc=_ACES[0]),
            *(_play("Ana" if p == "Marc" else "Marc", c) for p, c in _TIES),
            _do("raise", "Marc", to=2),
            _do("fold", "Ana"),
        ],
        [
            _deal(3, "Marc", Ana=SEVENS, Marc=NINES),
            _play("Ana", "7h"),
            _do("raise", "Marc", reste=True),
            _do("fold", "Ana"),
        ],
    ],
)

COLUMNS = ["hand", "type", "player", "answer_worth_accept", "answer_worth_fold", "sound", "right"]


def _tables(tmp_path: Path, text: str) -> Any:
    path = tmp_path / "answers.jsonl"
    path.write_text(text, encoding="utf-8")
    games = [g for g in check_log(str(path)) if isinstance(g, CheckedGame)]
    assert all(hand.ok for game in games for hand in game.hands)
    return read_tables(games)


def _answers(tmp_path: Path, text: str) -> list[tuple[Any, ...]]:
    actions = _tables(tmp_path, text).actions
    answers = actions.filter(pl.col("type").is_in(["accept", "fold"]))
    return answers.select([*COLUMNS, "points_given"]).rows()


def test_classic_answers(tmp_path: Path) -> None:
    assert _answers(tmp_path, CLASSIC) == [
        (1, "fold", "Marc", -2.0, -1.0, True, True, 0),  # a right fold
        (2, "fold", "Ana", 2.0, -1.0, False, False, 3),  # a wrong fold
        (3, "fold", "Marc", None, None, None, None, None),  # unknown hand: left out
        (4, "accept", "Ana", 2.0, -1.0, True, None, None),  # the raiser's hand unknown
        (5, "accept", "Ana", -11.0, -1.0, False, False, 10),  # a reste: to 11, gain 8
    ]


def test_gamerules_answers(tmp_path: Path) -> None:
    assert _answers(tmp_path, GAMERULES) == [
        (1, "accept", "Marc", 0.0, -1.0, True, True, 0),  # a drawn hand
        (2, "fold", "Ana", 0.0, -1.0, False, False, 1),
        (3, "fold", "Ana", 12.0, -11.0, False, False, 23),  # refused reste: the game
    ]


def _player(tmp_path: Path, text: str, name: str) -> dict[str, Any]:
    rows = finish(count(_tables(tmp_path, text), Grouping()), names=[name])
    return rows[0]


def test_player_counts(tmp_path: Path) -> None:
    ana = _player(tmp_path, CLASSIC, "Ana")
    expected = {
        "answers_known": 3,
        "answers_sound": 1,
        "answers_judged": 2,
        "answers_right": 0,
        "folds_judged": 1,
        "folds_right": 0,
        "accepts_judged": 1,
        "accepts_right": 0,
        "points_given": 13,
    }
    assert {k: ana[k] for k in expected} == expected
    assert ana["sound_rate"] == pytest.approx(1 / 3)
    assert ana["right_rate"] == 0.0
    assert ana["sound_rate_low"] < 1 / 3 < ana["sound_rate_high"]
    marc = _player(tmp_path, CLASSIC, "Marc")
    assert (marc["answers_known"], marc["answers_judged"], marc["folds_right"]) == (1, 1, 1)
    assert (marc["fold_right_rate"], marc["accept_right_rate"], marc["points_given"]) == (
        1.0,
        None,
        0,
    )


def test_review_from_the_engine_state() -> None:
    """The position at the reste of CLASSIC's fifth hand, as an engine state."""
    state = State.new(["Ana", "Marc"], dealer="Marc", rules="classic")
    state.adopt_score({"Ana": 4, "Marc": 1})
    cards = {"Ana": [parse_card(c) for c in NINES], "Marc": [parse_card(c) for c in SEVENS]}
    state.push(Deal.of("Marc", cards))
    state.push(Play("Ana", parse_card("9h")))
    state.push(Raise("Marc", reste=True))
    review = review_answer(state, Accept("Ana"))
    assert review is not None
    assert review.stakes == Stakes(to=11, gain=8, conceded=1)
    assert (review.accept_worth, review.sound, review.right, review.points_given) == (
        -11.0,
        False,
        False,
        10,
    )
    assert review_answer(state, Fold("Marc")) is None  # not the answerer


def test_stakes_of_a_reste_refused_to_the_game() -> None:
    gamerules, classic = get_rules("gamerules"), get_rules("classic")
    assert stakes(gamerules, 1, 0, to=11, previous=1, reste=True) == Stakes(11, 12, 11)
    assert stakes(classic, 1, 0, to=11, previous=1, reste=True) == Stakes(11, 12, 1)
    assert stakes(gamerules, 1, 0, to=3, previous=1, reste=False) == Stakes(3, 3, 1)


def test_drawn_odds_from_ranks() -> None:
    """GAMERULES's first answer from ranks: w = l = 12/27, a draw 3/27."""
    review = judge(
        get_rules("gamerules"),
        True,
        Stakes(2, 2, 1),
        Position("AK", "AK", "TT", on_table=False, dealer=True),
        "AKQ",
        "AKQ",
    )
    assert review.odds is not None
    assert (review.odds.wins, review.odds.draws, review.odds.weights) == (12, 3, 27)
    assert review.outcome == 0.5


def _simulated_answers(tmp_path: Path, style: str) -> tuple[pl.DataFrame, dict[str, Any]]:
    """Marc answers a bluffer's raises with ``style``; the same seed, so the same deals
    until the first answer that differs."""
    path = tmp_path / f"{style}.jsonl"
    styles = {"Ana": STYLES["bluffer"], "Marc": STYLES[style]}
    simulate_to(Simulation(games=20, seed=5, styles=styles), path)
    tables = _tables(tmp_path, path.read_text(encoding="utf-8"))
    judged = tables.actions.filter(
        pl.col("player") == "Marc",
        pl.col("type").is_in(["accept", "fold"]),
        pl.col("right").is_not_null(),
    )
    return judged, finish(count(tables, Grouping()), names=["Marc"])[0]


def test_a_calling_station_misses_the_right_folds(tmp_path: Path) -> None:
    """Ground truth from the simulator: the calling station accepts where folding
    was worth more, far more often than the balanced bot does."""
    shares = {}
    for style in ("calling-station", "balanced"):
        judged, marc = _simulated_answers(tmp_path, style)
        fold = pl.col("type") == "fold"
        fold_better = judged.filter(fold == pl.col("right"))
        shares[style] = fold_better.filter(fold).height / fold_better.height
        assert marc["answers_judged"] == judged.height
        assert marc["folds_right"] == judged.filter(fold & pl.col("right")).height
        assert marc["points_given"] == judged.get_column("points_given").sum()
        shares[f"{style} right"] = marc["right_rate"]
    assert shares["calling-station"] < shares["balanced"] / 2
    assert shares["calling-station right"] < shares["balanced right"]


def test_stats_command_reports_the_review(tmp_path: Path) -> None:
    path = tmp_path / "classic.jsonl"
    path.write_text(CLASSIC, encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["stats", "--format", "json", "--by", "opponent", str(path)])
    assert result.exit_code == 0, result.output
    ana = next(r for r in json.loads(result.stdout)["players"] if r["player"] == "Ana")
    assert (ana["opponent"], ana["answers_judged"], ana["points_given"]) == ("Marc", 2, 13)
    assert (ana["fold_right_rate"], ana["fold_right_rate_low"]) == (0.0, 0.0)
    assert 0 < ana["right_rate_high"] < 1
    table = runner.invoke(main, ["stats", str(path)], env={"COLUMNS": "400"})  # every column
    assert table.exit_code == 0, table.output
    assert "answers right" in table.stdout and "0% (0/2)" in table.stdout


@pytest.mark.parametrize("name", ["classic", "gamerules", "simulated"])
def test_engine_state_review_agrees_with_the_table(tmp_path: Path, name: str) -> None:
    """:func:`review_answer` on the engine's state at each answer gives the columns
    the tables compute from ranks, answer by answer."""
    texts = {"classic": CLASSIC, "gamerules": GAMERULES}
    path = tmp_path / f"{name}.jsonl"
    if name == "simulated":
        simulate_to(Simulation(games=6, seed=3, hidden=0.3, rules="gamerules"), path)
    else:
        path.write_text(texts[name], encoding="utf-8")
    tables = _tables(tmp_path, path.read_text(encoding="utf-8"))
    games = [g for g in check_log(str(path)) if isinstance(g, CheckedGame)]
    cards = {(row["fingerprint"], row["hand"]): row for row in tables.hands.iter_rows(named=True)}
    columns = ["answer_worth_accept", "answer_worth_fold", "sound", "right", "points_given"]
    answers = tables.actions.filter(
        pl.col("type").is_in(["accept", "fold"]), pl.col("pending").is_not_null()
    )
    reviewed = []
    for game in games:
        for hand in game.hands:
            row = cards[game.fingerprint, hand.number]
            dealt = dict(zip(row["players"], row["cards"], strict=True))
            state = hand.start.copy()
            for step in hand.steps:
                action = step.action
                if action is None:
                    continue
                if isinstance(action, Accept | Fold) and state.pending is not None:
                    raiser = state.players[state.pending.raiser]
                    review = review_answer(state, action, dealt[action.player], dealt[raiser])
                    assert review is not None
                    reviewed.append(answer_columns(review))
                state.push(action)
    assert len(reviewed) == answers.height > 0
    assert reviewed == answers.select(columns).rows()
    assert answers.get_column("right").drop_nulls().len() > 0


def test_player_stats_api_has_the_review(tmp_path: Path) -> None:
    path = tmp_path / "classic.jsonl"
    path.write_text(CLASSIC, encoding="utf-8")
    stats = truclog.player_stats(str(path)).filter(pl.col("player") == "Ana")
    columns = ["answers_known", "answers_sound", "answers_judged", "points_given", "right_rate"]
    assert stats.select(columns).row(0) == (3, 1, 2, 13, 0.0)
