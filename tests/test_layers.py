"""Layers go one way: no module of truclog imports a layer above its own.

Every import counts, at the top of a module, inside a function (the lazy ones) or for
the type checker alone: a name imported lazily still ties its module to the layer it
comes from. The layers are drawn in ``docs/architecture.md``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "truclog"  # the sources, also against an install

LAYERS = [
    ["base"],
    ["engine"],
    ["solver"],
    ["format"],
    ["validate", "record", "simulate"],
    ["replay"],
    ["stats", "share"],
    ["cli", "tui", "__main__"],
]
"""From the bottom up: the top-level modules (codes, errors, diagnostics, the build,
the terminal, the lazy exports), the engine, the solver, the log format, then what
reads or writes logs through it (the validator; the recorder and the simulator, which
write what the engine decides and read no validator), the replay API, the statistics
(with ratings and the Dask runs) beside the shared pages and cards, and, on top, the
command line and the Textual apps."""

RANK = {part: rank for rank, parts in enumerate(LAYERS) for part in parts}

FRONT_DOOR = "truclog"
"""``truclog/__init__.py`` offers the names of every layer, each imported when first
used: the package's front door is outside the layers, and imports from it are of its
own light module (``__version__``, ``build``)."""


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources() -> dict[str, Path]:
    found = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    assert len(found) > 30, f"the sources of truclog are not at {PACKAGE}"
    return found


MODULES = sources()


def layer(module: str) -> str:
    """The layer of a truclog module: its package under ``truclog`` (the replay API and
    ``__main__`` are layers of their own), or ``base`` for another top-level module."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in RANK) else "base"


def imported(module: str, tree: ast.Module) -> list[tuple[int, str]]:
    """Each truclog module ``module`` imports, with its line: ``from truclog import x``
    counts as the module ``truclog.x`` when there is one."""
    found = []
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("truclog")]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([base] if base else [])])
            if base != "truclog" and not base.startswith("truclog."):
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append((node.lineno, sub if sub in MODULES else base))
    return found


def upward_imports() -> list[str]:
    wrong = []
    for module, path in MODULES.items():
        if module == FRONT_DOOR:
            continue
        own = RANK[layer(module)]
        for line, target in imported(module, ast.parse(path.read_text(), str(path))):
            if target != FRONT_DOOR and RANK[layer(target)] > own:
                where = path.relative_to(PACKAGE.parent)
                wrong.append(f"{where}:{line} ({layer(module)}) imports {target} ({layer(target)})")
    return wrong


def test_every_package_of_truclog_has_a_layer() -> None:
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert packages - set(RANK) == set()


def test_no_module_imports_a_layer_above_its_own() -> None:
    assert upward_imports() == []


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("truclog.codes", "base"),
        ("truclog.engine", "engine"),
        ("truclog.engine.state", "engine"),
        ("truclog.solver.strength", "solver"),
        ("truclog.format.reader", "format"),
        ("truclog.validate.checker", "validate"),
        ("truclog.replay", "replay"),
        ("truclog.stats.ratings", "stats"),
        ("truclog.tui.browse.app", "tui"),
        ("truclog.__main__", "__main__"),
    ],
)
def test_each_module_is_in_the_layer_of_its_package(module: str, expected: str) -> None:
    assert layer(module) == expected


def test_an_upward_import_is_found() -> None:
    """The check itself: an engine module importing the validator lazily, inside a
    function, and the format importing the solver for types alone, are both found."""
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from truclog.solver import strength\n"
        "def f():\n"
        "    from truclog.validate.checker import GameChecker\n"
    )
    found = imported("truclog.engine.state", tree)
    assert found == [(3, "truclog.solver.strength"), (5, "truclog.validate.checker")]
    assert [RANK[layer(target)] > RANK["engine"] for _, target in found] == [True, True]
