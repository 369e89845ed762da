"""Diagnostic codes: declared once, in truclog/codes.py, and documented, both ways."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from truclog import codes

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "truclog"  # the sources, also when the tests run against an install
DOCS = ROOT / "docs" / "validation.md"
CODE = re.compile(r"\b[EW]\d{3}\b")


def constants() -> list[tuple[str, str]]:
    return [
        (f"{group.__name__}.{name}", value)
        for group in codes.GROUPS
        for name, value in vars(group).items()
        if name.isupper()
    ]


def test_every_code_is_declared_once() -> None:
    values = [value for _, value in constants()]
    twice = sorted({v for v in values if values.count(v) > 1})
    assert not twice, f"declared more than once: {twice}"
    assert all(CODE.fullmatch(value) for value in values)
    assert set(codes.declared()) == set(values)


def test_the_documented_codes_are_the_declared_codes() -> None:
    documented = set(CODE.findall(DOCS.read_text()))
    declared = set(codes.declared())
    assert sorted(declared - documented) == [], "declared in truclog/codes.py, not documented"
    assert sorted(documented - declared) == [], "documented, not declared in truclog/codes.py"


def test_no_module_spells_a_code_but_the_table() -> None:
    spelled = []
    sources = sorted(PACKAGE.rglob("*.py"))
    assert len(sources) > 30, f"the sources of truclog are not at {PACKAGE}"
    for path in sources:
        if path.name == "codes.py" and path.parent == PACKAGE:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and CODE.fullmatch(text):
                spelled.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {text}")
    assert spelled == [], "codes written out instead of named from truclog.codes"
