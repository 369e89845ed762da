"""Every public member of truclog has a docstring: each module, and each public class,
function, method and property, in the library layers and in the command line and the
Textual apps alike.

In the Textual apps two kinds of hook are already said elsewhere and need none:
``action_*`` methods that a key binding (``Binding(key, action, description)``) or a
command palette entry (``SystemCommand(title, help, self.action_…)``) of their own class
describes, since the footer, the help page and the palette show that text to the user;
and ``compose`` in a class with a docstring, since that docstring says what the widget
or screen shows. Every other hook (``on_*`` handlers, ``watch_*``, ``render*``, ...)
says in a docstring what it does for the user. Click commands have docstrings anyway:
they are the ``--help`` text.

The sources are read, not the imported modules: a build compiled with mypyc keeps
no docstring on its modules and classes, though the sources have them."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TypeGuard

ROOT = Path(__file__).resolve().parent.parent / "truclog"

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def sources() -> list[Path]:
    """Every public module of truclog (none of whose parts starts with ``_``)."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if not any(p.startswith("_") for p in parts if p != "__init__"):
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


def _text(node: ast.expr | None) -> str:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""


def _own(node: ast.expr) -> TypeGuard[ast.Attribute]:
    """``self.<name>``: a member of the class itself."""
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def described_actions(cls: ast.ClassDef) -> set[str]:
    """The actions a binding or a command palette entry of ``cls`` describes to the user."""
    found = set()
    for node in ast.walk(cls):
        if not isinstance(node, ast.Call) or len(node.args) < 3:
            continue
        called = node.func.id if isinstance(node.func, ast.Name) else ""
        if called == "Binding" and _text(node.args[2]):
            found.add(_text(node.args[1]).partition("(")[0])
        elif called == "SystemCommand" and _text(node.args[1]) and _own(node.args[2]):
            found.add(node.args[2].attr.removeprefix("action_"))
    return found


def _said_elsewhere(cls: ast.ClassDef, member: Definition) -> bool:
    if member.name == "compose":
        return ast.get_docstring(cls) is not None
    action = member.name.removeprefix("action_")
    return member.name.startswith("action_") and action in described_actions(cls)


def undocumented(path: Path, root: Path = ROOT) -> list[str]:
    """The public members defined in the module at ``path`` (in the package at ``root``)
    that have no docstring."""
    name = ".".join((root.name, *path.relative_to(root).with_suffix("").parts))
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
                if not isinstance(member, ast.ClassDef)
                and not ast.get_docstring(member)
                and not _said_elsewhere(node, member)
            ]
    return found


def test_every_public_member_has_a_docstring() -> None:
    missing = [member for path in sources() for member in undocumented(path)]
    assert missing == [], f"{len(missing)} undocumented: " + ", ".join(missing)


def test_the_apps_are_read_too() -> None:
    read = {path.relative_to(ROOT).parts[0] for path in sources()}
    assert {"cli", "tui", "engine", "replay.py"} <= read


def test_an_undocumented_handler_is_found_and_a_described_action_is_not(tmp_path: Path) -> None:
    source = tmp_path / "screen.py"
    source.write_text(
        '"""A screen."""\n'
        "class Shown:\n"
        '    """What it shows."""\n'
        '    BINDINGS = [Binding("n", "next", "Next hand"), Binding("b", "back", "")]\n'
        "    def get_system_commands(self, screen):\n"
        '        """The palette."""\n'
        '        yield SystemCommand("Players", "Player statistics", self.action_players)\n'
        '        yield SystemCommand("Raise", "Next raise", screen.action_raise)\n'
        "    def action_players(self): ...\n"
        "    def action_raise(self): ...\n"
        "    def compose(self): ...\n"
        "    def action_next(self): ...\n"
        "    def action_back(self): ...\n"
        "    def on_mount(self): ...\n"
    )
    assert undocumented(source, tmp_path) == [
        f"{tmp_path.name}.screen.Shown.action_raise",
        f"{tmp_path.name}.screen.Shown.action_back",
        f"{tmp_path.name}.screen.Shown.on_mount",
    ]
