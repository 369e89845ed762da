"""Each idea has one name in the package: no two classes share one, and the helpers
that make a file durable exist once."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import truclog
from truclog.writer import fsync_dir

PACKAGE = Path(truclog.__file__).parent


def definitions() -> list[tuple[ast.AST, str]]:
    """Every class and function defined anywhere in the package, with where."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef | ast.FunctionDef):
                found.append((node, f"{path.relative_to(PACKAGE)}:{node.lineno}"))
    return found


def test_no_two_classes_share_a_name() -> None:
    """Private or not: ``_Deal`` beside ``Deal`` reads as the same thing."""
    places: dict[str, list[str]] = defaultdict(list)
    for node, where in definitions():
        if isinstance(node, ast.ClassDef):
            places[node.name.lstrip("_")].append(where)
    shared = {name: where for name, where in places.items() if len(where) > 1}
    assert shared == {}


def test_one_function_syncs_a_directory() -> None:
    """Every durable write (the writer's new logs, the recorder's rewrites) syncs its
    directory through :func:`truclog.writer.fsync_dir`."""
    syncing = [
        where
        for node, where in definitions()
        if isinstance(node, ast.FunctionDef)
        and any(isinstance(n, ast.Attribute) and n.attr == "O_RDONLY" for n in ast.walk(node))
    ]
    assert len(syncing) == 1 and syncing[0].startswith("writer.py:"), syncing


def test_fsync_dir_syncs_a_directory_and_tolerates_one_it_cannot_open(tmp_path: Path) -> None:
    (tmp_path / "log.jsonl").write_bytes(b"{}\n")
    fsync_dir(tmp_path)
    fsync_dir(tmp_path / "gone")  # cannot be opened: nothing to sync, no error
