"""Statistics: logs flattened into polars tables, and per-player statistics from them.

:mod:`truclog.stats.tables` builds the ``games``, ``hands`` and ``actions``
tables; :mod:`truclog.stats.players` counts and rates per player and team;
:mod:`truclog.stats.run` streams a corpus through both;
:mod:`truclog.stats.export` writes the tables as Parquet datasets that never mix.
"""
