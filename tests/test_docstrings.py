"""Every public member of the library has a docstring: each module, and each public
class, function, method and property of the layers below the command line and the
Textual apps (the API of ``docs/api.md`` and what it is built from)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from types import ModuleType

import truclog

APPS = ("truclog.cli", "truclog.tui")
"""The command line and the Textual apps: their members are click commands and Textual
hooks (``compose``, ``on_*``, ``action_*``), whose help and bindings say what they do."""


def library_modules() -> list[ModuleType]:
    modules = []
    for info in pkgutil.walk_packages(truclog.__path__, "truclog."):
        name = info.name
        private = any(part.startswith("_") for part in name.split(".")[1:])
        if private or name.startswith(APPS):
            continue
        try:
            modules.append(importlib.import_module(name))
        except ImportError:  # an optional part whose extra is not installed (Dask)
            continue
    return modules


def undocumented(module: ModuleType) -> list[str]:
    """The public members of ``module`` (defined there) that have no docstring."""
    name = module.__name__
    found = [] if module.__doc__ else [name]
    for attr, obj in list(vars(module).items()):
        if attr.startswith("_") or getattr(obj, "__module__", None) != name:
            continue
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue
        if not inspect.getdoc(obj) or (inspect.isclass(obj) and obj.__doc__ is None):
            found.append(f"{name}.{attr}")
        if inspect.isclass(obj):
            for member, value in list(vars(obj).items()):
                function = value.fget if isinstance(value, property) else value
                function = getattr(function, "__func__", function)
                if member.startswith("_") or not inspect.isfunction(function):
                    continue
                if not function.__doc__:
                    found.append(f"{name}.{attr}.{member}")
    return found


def test_every_public_member_of_the_library_has_a_docstring() -> None:
    missing = [member for module in library_modules() for member in undocumented(module)]
    assert missing == [], "undocumented: " + ", ".join(missing)
