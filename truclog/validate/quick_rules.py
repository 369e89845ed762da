"""The rules as the quick core gets them: one declared table.

The C core (:mod:`truclog.validate._quick`) plays a game under rules given as plain values, in
a fixed order. :data:`CORE_RULES` declares, for every field of
:class:`~truclog.engine.rules.Rules` but its name, what the core gets: for a field with a few
values, the number the core knows each value by; for an open field (the order of the
ranks, a limit, the target), how it is passed. :func:`core_rules` builds the core's
values from it. A value the table does not list, a rule variant the engine has learned
but the core has not, gives ``None``: that game is checked by the Python validator,
which knows every rule.

>>> from dataclasses import replace
>>> from truclog.engine.rules import get_rules
>>> core_rules(get_rules("sackson"))
(b'AKQJT987', 1, 0, 1, 0, 1, 0, 0, 0, 1, 12)
>>> core_rules(replace(get_rules("classic"), raises="triple")) is None
True

The core declares the same layout (``truclog.validate._quick.RULES``, one word per value, a
field's known values after ``=``); ``tests/test_quick_rules.py`` holds the two to it,
and fails when a field of ``Rules`` is missing here, from the tests' rule strategy or
from the format's rule overrides.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from truclog.engine.rules import Rules

if TYPE_CHECKING:  # a type, made only for the type checker
    from collections.abc import Callable

    Passed = Mapping[Any, int] | Callable[[Any], Any]

FLAG: Final[Mapping[Any, int]] = {False: 0, True: 1}

CORE_RULES: Final[dict[str, Passed]] = {
    "order": lambda order: order.encode(),  # the ranks, high to low
    "raises": {"any": 0, "double": 1},
    "max_value": lambda limit: limit or 0,  # 0: no limit
    "cap_at_target": FLAG,
    "alternate_raises": FLAG,
    "reste": FLAG,
    "reste_refused": {"previous": 0, "game": 1},
    "all_tied": {"draw": 0, "non_dealer": 1},
    "fold_anytime": FLAG,
    "redeal": {"rest": 0, "reshuffle": 1, "none": 2},
    "target": int,
}
"""Each rule the core plays, in the order it reads them, and what it gets for it."""

NOT_PASSED: Final = frozenset({"name"})
"""Fields of ``Rules`` the core does not need: ``name`` labels the other fields."""


_KNOWN: dict[int, tuple[Rules, tuple[Any, ...] | None]] = {}
"""The values of rules met before, by identity (games under one preset share its rules)."""


def core_rules(rules: Rules) -> tuple[Any, ...] | None:
    """The values the quick core plays ``rules`` by, or ``None`` when it does not know one."""
    known = _KNOWN.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    if len(_KNOWN) >= 64:
        _KNOWN.clear()
    values = _core_values(rules)
    _KNOWN[id(rules)] = (rules, values)
    return values


def _core_values(rules: Rules) -> tuple[Any, ...] | None:
    values = []
    for field, passed in CORE_RULES.items():
        value = getattr(rules, field)
        if not callable(passed):
            if type(value) not in {type(key) for key in passed} or value not in passed:
                return None
            value = passed[value]
        else:
            value = passed(value)
        values.append(value)
    return tuple(values)
