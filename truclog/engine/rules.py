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
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any, Literal

import orjson

from truclog.errors import RulesError


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """One set of rules; see ``docs/rules.md`` for what each field means at the table.

    A plain frozen record: :func:`get_rules` checks rules given as values (a log's or
    a user's overrides) before it makes them, and the presets are written right.
    """

    name: str = "custom"
    """The preset these rules start from."""
    order: str
    """Ranks from highest to lowest, e.g. ``'78AKQJT9'``."""
    raises: Literal["any", "double"] = "any"
    max_value: int | None = None
    cap_at_target: bool = False
    alternate_raises: bool = False
    reste: bool = True
    reste_refused: Literal["previous", "game"] = "previous"
    all_tied: Literal["draw", "non_dealer"] = "draw"
    fold_anytime: bool = False
    redeal: Literal["rest", "reshuffle", "none"] = "rest"
    target: int = 12

    @property
    def strength(self) -> dict[str, int]:
        """Rank -> power, higher beats lower (``{'9': 1, ..., '7': 8}`` in classic)."""
        return rank_power(self.order)

    def beats(self, rank: str, other: str) -> bool:
        """True when ``rank`` beats ``other`` under these rules."""
        strength = rank_power(self.order)
        return strength[rank] > strength[other]

    @property
    def deck_size(self) -> int:
        """How many cards the deck holds: four suits of each rank in ``order``."""
        return 4 * len(self.order)

    def describe(self) -> str:
        """A short label for messages: the preset name, with ``*`` when overridden."""
        base = PRESETS.get(self.name)
        return self.name if base is None or base == self else f"{self.name}*"

    def as_dict(self) -> dict[str, Any]:
        """Every field and its value, in the order of the fields.

        >>> get_rules("francais").as_dict()["max_value"]
        8
        """
        return asdict(self)

    def as_json(self) -> str:
        """:meth:`as_dict` as compact JSON (simulations seed their dice with it).

        >>> get_rules("sackson").as_json()[:46]
        '{"name":"sackson","order":"AKQJT987","raises":'
        """
        return orjson.dumps(asdict(self)).decode()


@cache
def rank_power(order: str) -> dict[str, int]:
    """Rank -> power under an order of ranks (highest first): the highest has the most.

    >>> rank_power("78AKQJT9")["7"], rank_power("78AKQJT9")["9"]
    (8, 1)
    """
    return {rank: len(order) - i for i, rank in enumerate(order)}


_CLASSIC: dict[str, Any] = {
    "order": "78AKQJT9",
    "raises": "any",
    "alternate_raises": True,
    "reste": True,
    "reste_refused": "previous",
    "all_tied": "non_dealer",
    "fold_anytime": False,
    "redeal": "rest",
}


PRESETS: dict[str, Rules] = {
    "classic": Rules(name="classic", **_CLASSIC),
    "gamerules": Rules(
        name="gamerules",
        **{
            **_CLASSIC,
            "alternate_raises": False,
            "reste_refused": "game",
            "all_tied": "draw",
            "fold_anytime": True,
        },
    ),
    "sackson": Rules(
        name="sackson",
        order="AKQJT987",
        raises="double",
        cap_at_target=True,
        reste=True,
        reste_refused="previous",
        all_tied="draw",
        redeal="reshuffle",
    ),
    "francais": Rules(
        name="francais",
        order="76AKQJT9",
        raises="double",
        max_value=8,
        reste=False,
        all_tied="draw",
        redeal="rest",
    ),
    "classic-36": Rules(name="classic-36", **{**_CLASSIC, "order": "76AKQJT98"}),
    "eight-high": Rules(name="eight-high", **{**_CLASSIC, "order": "87AKQJT9"}),
    "eight-low": Rules(name="eight-low", **{**_CLASSIC, "order": "7AKQJT98"}),
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
    from truclog.engine.overrides import checked  # pydantic, only for rules given as values

    return Rules(**checked({**base.as_dict(), **overrides}))


def _preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(
            f"unknown rules preset '{name}'; known presets: {', '.join(PRESETS)}"
        ) from None
