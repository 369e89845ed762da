"""Each idea has one name in the package: no two classes share one, the bluff threshold is
one constant, and the helpers that make a file durable exist once."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from truclog.format.atomic import fsync_dir

PACKAGE = Path(__file__).parent.parent / "truclog"  # the sources, also against an install


def modules() -> list[tuple[Path, ast.Module]]:
    found = [(p, ast.parse(p.read_text(), str(p))) for p in sorted(PACKAGE.rglob("*.py"))]
    assert len(found) > 30, f"the sources of truclog are not at {PACKAGE}"
    return found


def definitions() -> list[tuple[ast.AST, str]]:
    """Every class and function defined anywhere in the package, with where."""
    return [
        (node, f"{path.relative_to(PACKAGE)}:{node.lineno}")
        for path, module in modules()
        for node in ast.walk(module)
        if isinstance(node, ast.ClassDef | ast.FunctionDef)
    ]


def other_names() -> dict[str, list[str]]:
    """Type aliases (``Clock = Callable[...]``) and names taken from libraries
    (``from rich.table import Table``): a class must not share them either."""
    names: dict[str, list[str]] = defaultdict(list)
    for path, module in modules():
        where = str(path.relative_to(PACKAGE))
        for node in module.body:
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name) and _is_type_name(target.id):
                        names[target.id].append(f"{where} (alias)")
        for node in ast.walk(module):
            library = node.module if isinstance(node, ast.ImportFrom) and node.level == 0 else None
            if library and library.split(".")[0] != "truclog":
                for alias in node.names:  # type: ignore[attr-defined]
                    names[alias.asname or alias.name].append(f"{where} ({library})")
    return names


def _is_type_name(name: str) -> bool:
    """``Clock``, not a ``CONSTANT``."""
    return name[:1].isupper() and not name.isupper()


def test_no_two_classes_share_a_name() -> None:
    """Private or not: ``_Deal`` beside ``Deal`` reads as the same thing; nor may a class
    share the name of a type alias or of a library's class used in the package."""
    places: dict[str, list[str]] = defaultdict(list)
    for node, where in definitions():
        if isinstance(node, ast.ClassDef):
            places[node.name.lstrip("_")].append(where)
    others = other_names()
    shared = {
        name: where + others.get(name, [])
        for name, where in places.items()
        if len(where) > 1 or name in others
    }
    assert shared == {}


def test_one_function_syncs_a_directory() -> None:
    """Every durable write (the writer's new logs, the recorder's rewrites) syncs its
    directory through :func:`truclog.format.atomic.fsync_dir`."""
    syncing = [
        where
        for node, where in definitions()
        if isinstance(node, ast.FunctionDef)
        and any(isinstance(n, ast.Attribute) and n.attr == "O_RDONLY" for n in ast.walk(node))
    ]
    assert len(syncing) == 1 and syncing[0].startswith("format/atomic.py:"), syncing


def test_fsync_dir_syncs_a_directory_and_tolerates_one_it_cannot_open(tmp_path: Path) -> None:
    (tmp_path / "log.jsonl").write_bytes(b"{}\n")
    fsync_dir(tmp_path)
    fsync_dir(tmp_path / "gone")  # cannot be opened: nothing to sync, no error


def test_one_bluff_threshold() -> None:
    """What counts as a bluff is said once, :data:`truclog.solver.bluff.BLUFF_THRESHOLD`:
    a parameter for it (``threshold``, ``bluff_threshold``) defaults to that name, never
    to a number of its own."""
    from truclog.solver.bluff import BLUFF_THRESHOLD

    own: list[str] = []
    defaults = 0
    for node, where in definitions():
        if not isinstance(node, ast.FunctionDef):
            continue
        arguments = node.args
        given = [*arguments.posonlyargs, *arguments.args]
        pairs = list(
            zip(given[len(given) - len(arguments.defaults) :], arguments.defaults, strict=True)
        )
        pairs += [
            (a, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d
        ]
        for argument, default in pairs:
            if argument.arg in ("threshold", "bluff_threshold"):
                defaults += 1
                if not (isinstance(default, ast.Name) and default.id == "BLUFF_THRESHOLD"):
                    own.append(f"{where} {argument.arg}={ast.unparse(default)}")
    assert defaults >= 5 and BLUFF_THRESHOLD == 0.5
    assert own == []
