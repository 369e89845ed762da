"""No input and no fault crashes truclog or runs it out of memory: each failure an
audit found, reproduced as a user meets it."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_validate_cli import GAME, HAND

from truclog.cli import main
from truclog.errors import TruclogError
from truclog.format import reader
from truclog.format.reader import LONGEST_LINE, read_log
from truclog.validate import quick
from truclog.validate.report import report_file

HAND2 = (
    '{"type":"deal","hand":2,"dealer":"Ana","cards":{"Ana":["7s","K","9h"]}}\n'
    '{"type":"play","player":"Marc","card":"9c"}\n'
    '{"type":"play","player":"Ana","card":"7s"}\n'
    '{"type":"play","player":"Ana","card":"K"}\n'
    '{"type":"play","player":"Marc","card":"Jd"}\n'
    '{"type":"result","winner":"Ana","points":1,"score":{"Ana":2,"Marc":0}}\n'
)
END = '{"type":"game_end","abandoned":true,"score":{"Ana":2,"Marc":0}}\n'
LONG = '{"type":"play","player":"Ana","note":"' + "x" * LONGEST_LINE + '"}\n'


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def codes(path: Path, use_quick: bool = True) -> list[tuple[int, str]]:
    report = report_file(str(path), quick=use_quick)
    return [(d.line, d.code) for d in report.diagnostics]


# --- long lines ---------------------------------------------------------------------


@pytest.mark.parametrize("use_quick", [True, False])
def test_a_line_past_the_limit_is_e006_and_the_rest_of_the_game_is_still_checked(
    tmp_path: Path, use_quick: bool
) -> None:
    """The long line (line 7) stands between two hands: the validator reports it,
    skips to the next deal and finds the wrong score of hand 2 (line 13)."""
    path = tmp_path / "long.jsonl"
    wrong = HAND2.replace('"score":{"Ana":2', '"score":{"Ana":3')
    path.write_text(GAME + HAND + LONG + wrong + END.replace('"Ana":2', '"Ana":3'))
    assert codes(path, use_quick) == [(8, "E006"), (14, "E704")]


def test_the_long_line_message_says_its_size_and_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    path.write_text(LONG + LONG.rstrip("\n"))
    lines = list(read_log(path))
    assert [line.problem.code for line in lines if line.problem] == ["E006", "E006"]
    size = len(LONG) - 1
    assert lines[0].problem is not None
    assert f"{size:,} bytes long, past the limit of {LONGEST_LINE:,}" in lines[0].problem.message


def test_a_line_exactly_at_the_limit_is_read(tmp_path: Path) -> None:
    """The limit counts the line's bytes before its newline (a \\r included)."""
    filler = LONGEST_LINE - len('{"type":"fold","player":"Ana","note":""}\r')
    line = '{"type":"fold","player":"Ana","note":"' + "x" * filler + '"}\r\n'
    path = tmp_path / "edge.jsonl"
    path.write_bytes((line + line.replace('"}', 'x"}')).encode())
    found = [(x.line, x.type or (x.problem and x.problem.code)) for x in read_log(path)]
    assert found == [(1, "fold"), (2, "E006")]
    assert codes(path, True) == codes(path, False)


def test_a_gzip_bomb_is_read_in_bounded_memory(tmp_path: Path) -> None:
    """32 MB of a line without a newline, compressed: E006, the game after it is read."""
    path = tmp_path / "bomb.jsonl.gz"
    with gzip.open(path, "wb") as out:
        out.write(b"[" * (32 << 20) + b"\n" + (GAME + HAND + HAND2 + END).encode())
    assert codes(path) == [(1, "E006")]
    assert codes(path, False) == [(1, "E006")]


def test_limit_comes_from_the_environment(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text(GAME + HAND + HAND2 + END)
    env = {**os.environ, "TRUCLOG_MAX_LINE": "100"}
    out = subprocess.run(
        [sys.executable, "-m", "truclog", "validate", str(path)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 1
    assert (
        f"{path}:1: E006 the line is {len(GAME) - 1} bytes long, past the limit of 100"
        in out.stdout
    )


# --- numbers past what a column holds -------------------------------------------------


def test_a_number_past_2_to_the_53_is_e007_in_the_validator(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    big = HAND.replace('"score":{"Ana":1,', '"score":{"Ana":100000000000000000000000,')
    path.write_text(GAME + big + HAND2 + END)
    found = report_file(str(path)).diagnostics
    assert [(d.line, d.code) for d in found] == [(7, "E007")]  # hand 2 checked from its deal
    assert found[0].message == (
        "score.Ana: the number 1000000000... (24 digits) is past the largest a log may hold "
        "(9,007,199,254,740,991)"
    )


def test_a_game_with_a_huge_target_is_not_started(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    header = GAME.replace('"rules":"classic"', '"rules":{"preset":"classic","target":2e30}')
    header = header.replace("2e30", str(2**70))
    path.write_text(header + HAND + HAND2 + END)
    assert codes(path)[:2] == [(1, "E007"), (2, "E103")]


def test_stats_export_and_browse_never_see_huge_numbers(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    huge = str(2**64 + 1)
    raises = (
        '{"type":"raise","player":"Ana","to":2}\n{"type":"accept","player":"Marc"}\n'
        '{"type":"raise","player":"Marc","to":' + huge + '}\n{"type":"fold","player":"Ana"}\n'
        '{"type":"result","winner":"Marc","points":2,"score":{"Ana":0,"Marc":' + huge + "}}\n"
    )
    deal = '{"type":"deal","hand":1,"dealer":"Marc","cards":{"Ana":["7h","Q","9s"]}}\n'
    path.write_text(GAME + deal + raises + GAME.replace("g1", "g2") + HAND + HAND2 + END)
    status, out = run("stats", "--format", "json", str(path))
    assert status == 0
    report = json.loads(out[out.index("{") :])
    assert {p["player"]: p["hands_played"] for p in report["players"]} == {"Ana": 2, "Marc": 2}
    assert "1 hand(s) with errors left out" in out
    status, out = run("export", "--to", str(tmp_path / "out"), str(path))
    assert status == 0, out


# --- standard input -------------------------------------------------------------------


def test_a_closed_standard_input_is_one_line_and_exit_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "truclog", "validate", "-"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=lambda: os.close(0),
    )
    assert "Traceback" not in done.stderr
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "truclog validate: <stdin>: cannot read: standard input is closed"
    ]


def test_reader_refuses_closed_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(TruclogError, match="standard input is closed"):
        list(read_log("-"))


def test_quick_core_bails_on_a_long_line() -> None:
    """The core leaves a line longer than ``longest`` to the reader."""
    if not quick.AVAILABLE:
        pytest.skip("no quick core")
    start = quick.table(reader.read_line("x", 1, GAME.encode().strip(), True).parsed)  # type: ignore[arg-type]
    assert start is not None
    data = HAND.encode()
    assert quick._quick.scan(data, 0, 2, True, start[1], 1000)[0] == 0
    assert quick._quick.scan(data, 0, 2, True, start[1], 60)[0] == 2


# --- folders ----------------------------------------------------------------------------


def lock(monkeypatch: pytest.MonkeyPatch, *paths: Path) -> None:
    """Take away the right to read ``paths``; as root (who reads everything anyway),
    the reader is told no as the system would tell anyone else."""
    for path in paths:
        path.chmod(0)
    if os.geteuid() != 0:
        return
    denied = {str(path) for path in paths}
    scandir, access = os.scandir, os.access

    def no_scandir(path: Path | str) -> object:
        if str(path) in denied:
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)

    def no_access(path: Path | str, mode: int) -> bool:
        return str(path) not in denied and access(path, mode)

    monkeypatch.setattr(reader.os, "scandir", no_scandir)
    monkeypatch.setattr(reader.os, "access", no_access)


def test_links_to_nowhere_loops_and_fifos_are_reported_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "good.jsonl").write_text(GAME + HAND + HAND2 + END)
    (tmp_path / "gone.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    (tmp_path / "a.jsonl").symlink_to(tmp_path / "b.jsonl")
    (tmp_path / "b.jsonl").symlink_to(tmp_path / "a.jsonl")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "up").symlink_to(tmp_path)
    os.mkfifo(tmp_path / "pipe.jsonl")
    status, out = run("validate", "--no-color", str(tmp_path))
    assert status == 2
    assert out.splitlines() == [
        f"{tmp_path}/a.jsonl: E000 a loop of links: not read",
        f"{tmp_path}/b.jsonl: E000 a loop of links: not read",
        f"{tmp_path}/gone.jsonl: E000 a link to nothing (dangling): not read",
        f"{tmp_path}/pipe.jsonl: E000 not a regular file but a FIFO: not read",
        f"{tmp_path}/sub/up: E000 a link back to a folder above it: not read",
        "Checked 6 file(s), 1 game(s), 2 hand(s): 5 errors, 0 warnings",
    ]


def test_stats_refuses_a_folder_with_an_unreadable_entry_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "good.jsonl").write_text(GAME + HAND + HAND2 + END)
    os.mkfifo(tmp_path / "pipe.jsonl")
    status, out = run("stats", str(tmp_path))
    assert status == 1
    assert out.strip() == f"Error: {tmp_path}/pipe.jsonl: not a regular file but a FIFO: not read"


def test_an_unreadable_subfolder_is_not_a_false_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "a.jsonl").write_text(GAME + HAND + HAND2 + END)
    lock(monkeypatch, tmp_path / "locked")
    status, out = run("validate", "--no-color", str(tmp_path))
    assert status == 2
    assert out.splitlines() == [
        f"{tmp_path}/locked: E000 cannot read this folder: permission denied",
        "Checked 1 file(s), 0 game(s), 0 hand(s): 1 error, 0 warnings",
    ]
    status, out = run("validate", "--no-color", str(tmp_path / "locked"))
    assert (status, out.splitlines()[0]) == (
        2,
        f"{tmp_path}/locked: E000 cannot read this folder: permission denied",
    )
    for command in (["stats"], ["export", "--to", str(tmp_path / "out")]):
        status, out = run(*command, str(tmp_path / "locked"))
        assert status == 1
        assert out.count("\n") == 1
        assert out.strip().endswith(
            f"{tmp_path}/locked: cannot read this folder: permission denied"
        )


def test_an_unreadable_file_in_a_folder_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.jsonl").write_text(GAME + HAND + HAND2 + END)
    (tmp_path / "b.jsonl").write_text(GAME + HAND + HAND2 + END)
    lock(monkeypatch, tmp_path / "b.jsonl")
    status, out = run("validate", "--no-color", str(tmp_path))
    assert status == 2
    assert out.splitlines() == [
        f"{tmp_path}/b.jsonl: E000 cannot read this file (permission denied)",
        "Checked 2 file(s), 1 game(s), 2 hand(s): 1 error, 0 warnings",
    ]


# --- standard input with -j, names and text that a terminal would obey -------------------


def test_jobs_2_reads_standard_input_too(tmp_path: Path) -> None:
    other = tmp_path / "other.jsonl"
    other.write_text(GAME + HAND + HAND2 + END)
    for jobs in ("1", "2"):
        status, out = run("validate", "--no-color", "-j", jobs, "-", str(other), stdin="nope\n")
        assert status == 1
        assert out.splitlines()[0] == "-:1: E001 the line is not JSON: expected ident at column 2"


def test_escape_sequences_from_a_log_are_shown_not_obeyed(tmp_path: Path) -> None:
    path = tmp_path / "evil\n\x1b[31mname.jsonl"
    path.write_text(GAME.replace('"Ana"', '"A\\u001b[2K\\rna"') + HAND)
    status, out = run("validate", "--no-color", str(tmp_path))
    assert status == 1
    assert "\x1b" not in out and "\r" not in out
    first = out.splitlines()[0]
    assert first.startswith(f"{tmp_path}/evil\\n\\x1b[31mname.jsonl:")
    assert "A\\x1b[2K\\rna" in out


def test_a_file_name_that_is_not_utf8_gives_whole_json(tmp_path: Path) -> None:
    name = os.fsdecode(bytes(tmp_path) + b"/caf\xe9.jsonl")
    Path(name).write_text("nope\n" + GAME + HAND + HAND2 + END)
    status, out = run("validate", "--format", "json", str(tmp_path))
    assert status == 1
    document = json.loads(out)
    assert document["files"][0]["path"] == f"{tmp_path}/caf\\xe9.jsonl"
    assert document["summary"]["errors"] == 1
    status, out = run("validate", str(tmp_path))
    assert out.startswith(f"{tmp_path}/caf\\xe9.jsonl:1: E001")


# --- memory: what is kept of a file with very many problems --------------------------------


def test_a_game_keeps_1000_diagnostics_and_counts_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(GAME + HAND + "nope\n" * 2500 + HAND2 + END)
    report = report_file(str(path))
    assert len(report.diagnostics) == 1000
    assert report.left_out == {"error": 1500}
    assert report.count("error") == 2500
    first = report.diagnostics[0]
    assert (first.line, first.code) == (8, "E001")
    assert first.message.endswith("(2499 following lines not checked: lines 9-2507)")


def test_a_file_keeps_10000_diagnostics_and_json_says_how_many_more(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("[1]\n" * 12_345)
    status, out = run("validate", "--format", "json", str(path))
    assert status == 1
    document = json.loads(out)
    (entry,) = document["files"]
    assert len(entry["diagnostics"]) == 10_000
    assert entry["left_out"] == {"errors": 2345, "warnings": 0}
    assert document["summary"]["errors"] == 12_345
    status, out = run("validate", "--no-color", str(path))
    lines = out.splitlines()
    assert len(lines) == 10_002
    assert lines[-2] == (
        f"{path}: 2,345 more problem(s) not shown (2,345 error(s), 0 warning(s)): "
        "at most 10,000 a file and 1,000 a game are kept"
    )
    assert lines[-1].endswith("12345 errors, 0 warnings")


def test_lines_skipped_in_a_hand_are_counted_not_kept(tmp_path: Path) -> None:
    from truclog.validate import CheckedGame, check_log

    path = tmp_path / "bad.jsonl"
    bad = '{"type":"play","player":"Marc","card":"As"}\n'  # Ana leads: out of turn
    path.write_text(GAME + HAND.splitlines(keepends=True)[0] + bad * 5000)
    (game,) = [g for g in check_log(str(path)) if isinstance(g, CheckedGame)]
    assert len(game.hands[0].steps) == 1000
    assert game.diagnostics[0].message.endswith("(4999 following lines not checked: lines 4-5002)")


# --- outputs: whole or not at all, on a full or a read-only disk ---------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB file system of its own (mounting needs root; skipped otherwise)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small file system here")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def many_games(path: Path, count: int) -> Path:
    path.write_text("".join(GAME.replace("g1", f"g{i}") + HAND + HAND2 + END for i in range(count)))
    return path


def test_a_full_disk_is_one_line_and_leaves_nothing_half_made(
    small_disk: Path, tmp_path: Path
) -> None:
    logs = many_games(tmp_path / "a.jsonl", 50)
    full = pytest.raises(OSError, match="No space left")
    with open(small_disk / "filler", "wb", buffering=0) as filler, full:  # fill the disk up
        while True:
            filler.write(b"x" * 1024)
    for args in (
        ["stats", "--format", "json", "-o", str(small_disk / "s.json")],
        ["stats", "-o", str(small_disk / "s.txt")],
        ["stats", "--format", "parquet", "-o", str(small_disk / "s.parquet")],
        ["export", "--to", str(small_disk / "out")],
    ):
        status, out = run(*args, str(logs))
        assert status == 1, out
        last = out.strip().splitlines()[-1]
        assert last.startswith("Error: ") and "no space left on device" in last.lower(), last
        leftovers = [p for p in small_disk.rglob("*") if p.is_file() and p.name != "filler"]
        assert leftovers == []


def test_a_read_only_disk_is_one_line(small_disk: Path, tmp_path: Path) -> None:
    logs = many_games(tmp_path / "a.jsonl", 2)
    (small_disk / "old.json").write_text("kept")
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    status, out = run("stats", "--format", "json", "-o", str(small_disk / "old.json"), str(logs))
    assert status == 1
    assert out.strip().splitlines()[-1] == (
        f"Error: {small_disk}/old.json: cannot write: read-only file system"
    )
    assert (small_disk / "old.json").read_text() == "kept"
    status, out = run("export", "--to", str(small_disk / "out"), str(logs))
    assert status == 1
    assert out.strip().splitlines()[-1].lower().endswith("read-only file system")


# --- the last resort ------------------------------------------------------------------------


def test_an_unforeseen_error_is_one_line_and_exit_3(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from truclog.cli import run as truclog
    from truclog.cli import validate

    def broken(*args: object) -> list[str]:
        raise RuntimeError("a bug\nover two lines")

    monkeypatch.setattr(validate, "log_files", broken)
    with pytest.raises(SystemExit) as stopped:
        truclog(["validate", "x.jsonl"])
    assert stopped.value.code == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("truclog: internal error (RuntimeError: a bug\\nover two lines, at ")
    assert "this is a bug: please report it on the truclog issue tracker" in err
    with pytest.raises(SystemExit) as stopped:
        truclog(["validate", "--format", "nope", "x"])
    assert stopped.value.code == 2


def test_links_out_of_the_folder_named_are_reported_not_followed(tmp_path: Path) -> None:
    logs, elsewhere = tmp_path / "logs", tmp_path / "elsewhere"
    logs.mkdir()
    elsewhere.mkdir()
    (logs / "good.jsonl").write_text(GAME + HAND + HAND2 + END)
    (elsewhere / "other.jsonl").write_text(GAME + HAND + HAND2 + END)
    (logs / "root").symlink_to("/")
    (logs / "other.jsonl").symlink_to(elsewhere / "other.jsonl")
    (logs / "inside").symlink_to(logs / "good.jsonl")  # a link within: followed
    status, out = run("validate", "--no-color", str(logs))
    assert status == 2
    assert out.splitlines() == [
        f"{logs}/other.jsonl: E000 a link out of the folder named: not read",
        f"{logs}/root: E000 a link out of the folder named: not read",
        "Checked 3 file(s), 1 game(s), 2 hand(s): 2 errors, 0 warnings",
    ]
