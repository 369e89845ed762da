"""Seeded bot players that write legal truclog/1 logs (``truclog simulate``).

:mod:`truclog.simulate.bots` holds the styles and the decisions;
:mod:`truclog.simulate.table` plays one game into events, with tabletop realism
on request; :mod:`truclog.simulate.run` drives many games (and rubbers) and
writes them.
"""

from truclog.simulate.bots import STYLES, Decision, Style, decide, hand_strength, parse_style

__all__ = ["STYLES", "Decision", "Style", "decide", "hand_strength", "parse_style"]
