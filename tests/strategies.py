"""Hypothesis strategies shared by the tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from truclog.engine.rules import PRESETS

TARGETS = st.integers(1, 21)


def rules_objects(
    max_values: Sequence[int | None] = (None, 2, 4, 8, 20),
    targets: st.SearchStrategy[int] = TARGETS,
    orders: st.SearchStrategy[str] | None = None,
) -> st.SearchStrategy[dict[str, Any]]:
    """A log's ``rules`` as an object: a preset and any of the overrides of format.md."""
    optional = rule_overrides(max_values, targets, orders)
    return st.fixed_dictionaries({"preset": st.sampled_from(list(PRESETS))}, optional=optional)


def rule_overrides(
    max_values: Sequence[int | None] = (None, 2, 4, 8, 20),
    targets: st.SearchStrategy[int] = TARGETS,
    orders: st.SearchStrategy[str] | None = None,
) -> dict[str, st.SearchStrategy[Any]]:
    """Each rule a log may override, and the values drawn for it (``order`` when given)."""
    optional: dict[str, st.SearchStrategy[Any]] = {
        "raises": st.sampled_from(["any", "double"]),
        "max_value": st.sampled_from(list(max_values)),
        "cap_at_target": st.booleans(),
        "alternate_raises": st.booleans(),
        "reste": st.booleans(),
        "reste_refused": st.sampled_from(["previous", "game"]),
        "all_tied": st.sampled_from(["draw", "non_dealer"]),
        "fold_anytime": st.booleans(),
        "redeal": st.sampled_from(["rest", "reshuffle", "none"]),
        "target": targets,
    }
    if orders is not None:
        optional = {"order": orders, **optional}
    return optional
