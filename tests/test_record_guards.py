"""The recorder's guards: one writer per log whatever name it is opened by (a symbolic
or a hard link), an undo through a link that keeps the link, and an edit inside an
abandoned game that leaves a log the validator passes; ``show`` reading a log with a
line too long to hold in memory."""

from __future__ import annotations

import json
import os
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from truclog.engine.actions import Fold
from truclog.record.recorder import Recorder, RecordError
from truclog.tui.browse.catalog import find_game
from truclog.validate import CheckedGame, check_log

SAMPLES = Path(__file__).parent.parent / "sample_logs"


def started(path: Path) -> Recorder:
    recorder = Recorder.start(path, ["Ana", "Marc"], dealer="Marc")
    recorder.deal({"Ana": ["7h", "Q", "9s"]})
    return recorder


@pytest.mark.parametrize("link", [os.symlink, os.link])
def test_a_second_name_of_a_log_does_not_open_a_second_writer(
    link: Callable[[Path, Path], None], tmp_path: Path
) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    other = tmp_path / "other" / "same.truclog.jsonl"
    other.parent.mkdir()
    with started(log) as first:
        link(log, other)
        with pytest.raises(RecordError, match="already being recorded"):
            Recorder.resume(other)
        first.raise_("Ana", 2)
    with Recorder.resume(other) as again:  # free once the first is closed
        again.accept("Marc")


def test_an_undo_through_a_symbolic_link_keeps_the_link(tmp_path: Path) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    started(log).close()
    link = tmp_path / "link.truclog.jsonl"
    link.symlink_to(log)
    with Recorder.resume(link) as recorder:
        recorder.raise_("Ana", 2)
        recorder.undo()
    assert link.is_symlink() and link.resolve() == log.resolve()
    assert b'"raise"' not in log.read_bytes()
    assert b'"raise"' in (tmp_path / "cafe.truclog.jsonl.undone").read_bytes()


def test_an_edit_inside_an_abandoned_game_keeps_its_game_end_true(tmp_path: Path) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    with started(log) as recorder:
        recorder.raise_("Ana", 3)
        recorder.accept("Marc")
        recorder.abandon(note="rain")
        recorder.edit(3, Fold("Marc"))  # the fold gives Ana the point before the raise
    (game,) = check_log(str(log))
    assert isinstance(game, CheckedGame)
    assert [d.code for d in game.diagnostics] == []
    assert game.score == {"Ana": 1, "Marc": 0}
    end = json.loads(log.read_bytes().splitlines()[-1])
    assert (end["type"], end["abandoned"], end["score"], end["note"]) == (
        "game_end",
        True,
        {"Ana": 1, "Marc": 0},
        "rain",
    )


def test_show_passes_a_line_too_long_without_holding_it(tmp_path: Path) -> None:
    log = tmp_path / "long.truclog.jsonl"
    cafe = (SAMPLES / "2026-11-29-cafe-du-port-classic.truclog.jsonl").read_bytes()
    with log.open("wb") as out:
        out.write(b'{"type":"note","text":"')
        for _ in range(48):
            out.write(b"x" * (1 << 20))
        out.write(b'"}\n' + cafe)
    tracemalloc.start()
    try:
        game = find_game(str(log), "cafe-du-port-2026-11-29-1")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert game is not None and game.line == 2
    assert peak < 16 << 20


def test_a_disk_error_without_words_still_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    recorder = started(log)

    def refuse(*args: object) -> int:
        raise OSError()  # some file systems give no errno and no words

    monkeypatch.setattr(os, "write", refuse)
    with pytest.raises(RecordError) as raised:
        recorder.raise_("Ana", 2)
    monkeypatch.undo()
    recorder.close()
    assert not str(raised.value).rstrip().endswith(":"), str(raised.value)
    assert str(raised.value).endswith("OSError")


def test_a_rewrite_killed_before_its_rename_leaves_no_file_at_the_next_start(
    tmp_path: Path,
) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    started(log).close()
    left = tmp_path / ".cafe.truclog.jsonl.4242.tmp"  # a killed undo's new log, not renamed
    left.write_bytes(log.read_bytes()[:10])
    other = tmp_path / ".other.truclog.jsonl.4242.tmp"  # another log's: not this one's to take
    other.write_bytes(b"x")
    with Recorder.resume(log) as recorder:
        recorder.raise_("Ana", 2)
    assert not left.exists() and other.exists()


def test_an_undo_stopped_before_its_rename_leaves_undone_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    undone = tmp_path / "cafe.truclog.jsonl.undone"
    with started(log) as recorder:
        recorder.raise_("Ana", 2)
        recorder.undo()  # a finished undo: its line is in .undone
        kept = undone.read_bytes()
        recorder.raise_("Ana", 3)
        with_raise = log.read_bytes()

        def interrupted(*args: object) -> None:
            raise KeyboardInterrupt

        monkeypatch.setattr(os, "replace", interrupted)
        with pytest.raises(KeyboardInterrupt):
            recorder.undo()
        monkeypatch.undo()
    assert undone.read_bytes() == kept and log.read_bytes() == with_raise
    assert list(tmp_path.glob(".*.tmp")) == []


def test_an_undo_killed_before_its_rename_is_undone_at_the_next_start(tmp_path: Path) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    undone = tmp_path / "cafe.truclog.jsonl.undone"
    with started(log) as recorder:
        recorder.raise_("Ana", 2)
        recorder.undo()
        recorder.raise_("Ana", 3)
    kept, with_raise = undone.read_bytes(), log.read_bytes()
    # what a SIGKILL between setting the line aside and the rename leaves
    (tmp_path / f".cafe.truclog.jsonl.4242.{len(kept)}.tmp").write_bytes(with_raise[:40])
    with undone.open("ab") as aside:
        aside.write(with_raise.splitlines(keepends=True)[-1])
    with Recorder.resume(log) as again:
        assert undone.read_bytes() == kept
        assert log.read_bytes() == with_raise
        again.accept("Marc")
    assert list(tmp_path.glob(".*.tmp")) == []
