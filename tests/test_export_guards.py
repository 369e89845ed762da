"""``export`` replaces a dataset whole or not at all, and touches only its own: a kill
in the middle of ``--overwrite`` leaves the old or the new tables (never some of
each), a folder holding other files is refused, and so is ``/``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from truclog.stats.export import TABLES, DatasetError, export

SAMPLES = Path(__file__).parent.parent / "sample_logs"
FIRST = str(SAMPLES / "2026-11-29-cafe-du-port-classic.truclog.jsonl")
SECOND = str(SAMPLES / "2026-12-06-sackson-rubber.truclog.jsonl")


class Killed(BaseException):
    """A kill in the middle of an export (not an error it could undo)."""


def games_of_each_table(root: Path) -> set[frozenset[str]]:
    """The games each table holds, as one set per table (one set in all when they agree)."""
    found = set()
    for name in TABLES[:3]:
        frame = pl.read_parquet(root / name, hive_partitioning=True)
        found.add(frozenset(frame["fingerprint"].unique().to_list()))
    return found


@pytest.mark.parametrize("after", range(1, 8))
def test_a_kill_during_overwrite_leaves_old_or_new_tables(
    after: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "dataset"
    export([FIRST], root)
    old = games_of_each_table(root)
    renames = 0
    real_rename = os.rename

    def rename(source: object, target: object) -> None:
        nonlocal renames
        renames += 1
        if renames > after:
            raise Killed
        real_rename(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "rename", rename)
    with pytest.raises(Killed):
        export([SECOND], root, mode="overwrite")
    monkeypatch.undo()
    export([], root, mode="append")  # the next export tidies first
    found = games_of_each_table(root)
    assert len(found) == 1, found
    new = export([SECOND], tmp_path / "fresh")
    assert found in (old, games_of_each_table(new.root))


def test_overwrite_refuses_a_folder_that_is_not_a_dataset(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "games").mkdir(parents=True)
    (root / "games" / "notes.txt").write_text("mine")
    for mode in ("overwrite", "append"):
        with pytest.raises(DatasetError, match="not part of a truclog table"):
            export([FIRST], root, mode=mode)
    assert (root / "games" / "notes.txt").read_text() == "mine"


def test_export_refuses_the_root_of_the_file_system() -> None:
    with pytest.raises(DatasetError, match="root of the file system"):
        export([FIRST], "/", mode="overwrite")


KILLED_AT_STEP = """
import os, shutil, sys
from truclog.stats import export as module

step, steps = int(sys.argv[1]), [0]

def counted(do):
    def at_step(*args, **kwargs):
        steps[0] += 1
        if steps[0] == step:
            os._exit(9)  # killed: nothing tidied, no lock let go
        return do(*args, **kwargs)
    return at_step

module.exchange, module.fsync_dir = counted(module.exchange), counted(module.fsync_dir)
os.rename, os.chmod, shutil.rmtree = counted(os.rename), counted(os.chmod), counted(shutil.rmtree)
module.export([sys.argv[2]], sys.argv[3], mode="overwrite")
"""


def test_a_kill_at_any_step_of_overwrite_leaves_old_or_new_tables_for_readers(
    tmp_path: Path,
) -> None:
    # killed (not an error it could undo) at each step of the export in turn, the
    # dataset that readers find right away is the old one or the new one, whole
    root = tmp_path / "dataset"
    old = games_of_each_table(export([FIRST], root).root)
    new = games_of_each_table(export([SECOND], tmp_path / "fresh").root)
    kills = 0
    for step in range(1, 100):
        run = subprocess.run([sys.executable, "-c", KILLED_AT_STEP, str(step), SECOND, str(root)])
        found = games_of_each_table(root)
        assert found in (old, new), step
        visible = sorted(name for name in os.listdir(root) if not name.startswith("."))
        assert visible == sorted(TABLES), step
        if run.returncode == 0:
            break
        kills += 1
        export([], root, mode="append")  # the next export tidies what the kill left
        assert games_of_each_table(root) == found
        assert sorted(os.listdir(root)) == sorted(TABLES)
        assert sorted(os.listdir(tmp_path)) == ["dataset", "fresh"]
        if found == new:
            export([FIRST], root, mode="overwrite")  # the old tables again
    assert kills >= 5 and found == new


def test_overwrite_refuses_a_folder_holding_other_files(tmp_path: Path) -> None:
    root = tmp_path / "project"
    export([FIRST], root)
    (root / "README").write_text("mine")
    with pytest.raises(DatasetError, match="README is not part of a truclog dataset"):
        export([SECOND], root, mode="overwrite")
    assert (root / "README").read_text() == "mine"
    assert games_of_each_table(root) == games_of_each_table(export([FIRST], tmp_path / "b").root)
