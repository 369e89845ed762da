"""Rules given as values checked before they are made: a preset with a log's or a
user's overrides.

:class:`RuleValues` is the pydantic model of every field of
:class:`~truclog.engine.rules.Rules`, made from them, with what each may hold;
:func:`checked` gives the values as the model reads them (the order of the ranks written ``T`` for ``10`` and
in capitals), or a :class:`~truclog.errors.RulesError` saying what is wrong with
each. Only :func:`~truclog.engine.rules.get_rules` imports this module, when a rule is
overridden, so that the presets cost no pydantic.

>>> checked({"order": "78akqj109", "target": 8})["order"]
'78AKQJT9'
>>> checked({"order": "78AKQJT9", "target": 0, "trumps": True})
Traceback (most recent call last):
...
truclog.errors.RulesError: bad rule override: target: Input should be greater than or equal to 1; trumps: Extra inputs are not permitted
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Annotated, Any, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, field_validator

from truclog.engine.cards import RANKS
from truclog.engine.rules import Rules
from truclog.errors import RulesError

AT_LEAST_ONE = frozenset({"max_value", "target"})
"""The fields of :class:`~truclog.engine.rules.Rules` that are counts of points: 1 or more."""


def _normalise_order(value: Any) -> Any:
    """An order of ranks in upper case (``10`` as ``T``), each rank once and of the deck's ranks."""
    if not isinstance(value, str):
        return value
    order = value.upper().replace("10", "T")
    if not order or any(r not in RANKS for r in order) or len(set(order)) != len(order):
        raise ValueError(f"order must list distinct ranks of {RANKS}, high to low")
    return order


def _rule_values() -> type[BaseModel]:
    """The model of :class:`~truclog.engine.rules.Rules`: its fields, their types and defaults."""
    types = get_type_hints(Rules)
    declared: dict[str, Any] = {
        field.name: (
            Annotated[types[field.name], Field(ge=1)]
            if field.name in AT_LEAST_ONE
            else types[field.name],
            ... if field.default is MISSING else field.default,
        )
        for field in fields(Rules)
    }
    return create_model(
        "RuleValues",
        __doc__="Every field of a set of rules, as values checked field by field.",
        __config__=ConfigDict(frozen=True, extra="forbid"),
        __validators__={
            "normalise_order": field_validator("order", mode="before")(_normalise_order)
        },
        **declared,
    )


RuleValues = _rule_values()
"""The pydantic model of every field of :class:`~truclog.engine.rules.Rules` (made from its
fields: the same names, types and defaults) and what each may hold."""


def checked(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` (every field of a set of rules, or a default left out) as the model
    reads them; a :class:`~truclog.errors.RulesError` naming each field that is wrong."""
    try:
        return RuleValues.model_validate(values).model_dump()
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg'].removeprefix('Value error, ')}"
            for err in exc.errors()
        )
        raise RulesError(f"bad rule override: {problems}") from None
