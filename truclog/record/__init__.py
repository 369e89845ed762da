"""Recording a game at the table: the recorder (:mod:`~truclog.record.recorder`, whose
names are importable from here, each when first used), the lock that keeps one
recorder per log (:mod:`~truclog.record.lock`) and the score sheet
(:mod:`~truclog.record.sheet`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from truclog.exports import exports

if TYPE_CHECKING:
    from truclog.record.recorder import (
        ME,
        CardSpec,
        Clock,
        DiskError,
        EditError,
        Entry,
        Recorder,
        RecordError,
        cut_for_deal,
        local_now,
    )

__all__ = [
    "ME",
    "CardSpec",
    "Clock",
    "DiskError",
    "EditError",
    "Entry",
    "RecordError",
    "Recorder",
    "cut_for_deal",
    "local_now",
]

if not TYPE_CHECKING:  # to mypy, the names come from the imports above
    __getattr__ = exports(globals(), dict.fromkeys(__all__, "truclog.record.recorder"))
