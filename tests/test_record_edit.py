"""Editing a past entry: the rest of the log is checked again, then written atomically
(the lines that changed kept in ``.undone``), or the edit is refused naming the line."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from truclog.engine.actions import Play, Raise
from truclog.engine.cards import parse_card
from truclog.record.recorder import EditError, Recorder, RecordError
from truclog.validate import CheckedGame, check_log


def lines(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def two_hands(log: Path) -> Recorder:
    """Hand 1: Ana raises to 2, Marc accepts, Ana takes the first two tricks (7 beats A,
    Q beats J under classic). Hand 2: Ana deals, Marc raises to 2, Ana folds."""
    rec = Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None)
    rec.deal({"Ana": ["7h", "Q", "9s"]})
    rec.raise_("Ana", 2, note="confident")
    rec.accept("Marc")
    for player, card in [("Ana", "7h"), ("Marc", "As"), ("Ana", "Q"), ("Marc", "Jd")]:
        rec.play(player, card)
    rec.deal()
    rec.raise_("Marc", 2)
    rec.fold("Ana")
    return rec


def test_an_edit_that_still_holds_rewrites_the_results_after_it(tmp_path: Path) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    with two_hands(log) as rec:
        before = lines(log)
        assert before[2] == {"type": "raise", "player": "Ana", "to": 2, "note": "confident"}
        changed = rec.edit(2, Raise("Ana", to=3))
        # the raise and every line after it changed (results carry the new score)
        assert [e.type for e in changed] == [
            "raise",
            "accept",
            "play",
            "play",
            "play",
            "play",
            "result",
            "deal",
            "raise",
            "fold",
            "result",
        ]
        assert rec.state is not None and rec.state.score == {"Ana": 3, "Marc": 1}
    after = lines(log)
    assert after[2] == {"type": "raise", "player": "Ana", "to": 3, "note": "confident"}
    assert after[8] == {
        "type": "result",
        "winner": "Ana",
        "points": 3,
        "score": {"Ana": 3, "Marc": 0},
    }
    assert after[12] == {
        "type": "result",
        "winner": "Marc",
        "points": 1,
        "score": {"Ana": 3, "Marc": 1},
    }
    assert after[:2] == before[:2] and after[3:8] == before[3:8]
    undone = [orjson.loads(x) for x in Path(f"{log}.undone").read_bytes().splitlines()]
    assert undone == before[2:]
    (game,) = check_log(str(log))
    assert isinstance(game, CheckedGame)
    assert [d.message for d in game.diagnostics if d.severity == "error"] == []


def test_an_edit_that_breaks_a_later_line_is_refused_naming_it(tmp_path: Path) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    with two_hands(log) as rec:
        before = log.read_bytes()
        # Ana's 9 instead of her queen: Marc's jack takes the second trick, the hand
        # goes on to a third trick, and the deal of hand 2 (line 10) is too early
        with pytest.raises(EditError, match=r"would break line 10 \(deal\)"):
            rec.edit(6, Play("Ana", parse_card("9s")))
        with pytest.raises(RecordError, match="not an entry that can be edited"):
            rec.edit(8, Raise("Ana", to=3))  # the result line: the recorder's own
        with pytest.raises(RecordError, match="not an entry that can be edited"):
            rec.edit(0, Raise("Ana", to=3))
        assert log.read_bytes() == before
        assert rec.state is not None and rec.state.score == {"Ana": 2, "Marc": 1}
        assert rec.edit(2, Raise("Ana", to=2)) == []  # the same again: nothing to do
        rec.deal()  # the recorder goes on where it was
    assert not Path(f"{log}.undone").exists()


def test_state_at_is_the_play_before_the_line(tmp_path: Path) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    with two_hands(log) as rec:
        state = rec.state_at(6)
        assert state.to_act == "Ana" and len(state.results) == 1
        assert [str(c) for c in state.known_cards("Ana")[0]] == ["Q", "9s"]
