"""A package's names, each imported from its module when first used.

A package such as :mod:`truclog.engine` or :mod:`truclog.validate` offers the names of
its modules at its own level, yet importing one light module of it (the rules, the
quick core) must not import the heavy ones beside it.

>>> import sys, types
>>> package = types.ModuleType("demo")
>>> package.__getattr__ = exports(vars(package), {"sqrt": "math"})
>>> package.sqrt(9.0), "sqrt" in vars(package)
(3.0, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def exports(namespace: dict[str, Any], names: Mapping[str, str]) -> Callable[[str], Any]:
    """The module ``__getattr__`` giving each of ``names`` (a name and the module it
    comes from), imported on first use and kept in ``namespace``."""
    package = namespace.get("__name__", "package")

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        from importlib import import_module

        value = getattr(import_module(module), name)
        namespace[name] = value
        return value

    return __getattr__
