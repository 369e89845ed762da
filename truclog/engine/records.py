"""How the engine's records are pickled and copied, the same whether they run
compiled or not.

Compiled with mypyc, an instance is made only through its class's ``__init__``, and
a frozen dataclass refuses the attribute-by-attribute restore that :mod:`pickle` and
:mod:`copy` fall back on. So each record says how it is made again: a dataclass from
its fields, in order (:func:`rebuilt`), a plain class by a ``__reduce__`` of its own.
Games, hands, steps and states can then go to other processes (``multiprocessing``,
Dask) and be copied with :func:`copy.deepcopy`.

>>> import pickle
>>> from truclog.engine.actions import Raise
>>> pickle.loads(pickle.dumps(Raise("Ana", to=3)))
Raise(player='Ana', to=3, reste=False)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeAlias

Reduced: TypeAlias = tuple[Callable[..., Any], tuple[Any, ...]]
"""What ``__reduce__`` gives: a callable and the arguments that make the object again."""


def rebuilt(record: Any) -> Reduced:
    """A dataclass record as its class and its fields' values, in order: called with
    them, the class makes an equal record."""
    return type(record), tuple(getattr(record, f.name) for f in fields(record))
