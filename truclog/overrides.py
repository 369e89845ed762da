"""Rules given as values checked before they are made: a preset with a log's or a
user's overrides.

:class:`RuleValues` is the pydantic model of every field of
:class:`~truclog.rules.Rules`, with what each may hold; :func:`checked` gives the
values as the model reads them (the order of the ranks written ``T`` for ``10`` and
in capitals), or a :class:`~truclog.errors.RulesError` saying what is wrong with
each. Only :func:`~truclog.rules.get_rules` imports this module, when a rule is
overridden, so that the presets cost no pydantic.

>>> checked({"order": "78akqj109", "target": 8})["order"]
'78AKQJT9'
>>> checked({"order": "78AKQJT9", "target": 0, "trumps": True})
Traceback (most recent call last):
...
truclog.errors.RulesError: bad rule override: target: Input should be greater than or equal to 1; trumps: Extra inputs are not permitted
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from truclog.cards import RANKS
from truclog.errors import RulesError


class RuleValues(BaseModel):
    """The fields of :class:`~truclog.rules.Rules` (the same names, values and
    defaults; ``tests/test_rules.py`` holds the two together) and what each may hold."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(default="custom", description="The preset these rules start from")
    order: str = Field(description="Ranks from highest to lowest, e.g. '78AKQJT9'")
    raises: Literal["any", "double"] = "any"
    max_value: int | None = Field(default=None, ge=1)
    cap_at_target: bool = False
    alternate_raises: bool = False
    reste: bool = True
    reste_refused: Literal["previous", "game"] = "previous"
    all_tied: Literal["draw", "non_dealer"] = "draw"
    fold_anytime: bool = False
    redeal: Literal["rest", "reshuffle", "none"] = "rest"
    target: int = Field(default=12, ge=1)

    @field_validator("order", mode="before")
    @classmethod
    def _normalise_order(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        order = value.upper().replace("10", "T")
        if not order or any(r not in RANKS for r in order) or len(set(order)) != len(order):
            raise ValueError(f"order must list distinct ranks of {RANKS}, high to low")
        return order


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
