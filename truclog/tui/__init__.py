"""Textual tools: ``browse`` (replay and study logs) and ``record`` (log a game live).

Shared widgets that draw an engine :class:`~truclog.engine.State` live in
:mod:`truclog.tui.widgets`; each app has its own ``screens/`` and ``.tcss``.
"""
