"""Which build runs: compiled by mypyc or pure Python, with or without the quick core.

Cheap to import (no engine, no models), so that ``truclog --version`` is quick.
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from importlib.machinery import PathFinder
from types import ModuleType

_HERE = os.path.dirname(__file__)

_quick: ModuleType | None
try:
    _quick = importlib.import_module("truclog.validate._quick")
except ImportError:  # a build without a C compiler: everything line by line
    _quick = None


def _compiled() -> bool:
    """Whether the engine is imported compiled: found in the package's folder as an
    extension module (as the import system finds it, without the start-up of
    :mod:`importlib.util`)."""
    spec = PathFinder.find_spec("truclog.engine.state", [os.path.join(_HERE, "engine")])
    return spec is not None and spec.origin is not None and not spec.origin.endswith(".py")


COMPILED = _compiled()
"""Whether the engine and the validator run compiled (mypyc), as ``pip install .`` builds them."""


def _fresh(core: ModuleType, source: str) -> bool:
    """Whether the C extension ``core`` was built from the file ``source``, if it exists
    (a work tree): a core left from an older source is not used."""
    if not os.path.exists(source):
        return True
    from truclog.sources import source_digest  # a work tree only: no C sources installed

    try:
        return source_digest(source) == str(core.SOURCE)
    except OSError:  # a header it includes is missing
        return False


def built_from_source(beside: str = os.path.join(_HERE, "validate", "quick.py")) -> bool:
    """Whether the quick core was built from the ``_quick.c`` in the folder of ``beside``,
    if there is one (a work tree): a core left from an older source is not used."""
    return _quick is not None and _fresh(_quick, os.path.join(os.path.dirname(beside), "_quick.c"))


@cache
def solver(beside: str = os.path.join(_HERE, "solver", "strength.py")) -> ModuleType | None:
    """The C solver (``truclog.solver._solve``) if it was built, and built from the ``_solve.c``
    in the folder of ``beside`` when there is one (a work tree after an edit of the
    source uses the Python solver until ``pip install -e .`` builds it again)."""
    try:
        solve = importlib.import_module("truclog.solver._solve")
    except ImportError:  # a build without a C compiler
        return None
    return solve if _fresh(solve, os.path.join(os.path.dirname(beside), "_solve.c")) else None


STALE = _quick is not None and not built_from_source()
"""The quick core was built from another ``_quick.c``: ``pip install -e .`` builds it again."""

QUICK_CORE: ModuleType | None = None if STALE else _quick
"""The quick core (``truclog.validate._quick``), when it was built from this source."""

AVAILABLE = QUICK_CORE is not None
"""Whether the quick core was built (from this source)."""


def describe() -> str:
    """Which build runs, in words.

    >>> describe().startswith(("compiled, ", "pure Python, "))
    True
    """
    core = (
        "quick core"
        if AVAILABLE
        else "quick core out of date (pip install -e . builds it again)"
        if STALE
        else "no quick core"
    )
    return f"{'compiled' if COMPILED else 'pure Python'}, {core}"
