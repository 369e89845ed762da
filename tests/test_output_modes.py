"""Files truclog writes get the mode any new file of the user gets (the umask says
which), or keep the mode of the file they replace: a table shared with the group stays
readable by it after ``stats -o`` writes it again."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from truclog.cli import main

SAMPLE = str(
    Path(__file__).resolve().parent.parent
    / "sample_logs"
    / "2026-11-29-cafe-du-port-classic.truclog.jsonl"
)


@pytest.fixture
def umask() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def run(*args: str) -> None:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output


@pytest.mark.usefixtures("umask")
def test_stats_schema_and_export_write_files_of_mode_0644_under_umask_022(tmp_path: Path) -> None:
    run("stats", SAMPLE, "-o", str(tmp_path / "stats.txt"))
    run("stats", SAMPLE, "--format", "parquet", "-o", str(tmp_path / "stats.parquet"))
    run("schema", "-o", str(tmp_path / "schema.json"))
    run("export", SAMPLE, "--to", str(tmp_path / "tables"))
    parts = sorted((tmp_path / "tables").rglob("*.parquet"))
    assert len(parts) >= 3  # games, hands, actions (and annotations)
    written = [tmp_path / "stats.txt", tmp_path / "stats.parquet", tmp_path / "schema.json"]
    assert {p.name: oct(mode(p)) for p in written + parts} == {
        p.name: "0o644" for p in written + parts
    }


def test_a_private_umask_gives_private_files(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        run("stats", SAMPLE, "-o", str(tmp_path / "stats.txt"))
    finally:
        os.umask(old)
    assert mode(tmp_path / "stats.txt") == 0o600


@pytest.mark.usefixtures("umask")
def test_a_file_written_again_keeps_its_mode(tmp_path: Path) -> None:
    out = tmp_path / "stats.csv"
    out.write_text("old\n")
    out.chmod(0o640)
    run("stats", SAMPLE, "--format", "csv", "-o", str(out))
    assert out.read_text() != "old\n"
    assert mode(out) == 0o640
