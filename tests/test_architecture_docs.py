"""docs/architecture.md names every module of the package, and no module that is gone.

A module is named on a line of the page when an inline code span of that line is its
path (``truclog/stats/leaks.py``), its dotted name (``truclog.stats.leaks``), or its
path below a package folder that another span of the same line names
(``truclog/stats/`` with ``leaks.py``, as the layer table writes them). A package is
named by its folder (``truclog/tui/browse/``), its dotted name or its ``__init__.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "truclog"
DOC = ROOT / "docs" / "architecture.md"
SPAN = re.compile(r"`([^`\n]+)`")


def spans_by_line() -> list[set[str]]:
    """The inline code spans of each line of the page."""
    return [set(SPAN.findall(line)) for line in DOC.read_text().splitlines()]


def module_names(path: Path) -> tuple[str, str]:
    """A module's path from the repository's root (a package: its folder, with a
    trailing ``/``), and its dotted name."""
    relative = path.relative_to(ROOT)
    if path.name == "__init__.py" and path.parent != PACKAGE:
        folder = relative.parent.as_posix()
        return f"{folder}/", folder.replace("/", ".")
    return relative.as_posix(), relative.with_suffix("").as_posix().replace("/", ".")


def named(path: Path, lines: list[set[str]]) -> bool:
    """Whether a line names the module at ``path`` (a package also by its ``__init__.py``)."""
    file = path.relative_to(ROOT).as_posix()
    names = {file, *module_names(path)}
    for spans in lines:
        if names & spans:
            return True
        folders = [s for s in spans if s.endswith("/") and file.startswith(s)]
        if any(file[len(folder) :] in spans for folder in folders):
            return True
    return False


def test_every_module_is_named() -> None:
    """A module added to the package has its line in the architecture page."""
    lines = spans_by_line()
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 100, f"the sources of truclog are not at {PACKAGE}"
    missing = [module_names(p)[0] for p in modules if not named(p, lines)]
    assert missing == []


def test_every_module_named_exists() -> None:
    """A module moved or deleted leaves no stale path on the page."""
    paths = {s for spans in spans_by_line() for s in spans if s.startswith("truclog/")}
    gone = sorted(p for p in paths if re.fullmatch(r"[\w/.]+", p) and not (ROOT / p).exists())
    assert gone == []


def test_a_module_left_out_is_found() -> None:
    """The check reads lines as the page writes them: a folder with a file name counts
    on its own line only."""
    module = PACKAGE / "stats" / "leaks.py"
    assert named(module, [{"truclog/stats/", "leaks.py"}])
    assert named(module, [{"truclog.stats.leaks"}])
    assert not named(module, [{"truclog/stats/"}, {"leaks.py"}])
    assert not named(module, [{"truclog/stats/", "leaks"}])
    assert named(PACKAGE / "tui" / "browse" / "__init__.py", [{"truclog/tui/browse/"}])
