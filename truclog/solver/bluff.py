"""What counts as a bluff: a raise made with a known hand weaker than a threshold of
strength (the hand's chance of winning at the raise, :mod:`truclog.solver.strength`).

Statistics count bluffs, the browser and ``truclog show`` mark them, the bots raise
with hands below it only as often as their style bluffs, all from this one threshold
unless told another (``--bluff-threshold``).

>>> is_bluff(0.37), is_bluff(0.5), is_bluff(None), is_bluff(0.6, threshold=0.8)
(True, False, False, True)
"""

from __future__ import annotations

from typing import Final

BLUFF_THRESHOLD: Final = 0.5
"""The strength under which a raise with a known hand is a bluff, unless told otherwise."""


def is_bluff(strength: float | None, threshold: float = BLUFF_THRESHOLD) -> bool:
    """Whether a raise of this strength (``None``: the raiser's hand is not known) is a bluff."""
    return strength is not None and strength < threshold
