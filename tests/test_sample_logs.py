"""The bundled logs: the legal ones validate clean, each broken one gets the diagnostic its note announces."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from truclog.validate import CheckedGame, Diagnostic, check_logs

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
INVALID = sorted((SAMPLES / "invalid").glob("*.jsonl"))
ANNOUNCED = re.compile(rb'"note": ?"([EW]\d{3})\b')


def diagnostics(path: Path) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for item in check_logs([str(path)]):
        found.extend(item.diagnostics if isinstance(item, CheckedGame) else [item])
    return found


def test_the_legal_samples_validate_clean_and_the_broken_ones_are_left_out() -> None:
    assert diagnostics(SAMPLES) == []
    assert len(INVALID) >= 40


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name.split(".")[0])
def test_each_broken_sample_gets_the_diagnostic_its_note_announces(path: Path) -> None:
    announced = {
        (number, match.group(1).decode())
        for number, raw in enumerate(path.read_bytes().splitlines(), 1)
        for match in ANNOUNCED.finditer(raw)
    }
    assert announced, f"{path.name} announces no diagnostic"
    found = {(d.line, d.code) for d in diagnostics(path)}
    assert announced <= found
    assert path.name.startswith(min(announced)[1])
