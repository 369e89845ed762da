"""The recorder under faults: a second recorder, a full disk, a read-only folder, a
compressed log, a refused resume. Nothing recorded is lost, nothing half-written stays."""

from __future__ import annotations

import contextlib
import errno
import gzip
import os
import random
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from truclog.engine.actions import Deal, Fold, Show
from truclog.engine.cards import parse_card
from truclog.errors import TruclogError
from truclog.record.recorder import DiskError, Recorder, RecordError
from truclog.validate import CheckedGame, check_log


def errors(path: Path) -> list[str]:
    found = []
    for game in check_log(str(path)):
        assert isinstance(game, CheckedGame), game
        found += [d.message for d in game.diagnostics if d.severity == "error"]
    return found


def on_disk(rec: Recorder) -> bytes:
    """What the recorder believes is in its log."""
    return b"".join(entry.raw for entry in rec.entries)


def next_move(rec: Recorder, rng: random.Random) -> None:
    """Record one legal entry (a deal with unseen cards, then raises, answers, plays)."""
    state = rec.state
    assert state is not None
    legal = [a for a in state.legal_actions() if not isinstance(a, Fold)]
    action = rng.choice(legal)
    if isinstance(action, Deal):
        rec.deal()
    else:
        rec.record(action)


def can_mount() -> bool:
    return os.geteuid() == 0 and shutil.which("mount") is not None


@contextlib.contextmanager
def tmpfs(where: Path, size: str, *options: str) -> Iterator[Path]:
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", ",".join([f"size={size}", *options]), "tmpfs", str(where)],
        capture_output=True,
    )
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


# --- one writer per log ------------------------------------------------------


def test_a_second_recorder_in_another_process_is_refused_naming_the_first(
    tmp_path: Path,
) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None).close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from truclog.record.recorder import Recorder; "
            f"r = Recorder.resume({str(log)!r}, clock=None); r.deal(); "
            "print('ready', flush=True); sys.stdin.read()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"ready\n"
        before = log.read_bytes()
        with pytest.raises(RecordError, match=f"already being recorded .*process {holder.pid}"):
            Recorder.resume(log, clock=None)
        with pytest.raises(RecordError, match=f"process {holder.pid}"):
            Recorder(log, clock=None)
        assert log.read_bytes() == before
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    # the kernel dropped the lock of the killed process: the log can be taken over
    with Recorder.resume(log, clock=None) as rec:
        rec.raise_("Ana", 2)
    assert errors(log) == []


def test_undo_in_one_recorder_cannot_erase_another_s_lines(tmp_path: Path) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    with Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None) as first:
        first.deal()
        with pytest.raises(RecordError, match="already being recorded"):
            Recorder.resume(log, clock=None)
        first.raise_("Ana", 2)
        assert log.read_bytes() == on_disk(first)
    assert not Path(f"{log}.lock").exists()


# --- a full disk ---------------------------------------------------------------


def test_a_full_disk_refuses_the_entry_keeps_whole_lines_and_recording_goes_on(
    tmp_path: Path,
) -> None:
    if not can_mount():
        pytest.skip("mounting a small tmpfs needs root (the injected test covers the rest)")
    with tmpfs(tmp_path / "disk", "64k") as disk:
        log = disk / "cafe.truclog.jsonl"
        rng = random.Random(7)
        rec = Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None)
        filler = disk / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"x" * 512)
        os.close(fd)
        refused = None
        for _ in range(2000):
            try:
                next_move(rec, rng)
            except DiskError as exc:
                refused = exc
                break
            if rec.over:
                rec.new_game(["Ana", "Marc"], "Marc")
        assert refused is not None, "the disk never filled"
        assert "No space left on device" in refused.message and str(log) in refused.message
        # nothing half-written: the log is exactly the lines acknowledged, and validates
        assert log.read_bytes() == on_disk(rec) and log.read_bytes().endswith(b"\n")
        assert errors(log) == []
        assert not Path(f"{log}.torn").exists()
        # undo and notes need a new file: refused too, and nothing changes
        with pytest.raises(DiskError, match="No space left on device"):
            for _ in range(50):
                rec.note("x" * 3000)
        assert log.read_bytes() == on_disk(rec)
        # space returns: recording goes on, the lines still due come first
        filler.unlink()
        for _ in range(30):
            next_move(rec, rng)
            if rec.over:
                break
        rec.close()
        assert errors(log) == []
        assert log.read_bytes() == b"".join(e.raw for e in Recorder.resume(log).entries)


def test_a_write_cut_short_is_cut_back_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    rec = Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None)
    rec.deal({"Ana": ["7h", "Q", "9s"]})
    before = log.read_bytes()
    real_write = os.write
    calls = []

    def half_then_full(fd: int, data: bytes) -> int:
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd, bytes(data[: len(data) // 2]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("truclog.format.writer.os.write", half_then_full)
    with pytest.raises(DiskError, match="nothing was recorded: No space left on device"):
        rec.raise_("Ana", 2)
    assert len(calls) == 2  # half the line went to the file before the disk filled
    assert log.read_bytes() == before
    monkeypatch.undo()
    rec.raise_("Ana", 2)
    rec.accept("Marc")
    rec.close()
    assert [orjson.loads(x)["type"] for x in log.read_bytes().splitlines()[-2:]] == [
        "raise",
        "accept",
    ]
    assert errors(log) == []


def test_a_result_the_disk_refused_is_written_with_the_next_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    rec = Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None)
    rec.deal({"Ana": ["7h", "Q", "9s"]})
    for player, card in [("Ana", "7h"), ("Marc", "As"), ("Ana", "Q")]:
        rec.play(player, card)
    real_write = os.write

    def refuse_results(fd: int, data: bytes) -> int:
        if b'"result"' in bytes(data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr("truclog.format.writer.os.write", refuse_results)
    with pytest.raises(DiskError, match="play recorded, but not the lines that follow"):
        rec.play("Marc", "Jd")
    assert orjson.loads(log.read_bytes().splitlines()[-1])["card"] == "Jd"
    assert errors(log) == []
    with pytest.raises(DiskError):
        rec.deal()  # the result still cannot be written: the deal is not written either
    monkeypatch.undo()
    rec.deal()
    rec.close()
    types = [orjson.loads(x)["type"] for x in log.read_bytes().splitlines()[-3:]]
    assert types == ["play", "result", "deal"]
    assert errors(log) == []


# --- a read-only folder ----------------------------------------------------------


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    done = subprocess.run(
        ["mount", "--bind", "-o", "ro", str(folder), str(folder)], capture_output=True
    )
    if done.returncode:
        pytest.skip(f"root ignores permissions and no read-only mount: {done.stderr!r}")
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_read_only_folder_is_a_message_not_a_traceback(tmp_path: Path) -> None:
    folder = tmp_path / "shelf"
    folder.mkdir()
    log = folder / "cafe.truclog.jsonl"
    Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None).close()
    before = log.read_bytes()
    with read_only(folder):
        with pytest.raises(DiskError, match=r"Read-only file system|Permission denied"):
            Recorder.resume(log, clock=None)
        with pytest.raises(DiskError, match=re.escape(str(folder))):
            Recorder.start(folder / "new.truclog.jsonl", ["Ana", "Marc"], "Marc")
    assert log.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["cafe.truclog.jsonl"]


# --- compressed logs and refused resumes -------------------------------------------


def test_a_gz_log_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    plain = tmp_path / "cafe.truclog.jsonl"
    with Recorder.start(plain, ["Ana", "Marc"], "Marc", clock=None) as rec:
        rec.deal()
    packed = tmp_path / "cafe.truclog.jsonl.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    before = packed.read_bytes()
    with pytest.raises(RecordError, match=r"compressed \(gzip\) log cannot be recorded"):
        Recorder.resume(packed)
    with pytest.raises(RecordError, match="compressed"):
        Recorder.start(tmp_path / "new.truclog.jsonl.gz", ["Ana", "Marc"], "Marc")
    renamed = tmp_path / "sneaky.truclog.jsonl"
    renamed.write_bytes(before)
    with pytest.raises(RecordError, match="compressed"):
        Recorder.resume(renamed)
    assert packed.read_bytes() == before and renamed.read_bytes() == before
    assert not (tmp_path / "new.truclog.jsonl.gz").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "cafe.truclog.jsonl",
        "cafe.truclog.jsonl.gz",
        "sneaky.truclog.jsonl",
    ]


def test_a_refused_resume_changes_nothing_on_disk(tmp_path: Path) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    with Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None) as rec:
        rec.deal()
    with open(log, "ab") as f:
        f.write(b'{"type":"play","player":"Marc","card":"7h"}\n{"type":"acc')
    before = log.read_bytes()
    with pytest.raises(TruclogError, match=":3: Marc cannot play 7h"):
        Recorder.resume(log, clock=None)
    assert log.read_bytes() == before
    log.write_bytes(before.replace(b'Marc","card":"7h', b'Ana","card":"7h'))
    before = log.read_bytes()
    with pytest.raises(RecordError, match="'Zoé' is not a player"):
        Recorder.resume(log, clock=None, me="Zoé")
    assert log.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cafe.truclog.jsonl"]
    with Recorder.resume(log, clock=None, me="Ana") as rec:
        assert rec.repaired == b'{"type":"acc'
    assert Path(f"{log}.torn").read_bytes() == b'{"type":"acc\n'


# --- at the table ----------------------------------------------------------------------


def test_cards_shown_after_the_game_is_won_are_recorded(tmp_path: Path) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    with Recorder.start(log, ["Ana", "Marc"], "Marc", clock=None) as rec:
        rec.deal({"Ana": ["7h", "Q", "9s"]})
        rec.reste("Ana")  # to 12, the target
        rec.accept("Marc")
        for player, card in [("Ana", "7h"), ("Marc", "As"), ("Ana", "Q"), ("Marc", "Jd")]:
            rec.play(player, card)
        assert rec.over
        rec.show("Ana", ["9s"])
        rec.record(Show("Marc", (parse_card("K"),)))
        with pytest.raises(RecordError, match="game is over"):
            rec.deal()
        assert [e.event.type for e in rec.entries[-4:]] == ["result", "game_end", "show", "show"]
    assert errors(log) == []
    with Recorder.resume(log, clock=None) as again:
        assert [str(e.type) for e in again.undo()] == ["show"]


def test_me_is_kept_in_the_game_line_and_restored_on_resume(tmp_path: Path) -> None:
    log = tmp_path / "cafe.truclog.jsonl"
    rules = {"preset": "classic", "target": 1}
    with Recorder.start(log, ["Ana", "Marc"], "Marc", rules, match="r1", me="Ana") as rec:
        assert rec.me == "Ana"
    assert orjson.loads(log.read_bytes().splitlines()[0])["_me"] == "Ana"
    with Recorder.resume(log, clock=None) as again:
        assert again.me == "Ana"
        # the next game of the rubber keeps it
        again.deal()
        again.raise_("Ana", 2)
        again.fold("Marc")
        assert again.header is not None and again.header.match == "r1"
        assert again.me == "Ana" and again.state is not None and again.state.hand_no == 0
    assert errors(log) == []
    with (
        Recorder(tmp_path / "other.jsonl") as other,
        pytest.raises(RecordError, match="'Zoé' is not one of the players"),
    ):
        other.new_game(["Ana", "Marc"], "Marc", me="Zoé")
