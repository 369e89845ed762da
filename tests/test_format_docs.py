"""docs/format.md: its examples are valid, and its first example is a legal, canonical log."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from truclog.format.events import parse_event
from truclog.format.reader import read_log
from truclog.format.writer import dumps

DOC = (Path(__file__).parent.parent / "docs" / "format.md").read_text(encoding="utf-8")
LOG_BLOCKS = re.findall(r"```jsonl\n(.*?)```", DOC, re.S)
LINES = [
    line
    for block in re.findall(r"```json\n(.*?)```", DOC, re.S)
    for line in block.splitlines()
    if line.strip()
]


@pytest.mark.parametrize("line", LINES)
def test_every_example_line_is_a_valid_event(line: str) -> None:
    parse_event(line)


def test_the_first_example_is_legal_and_canonical(tmp_path: Path) -> None:
    assert LOG_BLOCKS, "docs/format.md has a jsonl example"
    path = tmp_path / "example.truclog.jsonl"
    path.write_text(LOG_BLOCKS[0], encoding="utf-8")
    lines = list(read_log(path))
    assert all(line.event for line in lines)
    assert b"".join(dumps(line.event) for line in lines if line.event) == path.read_bytes()
    validate = pytest.importorskip("truclog.validate")
    found = list(validate.check_logs([str(path)]))
    assert [str(d) for g in found for d in getattr(g, "diagnostics", [g])] == []


def test_the_python_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code = re.findall(r"```python\n(.*?)```", DOC, re.S)[-1]
    sample = next((Path(__file__).parent.parent / "sample_logs").glob("*.jsonl"))
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / sample.name).write_bytes(sample.read_bytes())
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "docs/format.md", "exec"), {})
    assert capsys.readouterr().out.splitlines()[0] == "game"
    assert (tmp_path / "live.truclog.jsonl").read_bytes() == (
        b'{"type":"play","player":"Ana","card":"Ts","t":"2026-11-29T20:14:03+01:00"}\n'
    )
