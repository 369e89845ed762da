"""Every public member of the library has a docstring: each module, and each public
class, function, method and property of the layers below the command line and the
Textual apps (the API of ``docs/api.md`` and what it is built from).

The sources are read, not the imported modules: a build compiled with mypyc keeps
no docstring on its modules and classes, though the sources have them."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "truclog"
APPS = ("cli", "tui")
"""The command line and the Textual apps: their members are click commands and Textual
hooks (``compose``, ``on_*``, ``action_*``), whose help and bindings say what they do."""

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def library_sources() -> list[Path]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[0] in APPS or any(p.startswith("_") for p in parts if p != "__init__"):
            continue
        found.append(path)
    return found


def _accessor(node: ast.AST) -> bool:
    """A property's setter or deleter, or an overload: the property itself says it."""
    decorators = getattr(node, "decorator_list", [])
    return any(
        (isinstance(d, ast.Attribute) and d.attr in ("setter", "deleter"))
        or (isinstance(d, ast.Name) and d.id == "overload")
        for d in decorators
    )


def _public(nodes: list[ast.stmt]) -> list[Definition]:
    return [
        node
        for node in nodes
        if isinstance(node, Definition) and not node.name.startswith("_") and not _accessor(node)
    ]


def undocumented(path: Path) -> list[str]:
    """The public members defined in the module at ``path`` that have no docstring."""
    name = ".".join(("truclog", *path.relative_to(ROOT).with_suffix("").parts))
    name = name.removesuffix(".__init__")
    tree = ast.parse(path.read_text("utf-8"))
    found = [] if ast.get_docstring(tree) else [name]
    for node in _public(tree.body):
        if not ast.get_docstring(node):
            found.append(f"{name}.{node.name}")
        if isinstance(node, ast.ClassDef):
            found += [
                f"{name}.{node.name}.{member.name}"
                for member in _public(node.body)
                if not isinstance(member, ast.ClassDef) and not ast.get_docstring(member)
            ]
    return found


def test_every_public_member_of_the_library_has_a_docstring() -> None:
    missing = [member for path in library_sources() for member in undocumented(path)]
    assert missing == [], "undocumented: " + ", ".join(missing)
