"""Notes files beside logs: written under a lock, read back, merged into the hands, never read as logs."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import stat
from pathlib import Path

import pytest

import truclog
from truclog.format.reader import log_files
from truclog.record.annotations import (
    Annotation,
    AnnotationError,
    annotate,
    local_now,
    notes_path,
    read_notes,
)

ROOT = Path(__file__).resolve().parent.parent
CAFE = ROOT / "sample_logs" / "2026-11-29-cafe-du-port-classic.truclog.jsonl"
GAME = "cafe-du-port-2026-11-29-1"


@pytest.fixture
def log(tmp_path: Path) -> Path:
    copy = tmp_path / "server.truclog.jsonl"
    shutil.copy(CAFE, copy)
    copy.chmod(0o444)  # a log we do not own: never written
    return copy


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_an_annotation_goes_to_the_notes_file_and_never_to_the_log(log: Path) -> None:
    before = log.read_bytes()
    made = annotate(log, GAME, 2, 3, note="why raise?", add=["bluff?", "review"], clock=None)
    assert made == Annotation(GAME, 2, 3, "why raise?", ("bluff?", "review"))
    assert log.read_bytes() == before
    assert notes_path(log) == log.with_name(log.name + ".notes.jsonl")
    assert lines(notes_path(log)) == [
        {"game": GAME, "hand": 2, "step": 3, "note": "why raise?", "marks": ["bluff?", "review"]}
    ]


def test_edits_of_a_step_change_its_one_line_and_leave_the_others(log: Path) -> None:
    annotate(log, GAME, 1, 1, add=["misdeal"], clock=None)
    annotate(log, GAME, 2, 3, note="first", add=["bluff?"], clock=None)
    annotate(log, GAME, 2, 3, add=["review", "bluff?"], remove=["bluff?"], clock=None)
    annotate(log, GAME, 2, 3, note="", add=["bluff?"], clock=None)
    kept = read_notes(log).annotations
    assert kept[GAME, 1, 1].marks == ("misdeal",)
    assert kept[GAME, 2, 3] == Annotation(GAME, 2, 3, None, ("review", "bluff?"))
    annotate(log, GAME, 2, 3, remove=["review", "bluff?"], clock=None)
    assert list(read_notes(log).annotations) == [(GAME, 1, 1)]
    assert len(notes_path(log).read_text().splitlines()) == 1


def test_an_annotation_is_timed_by_its_clock(log: Path) -> None:
    made = annotate(log, GAME, 3, 2, note="late", clock=local_now)
    assert made.t is not None and made.t[:4].isdigit() and made.t[10] == "T"
    assert read_notes(log).annotations[GAME, 3, 2].t == made.t


@pytest.mark.parametrize("mark", ["", "x" * 41, "é" * 41])
def test_a_bad_mark_is_refused_and_nothing_is_written(log: Path, mark: str) -> None:
    with pytest.raises(AnnotationError) as refused:
        annotate(log, GAME, 1, 1, add=["ok", mark])
    assert refused.value.code == "E008" and "1 to 40 characters" in refused.value.message
    assert not notes_path(log).exists()


def test_a_mark_of_forty_characters_is_kept(log: Path) -> None:
    annotate(log, GAME, 1, 1, add=["é" * 40], clock=None)
    assert read_notes(log).annotations[GAME, 1, 1].marks == ("é" * 40,)


def test_read_games_merges_the_notes_file_into_the_hands(log: Path) -> None:
    annotate(log, GAME, 3, 6, note="too bold?", add=["bluff?"], clock=None)
    game = next(truclog.read_games(log))
    third = game.hands[2]
    at_raise = third.annotations_at(6)
    assert [(a.source, a.note) for a in at_raise] == [
        ("log", "bluff? Ana raises with the 7 on the table"),
        ("notes", "too bold?"),
    ]
    assert third.steps[5].line == 25  # step 6 is the hand's sixth line: the raise
    assert third.marks == ("bluff?",)
    assert [h.number for h in game.hands if "bluff?" in h.marks] == [3]
    assert "too bold?" in [a.note for a in game.annotations]


def test_marks_written_in_the_log_are_the_hands_marks(tmp_path: Path) -> None:
    rows = CAFE.read_text().splitlines()
    raise_line = json.loads(rows[24])
    raise_line["marks"] = ["bluff?", "review"]
    rows[24] = json.dumps(raise_line, ensure_ascii=False)
    path = tmp_path / "marked.truclog.jsonl"
    path.write_text("\n".join(rows) + "\n")
    game = next(truclog.read_games(path))
    assert game.diagnostics == []
    assert game.hands[2].marks == ("bluff?", "review")
    (mark,) = [a for a in game.hands[2].annotations if a.marks]
    assert (mark.step, mark.source, mark.t) == (6, "log", "2026-11-29T20:14:30+01:00")


def test_a_bad_line_of_a_notes_file_is_a_problem_and_is_kept_by_edits(log: Path) -> None:
    notes = notes_path(log)
    bad = [
        json.dumps({"game": GAME, "hand": 1, "step": 1, "marks": [""]}),
        "not json",
        json.dumps({"game": GAME, "hand": 1, "step": 2, "colour": "red"}),
    ]
    notes.write_text("\n".join(bad) + "\n")
    found = read_notes(log)
    assert [(p.line, p.code) for p in found.problems] == [(1, "E008"), (2, "E001"), (3, "E003")]
    assert all(p.path == str(notes) for p in found.problems)
    outside: list[truclog.validate.Diagnostic] = []
    assert len(list(truclog.read_games(log, outside=outside))) == 1
    assert "unknown field 'colour'" in outside[2].message
    assert [p.code for p in outside] == ["E008", "E001", "E003"]
    annotate(log, GAME, 2, 2, note="kept", clock=None)
    assert notes.read_text().splitlines()[:3] == bad


def test_the_last_line_of_a_step_wins(log: Path) -> None:
    notes_path(log).write_text(
        '{"game":"g","hand":1,"step":1,"note":"old"}\n{"game":"g","hand":1,"step":1,"note":"new"}\n'
    )
    assert read_notes(log).annotations["g", 1, 1].note == "new"


def test_a_folder_walk_and_a_pattern_never_read_a_notes_file_as_a_log(log: Path) -> None:
    annotate(log, GAME, 1, 1, note="x", clock=None)
    assert log_files([log.parent]) == [str(log)]
    assert log_files([str(log.parent / "*.jsonl")]) == [str(log)]
    outside: list[truclog.validate.Diagnostic] = []
    games = list(truclog.read_games(log.parent, outside=outside))
    assert len(games) == 1 and outside == []


def test_a_new_notes_file_gets_the_users_umask(tmp_path: Path) -> None:
    log = tmp_path / "a.truclog.jsonl"
    shutil.copy(CAFE, log)
    old = os.umask(0o027)
    try:
        annotate(log, GAME, 1, 1, note="x", clock=None)
    finally:
        os.umask(old)
    assert stat.S_IMODE(notes_path(log).stat().st_mode) == 0o640
    notes_path(log).chmod(0o600)
    annotate(log, GAME, 1, 2, note="y", clock=None)
    assert stat.S_IMODE(notes_path(log).stat().st_mode) == 0o600


def _writer(log: str, hand: int, count: int) -> None:
    for step in range(1, count + 1):
        annotate(log, GAME, hand, step, note=f"writer {hand}", add=[f"m{step}"], clock=None)
        annotate(log, GAME, 99, 1, add=[f"w{hand}-{step}"], clock=None)


def test_two_writers_at_once_lose_nothing(log: Path) -> None:
    count = 25
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_writer, args=(str(log), h, count)) for h in (1, 2)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(120)
        assert writer.exitcode == 0
    kept = read_notes(log).annotations
    for hand in (1, 2):
        for step in range(1, count + 1):
            assert kept[GAME, hand, step].marks == (f"m{step}",)
    shared = set(kept[GAME, 99, 1].marks)
    assert shared == {f"w{h}-{s}" for h in (1, 2) for s in range(1, count + 1)}
    assert (
        not list(log.parent.glob(".*.part")) and not notes_path(log).with_suffix(".lock").exists()
    )


def test_a_notes_file_that_cannot_be_written_is_said_and_nothing_changes(log: Path) -> None:
    blocked = Path(f"{notes_path(log)}.lock")
    blocked.mkdir()  # where the lock file goes: as a read-only folder would, writing fails
    with pytest.raises(truclog.TruclogError) as refused:
        annotate(log, GAME, 1, 1, note="x")
    assert "cannot write a notes file beside the log" in refused.value.message
    assert str(notes_path(log)) in refused.value.message
    assert not notes_path(log).exists()


def test_a_notes_file_is_read_up_to_a_limit_and_the_rest_counted_not_lost(
    log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(truclog.record.annotations, "KEPT", 3)
    monkeypatch.setattr(truclog.record.annotations, "KEPT_PROBLEMS", 1)
    rows = [json.dumps({"game": GAME, "hand": 1, "step": n, "marks": [f"m{n}"]}) for n in (1, 2)]
    rows += ["bad", "worse"]  # one problem kept, the other counted
    rows += [json.dumps({"game": GAME, "hand": 1, "step": n, "marks": [f"m{n}"]}) for n in (3, 4)]
    notes_path(log).write_text("\n".join(rows) + "\n")
    found = read_notes(log)
    assert list(found.annotations) == [(GAME, 1, 1), (GAME, 1, 2), (GAME, 1, 3)]
    assert [(p.line, p.code) for p in found.problems] == [(3, "E001"), (4, "W008")]
    assert found.left_out == 2 and "2 line(s) from here on not read" in found.problems[1].message
    annotate(log, GAME, 1, 4, add=["review"], clock=None)  # a step past the limit: kept whole
    assert json.loads(notes_path(log).read_text().splitlines()[-1])["marks"] == ["m4", "review"]
    assert notes_path(log).read_text().splitlines()[:5] == rows[:5]
