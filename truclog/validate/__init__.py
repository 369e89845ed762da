"""The validator: each log replayed through the engine, every illegal move and wrong
claim reported.

:mod:`~truclog.validate.games` takes a log's lines game by game, giving each game to
the quick core (:mod:`~truclog.validate.quick`, in C) or to the line-by-line
:mod:`~truclog.validate.checker`; :mod:`~truclog.validate.rubbers` checks rubbers,
:mod:`~truclog.validate.tally` and :mod:`~truclog.validate.facts` hold what a game
cleared by the quick core came to, and :mod:`~truclog.validate.report` prints what
``truclog validate`` reports. The validator's names, and those of the records it
shares with quick validation, are importable from here, each when first used (so
that quick validation does not import the engine):

>>> from truclog.validate import check_log, CheckedGame
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from truclog.exports import exports

if TYPE_CHECKING:
    from truclog.diagnostic import ERROR, KEPT_PER_GAME, WARNING, Diagnostic, unfinished
    from truclog.format.copies import compared, duplicate_warning, fingerprint
    from truclog.validate.checker import (
        CheckedGame,
        CheckedHand,
        GameChecker,
        Step,
        describe_legal,
    )
    from truclog.validate.facts import GameFacts
    from truclog.validate.games import check_lines, check_log, check_logs
    from truclog.validate.rubbers import check_rubber, rubber_of
    from truclog.validate.tally import GameTally

_NAMES = {
    **dict.fromkeys(
        ["ERROR", "KEPT_PER_GAME", "WARNING", "Diagnostic", "unfinished"], "diagnostic"
    ),
    **dict.fromkeys(["compared", "duplicate_warning", "fingerprint"], "format.copies"),
    **dict.fromkeys(
        ["CheckedGame", "CheckedHand", "GameChecker", "Step", "describe_legal"],
        "validate.checker",
    ),
    "GameFacts": "validate.facts",
    **dict.fromkeys(["check_lines", "check_log", "check_logs"], "validate.games"),
    **dict.fromkeys(["check_rubber", "rubber_of"], "validate.rubbers"),
    "GameTally": "validate.tally",
}
"""Each name and the module (under ``truclog.``) it comes from."""

__all__ = [
    "ERROR",
    "KEPT_PER_GAME",
    "WARNING",
    "CheckedGame",
    "CheckedHand",
    "Diagnostic",
    "GameChecker",
    "GameFacts",
    "GameTally",
    "Step",
    "check_lines",
    "check_log",
    "check_logs",
    "check_rubber",
    "compared",
    "describe_legal",
    "duplicate_warning",
    "fingerprint",
    "rubber_of",
    "unfinished",
]

if not TYPE_CHECKING:  # to mypy, the names come from the imports above
    __getattr__ = exports(globals(), {name: f"truclog.{m}" for name, m in _NAMES.items()})
