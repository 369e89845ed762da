"""The streaming reader: events with line numbers, and a precise problem for each bad line."""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from truclog.errors import TruclogError
from truclog.format.reader import LogLine, Problem, log_files, read_log, read_logs, read_stream

GAME = b'{"type":"game","format":"truclog/1","players":["Ana","Marc"],"dealer":"Marc"}'
DEAL = b'{"type":"deal","dealer":"Marc","cards":{"Ana":["7h","Q","9s"]}}'
ACCEPT = b'{"type":"accept","player":"Marc"}'


def read(data: bytes) -> list[LogLine]:
    return list(read_stream(io.BytesIO(data), "test.jsonl"))


def problem(data: bytes) -> Problem:
    lines = read(data)
    assert len(lines) == 1 and lines[0].problem is not None, lines
    return lines[0].problem


def test_events_come_with_their_line_numbers_and_raw_bytes() -> None:
    lines = read(GAME + b"\n" + DEAL + b"\n")
    assert [(line.line, line.event and line.event.type) for line in lines] == [
        (1, "game"),
        (2, "deal"),
    ]
    assert lines[1].raw == DEAL and lines[1].path == "test.jsonl" and lines[1].problem is None


def test_bom_crlf_and_blank_lines_are_tolerated() -> None:
    lines = read(b"\xef\xbb\xbf" + GAME + b"\r\n\r\n   \n" + ACCEPT + b"\r\n\n")
    assert [(line.line, line.problem) for line in lines] == [(1, None), (4, None)]
    assert lines[0].raw == GAME and lines[1].raw == ACCEPT


def test_a_last_line_without_newline_is_fine_when_whole() -> None:
    lines = read(GAME + b"\n" + ACCEPT)
    assert [line.event and line.event.type for line in lines] == ["game", "accept"]


def test_not_json_gives_e001_with_the_column() -> None:
    found = problem(b'{"type":"accept" "player":"Ana"}\n')
    assert found.code == "E001" and found.column == 18
    assert "not JSON" in found.message and "column 18" in found.message


@pytest.mark.parametrize(
    ("line", "what"),
    [(b"[1, 2]", "array"), (b'"accept"', "string"), (b"42", "number"), (b"null", "null")],
)
def test_not_an_object_gives_e002(line: bytes, what: str) -> None:
    found = problem(line + b"\n")
    assert found.code == "E002" and what in found.message


def test_missing_or_unknown_type_gives_e002() -> None:
    missing = problem(b'{"player":"Ana"}\n')
    assert missing.code == "E002" and "type" in missing.message and missing.field == "type"
    unknown = problem(b'{"type":"bid","player":"Ana"}\n')
    assert unknown.code == "E002" and "'bid'" in unknown.message and "raise" in unknown.message
    assert problem(b'{"type":7}\n').code == "E002"


def test_invalid_event_gives_e003_with_every_field_and_reason() -> None:
    found = problem(b'{"type":"deal","dealer":"Marc","cards":{"Ana":["7h","1x","??"]},"hand":0}\n')
    assert found.code == "E003" and found.field == "cards.Ana.1"
    assert "cards.Ana.1: '1x' is not a card" in found.message
    assert "hand: must be at least 1" in found.message
    assert found.message.startswith("not a valid deal event: ")


def test_a_last_line_cut_short_gives_e004() -> None:
    lines = read(GAME + b"\n" + b'{"type":"play","player":"Ana","ca')
    assert lines[0].event is not None
    assert lines[1].problem is not None and lines[1].problem.code == "E004"
    assert "a crash cut this line short" in lines[1].problem.message
    assert lines[1].line == 2


def test_a_cut_line_in_the_middle_is_just_not_json() -> None:
    lines = read(b'{"type":"play","player":"Ana","ca\n' + ACCEPT + b"\n")
    assert lines[0].problem is not None and lines[0].problem.code == "E001"
    assert lines[1].event is not None


def test_not_utf8_gives_e005() -> None:
    found = problem(b'{"type":"fold","player":"Ana\xff"}\n')
    assert found.code == "E005" and found.column == 29
    assert problem(b"\xff\xfe\n").code == "E005"


def test_reading_goes_on_after_every_bad_line() -> None:
    data = b"\n".join([GAME, b"nope", b"[]", b'{"type":"x"}', b'{"type":"fold"}', ACCEPT]) + b"\n"
    codes = [(line.line, line.problem.code if line.problem else "ok") for line in read(data)]
    assert codes == [(1, "ok"), (2, "E001"), (3, "E002"), (4, "E002"), (5, "E003"), (6, "ok")]


def test_deep_nesting_and_huge_numbers_are_problems_not_crashes() -> None:
    assert problem(b"[" * 100_000 + b"\n").code == "E001"
    assert problem(b'{"type":"fold","player":"A","_x":' + b"[" * 5000 + b"]" * 5000 + b"}\n")
    huge = read(b'{"type":"raise","player":"A","to":' + b"9" * 5000 + b"}\n")
    assert huge[0].event is not None or huge[0].problem is not None


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_never_raise(data: bytes) -> None:
    for line in read(data):
        assert (line.event is None) != (line.problem is None)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([GAME, DEAL, ACCEPT, b"", b"{", b"x"]), max_size=12))
def test_line_numbers_follow_the_file(chunks: list[bytes]) -> None:
    lines = read(b"\n".join(chunks) + b"\n")
    expected = [i + 1 for i, chunk in enumerate(chunks) if chunk]
    assert [line.line for line in lines] == expected


# --- files, gzip, directories, stdin --------------------------------------------------


def write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_read_log_reads_plain_and_gzip_files(tmp_path: Path) -> None:
    data = GAME + b"\n" + ACCEPT + b"\n"
    plain = write(tmp_path / "a.truclog.jsonl", data)
    packed = write(tmp_path / "b.truclog.jsonl.gz", gzip.compress(data))
    for path in (plain, packed):
        lines = list(read_log(path))
        assert [line.event and line.event.type for line in lines] == ["game", "accept"]
        assert lines[0].path == str(path)


def test_a_truncated_gzip_file_gives_e006_after_its_lines(tmp_path: Path) -> None:
    packed = gzip.compress((GAME + b"\n") * 2000)
    path = write(tmp_path / "cut.jsonl.gz", packed[: len(packed) // 2])
    lines = list(read_log(path))
    assert lines[-1].problem is not None and lines[-1].problem.code == "E000"
    assert lines[0].event is not None


def test_not_gzip_gives_e006(tmp_path: Path) -> None:
    lines = list(read_log(write(tmp_path / "fake.jsonl.gz", GAME + b"\n")))
    assert [line.problem.code for line in lines if line.problem] == ["E000"]


def test_directories_expand_recursively_sorted(tmp_path: Path) -> None:
    write(tmp_path / "b.jsonl", ACCEPT + b"\n")
    write(tmp_path / "a" / "z.truclog.jsonl.gz", gzip.compress(ACCEPT + b"\n"))
    write(tmp_path / "a" / "notes.txt", b"not a log")
    write(tmp_path / "c.json", b"{}")
    found = log_files([tmp_path])
    assert found == [str(tmp_path / "a" / "z.truclog.jsonl.gz"), str(tmp_path / "b.jsonl")]
    assert len(list(read_logs([tmp_path]))) == 2


def test_files_keep_the_order_given(tmp_path: Path) -> None:
    b = write(tmp_path / "b.jsonl", ACCEPT + b"\n")
    a = write(tmp_path / "a.log", ACCEPT + b"\n")
    assert log_files([b, a, "-"]) == [str(b), str(a), "-"]


def test_a_missing_path_is_an_e000_error(tmp_path: Path) -> None:
    with pytest.raises(TruclogError) as caught:
        log_files([tmp_path / "nope.jsonl"])
    assert caught.value.code == "E000" and "nope.jsonl" in caught.value.message
    with pytest.raises(TruclogError):
        list(read_log(tmp_path / "nope.jsonl"))


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads everything")
def test_an_unreadable_file_is_an_e000_error(tmp_path: Path) -> None:
    path = write(tmp_path / "locked.jsonl", ACCEPT + b"\n")
    path.chmod(0)
    with pytest.raises(TruclogError) as caught:
        log_files([path])
    assert caught.value.code == "E000"


def test_dash_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = io.TextIOWrapper(io.BytesIO(GAME + b"\n" + ACCEPT + b"\n"))
    monkeypatch.setattr(sys, "stdin", fake)
    lines = list(read_logs(["-"]))
    assert [line.event and line.event.type for line in lines] == ["game", "accept"]
    assert lines[0].path == "<stdin>"


def test_reading_is_lazy(tmp_path: Path) -> None:
    path = write(tmp_path / "big.jsonl", (ACCEPT + b"\n") * 10_000)
    stream = read_log(path)
    first = next(stream)
    assert first.line == 1 and first.event is not None
    stream.close()


def test_truclogignore_leaves_out_files_and_folders(tmp_path: Path) -> None:
    write(tmp_path / "good.jsonl", ACCEPT + b"\n")
    write(tmp_path / "invalid" / "bad.jsonl", b"nope\n")
    write(tmp_path / "deep" / "draft.jsonl", b"nope\n")
    write(tmp_path / "deep" / "kept.jsonl", ACCEPT + b"\n")
    write(tmp_path / ".truclogignore", b"# broken on purpose\ninvalid\n\ndeep/draft.*\n")
    assert log_files([tmp_path]) == [
        str(tmp_path / "deep" / "kept.jsonl"),
        str(tmp_path / "good.jsonl"),
    ]
    assert log_files([tmp_path / "invalid"]) == [str(tmp_path / "invalid" / "bad.jsonl")]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sampled_from([GAME, DEAL, ACCEPT]), min_size=1, max_size=8),
    st.sampled_from([b"\n", b"\r\n"]),
    st.booleans(),
    st.booleans(),
)
def test_line_ends_bom_and_final_newline_do_not_change_the_events(
    lines: list[bytes], end: bytes, bom: bool, final: bool
) -> None:
    data = (b"\xef\xbb\xbf" if bom else b"") + end.join(lines) + (end if final else b"")
    events = [line.event for line in read(data)]
    assert events == [read(line + b"\n")[0].event for line in lines]


SCRIPT_AT_TOP_LEVEL = """
import sys
from truclog.format.reader import read_log
from truclog.validate import quick
lines = list(read_log(sys.argv[1]))
print(sum(line.parsed is not None for line in lines), lines[0].parsed.model_dump()["type"])
print(*sorted(d.code for game in quick.check_log(sys.argv[1]) for d in game.diagnostics))
"""


def test_a_script_reads_and_checks_a_log_from_its_top_level(tmp_path: Path) -> None:
    """The models are built with their own names, not from the frames of their first
    user: the installed (compiled) reader and quick validator have none, and a script's
    top level reading a log through them failed in pydantic ("call stack is not deep
    enough")."""
    log = tmp_path / "out-of-turn.truclog.jsonl"
    log.write_bytes(GAME + b"\n" + DEAL + b"\n" + ACCEPT + b"\n")
    result = subprocess.run(
        [sys.executable, "-P", "-c", SCRIPT_AT_TOP_LEVEL, str(log)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["3", "game", "E411", "W801"]


def test_the_models_are_built_once_their_module_is_imported() -> None:
    from pydantic import BaseModel

    from truclog.format import events

    models = [
        value
        for value in vars(events).values()
        if isinstance(value, type)
        and issubclass(value, BaseModel)
        and value.__module__ == events.__name__
    ]
    assert len(models) >= 10
    assert all(model.__pydantic_complete__ for model in models)
    assert events.EVENT_ADAPTER.pydantic_complete
