"""The browser's marks on answers agree with the actions table, answer by answer."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from test_answer import CLASSIC, GAMERULES

from truclog.simulate.run import Simulation, simulate_to
from truclog.stats.tables import read_tables
from truclog.tui.browse.answers import answer_reviews, review_mark
from truclog.tui.browse.index import hand_frames
from truclog.validate import CheckedGame, check_log


def _log(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.jsonl"
    if name == "simulated":
        simulate_to(Simulation(games=6, seed=3, hidden=0.3, rules="gamerules"), path)
    else:
        path.write_text({"classic": CLASSIC, "gamerules": GAMERULES}[name], encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["classic", "gamerules", "simulated"])
def test_marks_agree_with_the_table(tmp_path: Path, name: str) -> None:
    path = _log(tmp_path, name)
    games = [g for g in check_log(str(path)) if isinstance(g, CheckedGame)]
    columns = ["answer_worth_accept", "answer_worth_fold", "sound", "right", "points_given"]
    table = (
        read_tables(games)
        .actions.filter(pl.col("type").is_in(["accept", "fold"]), pl.col("pending").is_not_null())
        .select(columns)
        .rows()
    )
    marks = []
    for game in games:
        for hand in game.hands:
            for review in answer_reviews(hand_frames(game, hand)).values():
                row = (review.accept_worth, review.fold_worth, review.sound, review.right)
                if review.sound is None:
                    row = (None, None, None, None)
                marks.append((*row, review.points_given if review.sound is not None else None))
    assert len(marks) == len(table) > 0
    assert marks == table
    assert any(row[3] is not None for row in table)


def test_a_wrong_fold_is_marked(tmp_path: Path) -> None:
    game = next(g for g in check_log(str(_log(tmp_path, "classic"))) if isinstance(g, CheckedGame))
    frames = hand_frames(game, game.hands[1])
    (review,) = answer_reviews(frames).values()
    assert review_mark(review).plain == "  unsound · wrong, gave 3 · accept +2.00 / fold -1"
