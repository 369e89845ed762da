"""Rule variants as named presets, with per-field overrides.

>>> rules = get_rules("classic")
>>> rules.order, rules.raises, rules.reste_refused
('78AKQJT9', 'any', 'previous')
>>> get_rules({"preset": "francais", "target": 8}).target
8
>>> rules.beats("7", "A"), rules.beats("9", "T")
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from truclog.cards import RANKS
from truclog.errors import RulesError


class Rules(BaseModel):
    """One set of rules; see ``docs/rules.md`` for what each field means at the table."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", ignored_types=(cached_property,), defer_build=True
    )

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

    @cached_property
    def strength(self) -> dict[str, int]:
        """Rank -> power, higher beats lower (``{'9': 0, ..., '7': 7}`` in classic)."""
        return {rank: len(self.order) - i for i, rank in enumerate(self.order)}

    def beats(self, rank: str, other: str) -> bool:
        """True when ``rank`` beats ``other`` under these rules."""
        return self.strength[rank] > self.strength[other]

    @property
    def deck_size(self) -> int:
        return 4 * len(self.order)

    def describe(self) -> str:
        """A short label for messages: the preset name, with ``*`` when overridden."""
        base = PRESETS.get(self.name)
        return self.name if base is None or base == self else f"{self.name}*"


_CLASSIC = {
    "order": "78AKQJT9",
    "raises": "any",
    "alternate_raises": True,
    "reste": True,
    "reste_refused": "previous",
    "all_tied": "non_dealer",
    "fold_anytime": False,
    "redeal": "rest",
}


def _known(**fields: Any) -> Rules:
    """Rules written here, taken as they are: the models are built only when a log
    overrides a rule (``tests/test_rules.py`` checks each preset against them)."""
    return Rules.model_construct(**fields)


PRESETS: dict[str, Rules] = {
    "classic": _known(name="classic", **_CLASSIC),
    "gamerules": _known(
        name="gamerules",
        **{
            **_CLASSIC,
            "alternate_raises": False,
            "reste_refused": "game",
            "all_tied": "draw",
            "fold_anytime": True,
        },
    ),
    "sackson": _known(
        name="sackson",
        order="AKQJT987",
        raises="double",
        cap_at_target=True,
        reste=True,
        reste_refused="previous",
        all_tied="draw",
        redeal="reshuffle",
    ),
    "francais": _known(
        name="francais",
        order="76AKQJT9",
        raises="double",
        max_value=8,
        reste=False,
        all_tied="draw",
        redeal="rest",
    ),
    "classic-36": _known(name="classic-36", **{**_CLASSIC, "order": "76AKQJT98"}),
    "eight-high": _known(name="eight-high", **{**_CLASSIC, "order": "87AKQJT9"}),
    "eight-low": _known(name="eight-low", **{**_CLASSIC, "order": "7AKQJT98"}),
}

DEFAULT_PRESET = "classic"


def get_rules(spec: str | Mapping[str, Any] | Rules | None = None) -> Rules:
    """The rules a log declares: a preset name, or ``{"preset": name, **overrides}``.

    >>> get_rules("nope")
    Traceback (most recent call last):
    ...
    truclog.errors.RulesError: unknown rules preset 'nope'; known presets: classic, gamerules, sackson, francais, classic-36, eight-high, eight-low
    """
    if spec is None:
        return PRESETS[DEFAULT_PRESET]
    if isinstance(spec, Rules):
        return spec
    if isinstance(spec, str):
        return _preset(spec)
    overrides = dict(spec)
    base = _preset(str(overrides.pop("preset", DEFAULT_PRESET)))
    if "name" in overrides:
        raise RulesError("'name' is not a rule override; use 'preset' to name the base rules")
    if not overrides:
        return base
    try:
        return Rules.model_validate({**base.model_dump(), **overrides})
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg'].removeprefix('Value error, ')}"
            for err in exc.errors()
        )
        raise RulesError(f"bad rule override: {problems}") from None


def _preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(
            f"unknown rules preset '{name}'; known presets: {', '.join(PRESETS)}"
        ) from None
